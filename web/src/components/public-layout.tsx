import { Outlet } from 'react-router';
import { APP_NAME, APP_VERSION } from '../lib/constants';
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
      <footer className="app-footer">
        <span>{APP_NAME}</span>
        <span aria-hidden>·</span>
        <span>Version {APP_VERSION}</span>
      </footer>
    </div>
  );
}
