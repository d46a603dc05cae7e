// Local storage keys of spec 1 §3 (and the few the shell adds). One place, so every screen
// reads and writes the same names.
export const KEYS = {
  token: 'token',
  username: 'username',
  userId: 'userId',
  roleType: 'roleType',
  roleName: 'roleName',
  sideActiveLink: 'sideActiveLink',
  intendedUrl: 'intendedUrl',
  campaignSortBy: 'campaignSortBy',
  campaignsShowDeleted: 'campaignsShowDeleted',
  /** The folder the campaigns list has open; cleared when the Campaigns link is chosen. */
  campaignsDir: 'campaignsDir',
  /** The shell's own preference: sidebar collapsed ('1') or expanded. */
  sidebarCollapsed: 'sidebarCollapsed',
  /** The conversion tracker page's three values (spec 3 §2): account, conversion name, event type. */
  conversionAccountId: 'conversionAccountId',
  conversionName: 'conversionName',
  conversionEventType: 'conversionEventType',
} as const;

export type StorageKey = (typeof KEYS)[keyof typeof KEYS];

export const DEFAULT_SIDE_ACTIVE_LINK = 1;

export function readKey(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeKey(key: StorageKey, value: string | number): void {
  try {
    window.localStorage.setItem(key, String(value));
  } catch {
    // Storage full or blocked (private mode): the app still works for this page view.
  }
}

export function removeKey(key: StorageKey): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // see writeKey
  }
}

export function readSideActiveLink(): number {
  const n = Number(readKey(KEYS.sideActiveLink));
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_SIDE_ACTIVE_LINK;
}

// ---- the new-campaign draft (spec 1 §3 "a campaign-key draft", §9) ---------------------------

/** A new campaign's draft is kept under this text followed by the time it was started (ms). */
export const CAMPAIGN_DRAFT_PREFIX = 'CAMPAIGN';
const DRAFT_KEY = /^CAMPAIGN\d+$/;

function draftKeys(): string[] {
  try {
    return Object.keys(window.localStorage).filter((k) => DRAFT_KEY.test(k));
  } catch {
    return [];
  }
}

/** The newest draft, if any: its key and the text kept under it. */
export function readCampaignDraft(): { key: string; value: string } | null {
  const key = draftKeys().sort((a, b) => Number(b.slice(8)) - Number(a.slice(8)))[0];
  if (!key) return null;
  try {
    const value = window.localStorage.getItem(key);
    return value === null ? null : { key, value };
  } catch {
    return null;
  }
}

export function writeCampaignDraft(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // see writeKey
  }
}

/** Forgets every draft: the campaign was created, or its edits were given up. */
export function clearCampaignDrafts(): void {
  for (const key of draftKeys()) {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // see writeKey
    }
  }
}
