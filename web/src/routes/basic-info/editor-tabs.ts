// The campaign editor's tabs (spec 2 §2): which there are, which a campaign shows, and how the
// keyboard moves along them.
import {
  GitBranch,
  Image,
  Link2,
  ListChecks,
  MousePointerClick,
  Route,
  Settings2,
  Truck,
} from 'lucide-react';
import type { KeyboardEvent } from 'react';
import type { CampaignType } from '../../../../schema/campaigns';
import { type TabItem, tabStep } from '../../components/tab-bar';

export type TabKey = 'basic' | 'landing' | 'offer' | 'links' | 'paths' | 'options' | 'banners' | 'traffic';

export const TABS: TabItem<TabKey>[] = [
  { key: 'basic', label: 'Basic settings', icon: Settings2 },
  { key: 'landing', label: 'Landing pages', icon: MousePointerClick },
  { key: 'offer', label: 'Offer pages', icon: ListChecks },
  { key: 'links', label: 'Links and pixels', icon: Link2 },
  { key: 'paths', label: 'Paths', icon: Route },
  { key: 'options', label: 'Options', icon: GitBranch },
  { key: 'banners', label: 'Banners and placement', icon: Image },
  { key: 'traffic', label: 'Traffic', icon: Truck },
];

/**
 * The show rules of spec 2 §2, except that a direct-link campaign has no Landing pages tab: its
 * visitors go straight to an offer page, and the server refuses landing pages for it.
 */
export function visibleTabs(type: CampaignType, source: string): TabKey[] {
  return TABS.map((t) => t.key).filter((key) => {
    if (key === 'landing') return type !== 'direct_link';
    if (key === 'paths') return type === 'multiple_path_type';
    if (key === 'options') return type === 'multiple_option_type';
    if (key === 'banners') return source === 'blaze';
    if (key === 'traffic') return source === 'trrcpc' || source === 'crane';
    return true;
  });
}

/** Arrows, Home and End move the focus along the tabs; Enter or a click selects one. */
export function moveTabFocus(e: KeyboardEvent<HTMLDivElement>) {
  const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const to = tabStep(e.key, buttons.indexOf(document.activeElement as HTMLButtonElement), buttons.length);
  if (to === null) return;
  e.preventDefault();
  buttons[to]?.focus();
}
