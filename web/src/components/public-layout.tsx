import { Outlet } from 'react-router';
import { AppFooter } from './app-footer';
import { Logo } from './logo';

/** Public pages that are read without signing in (the rotator offer report). */
export function PublicLayout() {
  return (
    <div className="public-page">
      <header className="app-header public-header">
        <div className="app-header-start">
          <span className="app-logo">
            <Logo variant="header" />
          </span>
        </div>
      </header>
      <main className="main public-main" id="main">
        <Outlet />
      </main>
      <AppFooter />
    </div>
  );
}
