import { LogIn, LogOut, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { logout } from '../api/endpoints';
import { useCurrentUser } from '../api/hooks';
import { clearSession, getStoredUser, rememberIntendedUrl } from '../lib/auth';
import { APP_NAME } from '../lib/constants';
import { initials } from '../lib/format';
import { KEYS, readKey, writeKey } from '../lib/storage';
import { AppFooter } from './app-footer';
import { HeaderBalance } from './balance/header-balance';
import { Button, IconButton } from './button';
import { Logo } from './logo';
import { navItemFor, Sidebar } from './sidebar';

/** Header, collapsible side menu, content and footer of every signed-in screen. */
export function AppShell() {
  const navigate = useNavigate();
  const location = useLocation();
  const [collapsed, setCollapsed] = useState(() => readKey(KEYS.sidebarCollapsed) === '1');
  const [leaving, setLeaving] = useState(false);
  const stored = getStoredUser();
  // Asking who we are also proves the token: a 401 here ends an expired session at once.
  const { data } = useCurrentUser();
  const user = data?.user;
  const displayName = user?.name || user?.username || stored?.username || '';
  const roleName = stored?.roleName || user?.role.split('|')[1] || '';

  useEffect(() => {
    const item = navItemFor(location.pathname);
    if (item) writeKey(KEYS.sideActiveLink, item.id);
  }, [location.pathname]);

  const toggle = () => {
    setCollapsed((c) => {
      writeKey(KEYS.sidebarCollapsed, c ? '0' : '1');
      return !c;
    });
  };

  const signOut = async () => {
    setLeaving(true);
    try {
      await logout();
    } catch {
      // The server may already consider the session gone; the local session ends regardless.
    }
    clearSession();
    navigate('/login', { replace: true });
  };

  return (
    <div className={collapsed ? 'shell is-collapsed' : 'shell'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <div className="app-header-start">
          <IconButton
            icon={collapsed ? PanelLeftOpen : PanelLeftClose}
            iconSize={18}
            onClick={toggle}
            label={collapsed ? 'Expand menu' : 'Collapse menu'}
            aria-expanded={!collapsed}
            aria-controls="sidebar"
            title={collapsed ? 'Expand menu' : 'Collapse menu'}
          />
          <Link to="/campaigns" className="app-logo" aria-label={`${APP_NAME} home`}>
            <Logo variant="header" />
          </Link>
        </div>
        <div className="app-header-end">
          {stored ? (
            <>
              <HeaderBalance />
              <div className="user-chip" data-testid="user-chip">
                <span className="avatar" aria-hidden>
                  {initials(displayName || '?')}
                </span>
                <span className="user-chip-text">
                  <span className="user-chip-name">{displayName}</span>
                  {roleName && <span className="user-chip-role">{roleName}</span>}
                </span>
              </div>
              <Button
                variant="ghost"
                size="sm"
                icon={<LogOut size={16} aria-hidden />}
                busy={leaving}
                onClick={signOut}
              >
                Logout
              </Button>
            </>
          ) : (
            <Button
              variant="secondary"
              size="sm"
              icon={<LogIn size={16} aria-hidden />}
              onClick={() => {
                rememberIntendedUrl(location.pathname + location.search);
                navigate('/login');
              }}
            >
              Log in
            </Button>
          )}
        </div>
      </header>
      <aside className="sidebar" id="sidebar">
        <Sidebar
          collapsed={collapsed}
          isAdmin={stored?.roleType === 'admin'}
          canOperate={stored?.roleType === 'admin' || stored?.roleType === 'coach'}
        />
      </aside>
      <div className="main-col">
        <main id="main" className="main" tabIndex={-1}>
          <Outlet />
        </main>
        <AppFooter />
      </div>
    </div>
  );
}
