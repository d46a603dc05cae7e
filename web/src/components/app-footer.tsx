import { APP_NAME, APP_VERSION } from '../lib/constants';

/** The name and version under every page, signed in or not. */
export function AppFooter() {
  return (
    <footer className="app-footer">
      <span>{APP_NAME}</span>
      <span aria-hidden>·</span>
      <span>Version {APP_VERSION}</span>
    </footer>
  );
}
