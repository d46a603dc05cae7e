import {
  CircleHelp,
  LayoutDashboard,
  type LucideIcon,
  Megaphone,
  Network,
  Newspaper,
  Plug,
  Settings,
  Users,
  Wallet,
  Webhook,
  Wrench,
  X,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { OperatorStatusAnswer } from '../../../schema/operator-api';
import { useApi, useLogo, useServedVersion } from '../api/hooks';
import { APP_NAME, APP_VERSION } from '../lib/constants';
import { KEYS, readSideActiveLink, removeKey, writeKey } from '../lib/storage';
import { IconButton } from './button';
import { LogoMark } from './logo';

type NavItem = {
  id: number;
  label: string;
  to: string;
  icon: LucideIcon;
  /** Paths that belong to this link (so /stats/12 lights Campaigns). */
  matches: readonly string[];
  adminOnly?: boolean;
  /** Only on the operator's host, for its admins and coaches (docs/decisions/137). */
  operatorOnly?: boolean;
};

// The numbers are the side-menu link ids kept in sideActiveLink: 1 Dashboard, 2 Campaigns,
// 3 Settings, as in the spec's side menu; the rest follow.
const NAV_ITEMS: readonly NavItem[] = [
  { id: 1, label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard, matches: ['/dashboard'] },
  {
    id: 2,
    label: 'Campaigns',
    to: '/campaigns',
    icon: Megaphone,
    matches: ['/campaigns', '/basic-info', '/stats', '/manage-liveintent'],
  },
  { id: 3, label: 'Settings', to: '/setting', icon: Settings, matches: ['/setting'] },
  { id: 4, label: 'Funding', to: '/funding', icon: Wallet, matches: ['/funding'] },
  { id: 5, label: 'Integrations', to: '/integrations', icon: Plug, matches: ['/integrations'] },
  { id: 6, label: 'Postback URLs', to: '/postback-urls', icon: Webhook, matches: ['/postback-urls'] },
  { id: 7, label: 'Tools', to: '/tools', icon: Wrench, matches: ['/tools', '/conversion-tracker'] },
  { id: 8, label: 'Release notes', to: '/release-notes', icon: Newspaper, matches: ['/release-notes'] },
  { id: 9, label: 'Users', to: '/registeruser', icon: Users, matches: ['/registeruser'], adminOnly: true },
  {
    id: 10,
    label: 'Master dashboard',
    to: '/master-dashboard',
    icon: Network,
    matches: ['/master-dashboard'],
    operatorOnly: true,
  },
];

export function navItemFor(pathname: string): NavItem | undefined {
  return NAV_ITEMS.find((item) => item.matches.some((m) => pathname === m || pathname.startsWith(`${m}/`)));
}

export function Sidebar({
  collapsed,
  isAdmin,
  canOperate,
}: {
  collapsed: boolean;
  isAdmin: boolean;
  /** An admin or coach, who may use the master dashboard where this is the operator's host. */
  canOperate: boolean;
}) {
  const { pathname } = useLocation();
  // The current path decides; a path outside the menu keeps the remembered link lit.
  const activeId = navItemFor(pathname)?.id ?? readSideActiveLink();
  const operator = useApi<OperatorStatusAnswer>(canOperate ? 'operator/status' : null, {
    revalidateOnFocus: false,
  }).data?.operator;
  const items = NAV_ITEMS.filter(
    (item) => (!item.adminOnly || isAdmin) && (!item.operatorOnly || (canOperate && operator === true)),
  );

  const choose = (item: NavItem) => {
    writeKey(KEYS.sideActiveLink, item.id);
    // Campaigns always opens at the top level, not in the folder last visited.
    if (item.id === 2) removeKey(KEYS.campaignsDir);
  };

  return (
    <div className="sidebar-body">
      <nav className="sidebar-nav" aria-label="Main">
        <ul>
          {items.map((item) => {
            const active = item.id === activeId;
            const Icon = item.icon;
            return (
              <li key={item.id}>
                <Link
                  to={item.to}
                  className={active ? 'nav-link is-active' : 'nav-link'}
                  aria-current={active ? 'page' : undefined}
                  onClick={() => choose(item)}
                  title={collapsed ? item.label : undefined}
                  aria-label={collapsed ? item.label : undefined}
                  data-nav-id={item.id}
                >
                  <Icon size={18} aria-hidden className="nav-icon" />
                  <span className="nav-label">{item.label}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <SidebarFooter />
    </div>
  );
}

/**
 * The foot of the side menu (spec 2 §2): a help panel, and the installation's mark and title
 * with the version.
 */
function SidebarFooter() {
  const { data } = useLogo();
  const served = useServedVersion().data;
  const [helpOpen, setHelpOpen] = useState(true);
  const title = data?.title || APP_NAME;
  return (
    <div className="sidebar-footer">
      {helpOpen && (
        <section className="help-panel" aria-labelledby="help-panel-title">
          <div className="help-panel-head">
            <h2 className="help-panel-title" id="help-panel-title">
              <CircleHelp size={15} aria-hidden />
              Need help?
            </h2>
            <IconButton
              icon={X}
              iconSize={14}
              onClick={() => setHelpOpen(false)}
              label="Hide help"
              title="Hide help"
            />
          </div>
          <p className="help-panel-text">
            Links, pixels and postbacks for each campaign are on its Links and pixels tab.
          </p>
          <ul className="help-panel-links">
            <li>
              <Link to="/postback-urls">Postback URLs</Link>
            </li>
            <li>
              <Link to="/tools">Tools</Link>
            </li>
            <li>
              <Link to="/release-notes">What’s new in {APP_VERSION}</Link>
            </li>
          </ul>
        </section>
      )}
      <Link to="/release-notes" className="help-toggle icon-btn" aria-label="Help" title="Help">
        <CircleHelp size={18} aria-hidden />
      </Link>
      <div className="sidebar-brand" data-testid="sidebar-brand">
        {/* The square mark: the installation's icon (the wide logo sits in the header). */}
        {data?.favicon ? (
          <img className="sidebar-brand-logo" src={data.favicon} alt="" />
        ) : (
          <LogoMark size={24} />
        )}
        <span className="sidebar-brand-text">
          <span className="sidebar-brand-title">{title}</span>
          <span className="sidebar-brand-version">Version {APP_VERSION}</span>
          {served && served !== APP_VERSION && (
            <button
              type="button"
              className="sidebar-brand-upgrade"
              onClick={() => window.location.reload()}
              data-testid="upgrade-available"
            >
              Version {served} is out: reload
            </button>
          )}
        </span>
      </div>
    </div>
  );
}
