// What each kind of editor item (landing page, offer page, path, option) is called, how its
// table reads, its id and its pages-operation verbs: one place for the four tables.
import { GitBranch, ListChecks, type LucideIcon, MousePointerClick, Route } from 'lucide-react';
import type { ItemKind, ItemOf } from './types';

/** A kind's pages-operation verbs and the names their ids go under. */
type Verbs = {
  delete: string;
  deleteKey: string;
  undo: string;
  undoKey: string;
  clone: string;
  cloneKey: string;
  toggle: string;
  equal?: string;
  export?: 'export-landings' | 'export-offers';
  exportKey?: string;
};

/**
 * A kind's verbs (delete-landing, undo-landing, clone-landings, landing-toggle-delete,
 * landing-equal-share, export-landings), with the name its list of ids goes under.
 */
function itemVerbs(
  kind: ItemKind,
  idsKey: string,
  { equalShare = true, exportable = false }: { equalShare?: boolean; exportable?: boolean } = {},
): Verbs {
  return {
    delete: `delete-${kind}`,
    deleteKey: `${kind}Id`,
    undo: `undo-${kind}`,
    undoKey: `${kind}Id`,
    clone: `clone-${kind}s`,
    cloneKey: idsKey,
    toggle: `${kind}-toggle-delete`,
    ...(equalShare ? { equal: `${kind}-equal-share` } : {}),
    ...(exportable && (kind === 'landing' || kind === 'offer')
      ? { export: `export-${kind}s` as const, exportKey: idsKey }
      : {}),
  };
}

export type ItemTable = {
  title: string;
  description: string;
  singular: string;
  plural: string;
  icon: LucideIcon;
  /** What the empty table says to do. */
  emptyText: string;
  verbs: Verbs;
};

export const ITEM_TABLES: Record<ItemKind, ItemTable> = {
  landing: {
    title: 'Landing pages',
    description: 'Visitors are split across the active pages by share, per path and device.',
    singular: 'landing page',
    plural: 'landing pages',
    icon: MousePointerClick,
    emptyText: 'Add the pages visitors see before the offer, or upload them from a CSV file.',
    verbs: itemVerbs('landing', 'landingIds', { exportable: true }),
  },
  offer: {
    title: 'Offer pages',
    description: 'Where visitors convert. Traffic is split by share among the active offers of each group.',
    singular: 'offer page',
    plural: 'offer pages',
    icon: ListChecks,
    emptyText: 'Add the offers visitors are sent to, with the payout each conversion earns.',
    verbs: itemVerbs('offer', 'offerPageIds', { exportable: true }),
  },
  path: {
    title: 'Paths',
    description:
      "Each path is a funnel of its own: visitors are split across paths by share, then across the path's landing pages and offers.",
    singular: 'path',
    plural: 'paths',
    icon: Route,
    emptyText:
      'A multiple-path campaign needs at least one path before landing and offer pages can be added.',
    verbs: itemVerbs('path', 'pathIds'),
  },
  option: {
    title: 'Options',
    description: 'The choices a landing page offers; each option links to its own offer pages.',
    singular: 'option',
    plural: 'options',
    icon: GitBranch,
    emptyText: 'A multiple-option campaign needs at least one option before offer pages can be added.',
    verbs: itemVerbs('option', 'optionIds', { equalShare: false }),
  },
};

/** Each kind's row id. */
export const ITEM_IDS: { [K in ItemKind]: (row: ItemOf<K>) => number } = {
  landing: (r) => r.landingPageId,
  offer: (r) => r.offerPageId,
  path: (r) => r.pathId,
  option: (r) => r.optionId,
};
