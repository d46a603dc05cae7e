import {
  LayoutDashboard,
  type LucideIcon,
  Megaphone,
  Newspaper,
  Plug,
  Settings,
  Users,
  Wallet,
  Webhook,
  Wrench,
} from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { KEYS, readSideActiveLink, removeKey, writeKey } from '../lib/storage';

type NavItem = {
  id: number;
  label: string;
  to: string;
  icon: LucideIcon;
  /** Paths that belong to this link (so /stats/12 lights Campaigns). */
  matches: readonly string[];
  adminOnly?: boolean;
};

// The numbers are the side-menu link ids kept in sideActiveLink: 1 Dashboard, 2 Campaigns,
// 3 Settings, as in the spec's side menu; the rest follow.
export const NAV_ITEMS: readonly NavItem[] = [
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
];

export function navItemFor(pathname: string): NavItem | undefined {
  return NAV_ITEMS.find((item) => item.matches.some((m) => pathname === m || pathname.startsWith(`${m}/`)));
}

export function Sidebar({ collapsed, isAdmin }: { collapsed: boolean; isAdmin: boolean }) {
  const { pathname } = useLocation();
  // The current path decides; a path outside the menu keeps the remembered link lit.
  const activeId = navItemFor(pathname)?.id ?? readSideActiveLink();
  const items = NAV_ITEMS.filter((item) => !item.adminOnly || isAdmin);

  const choose = (item: NavItem) => {
    writeKey(KEYS.sideActiveLink, item.id);
    // Campaigns always opens at the top level, not in the folder last visited.
    if (item.id === 2) removeKey(KEYS.campaignsDir);
  };

  return (
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
  );
}
