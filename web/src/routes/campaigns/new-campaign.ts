// The campaign just made (created in the editor, or cloned): the list opens the page that holds
// it, marks its row and says where it is (issue 27), since the order by id puts a new campaign
// last, often on a later page. Kept for this browser tab only.
const KEY = 'newCampaignId';

export function rememberNewCampaign(id: number): void {
  try {
    window.sessionStorage.setItem(KEY, String(id));
  } catch {
    // Storage blocked: the list simply opens on its first page.
  }
}

/**
 * The remembered id. It is forgotten once the list has shown it (forgetNewCampaign), not when
 * read: a list that mounts again before it has its rows (a fast click from the editor) still
 * finds it.
 */
export function peekNewCampaign(): number | null {
  try {
    const id = Number(window.sessionStorage.getItem(KEY));
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

export function forgetNewCampaign(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage blocked: nothing was kept.
  }
}

/** The 1-based page of `id` in `rows` cut into pages of `pageLength`, or null when absent. */
export function pageOf(
  rows: readonly { campaignId: number }[],
  id: number,
  pageLength: number,
): number | null {
  const at = rows.findIndex((r) => r.campaignId === id);
  return at < 0 ? null : Math.floor(at / pageLength) + 1;
}
