// The list's remembered choices (spec 1 §3, §9): sort (campaignSortBy), show deleted
// (campaignsShowDeleted), the open folder (campaignsDir) and the page length.
import { useCallback, useState } from 'react';
import { KEYS, readKey, writeKey } from '../../lib/storage';

const SORTS = ['campaignId', '-campaignId', 'name', '-name'] as const;
export type SortBy = (typeof SORTS)[number];
const DEFAULT_SORT: SortBy = 'campaignId';

export const PAGE_LENGTHS = [10, 25, 50, 100] as const;
const DEFAULT_PAGE_LENGTH = 10;
/** The tables' shared page-length preference (the statistics tables read the same key). */
const PAGE_LENGTH_KEY = 'tablePageLength';

function readSort(): SortBy {
  const value = readKey(KEYS.campaignSortBy);
  return (SORTS as readonly string[]).includes(value ?? '') ? (value as SortBy) : DEFAULT_SORT;
}

function readPageLength(): number {
  try {
    const n = Number(window.localStorage.getItem(PAGE_LENGTH_KEY));
    return (PAGE_LENGTHS as readonly number[]).includes(n) ? n : DEFAULT_PAGE_LENGTH;
  } catch {
    return DEFAULT_PAGE_LENGTH;
  }
}

export function useListPrefs() {
  const [sortBy, setSortState] = useState<SortBy>(readSort);
  const [showDeleted, setShowDeletedState] = useState(() => readKey(KEYS.campaignsShowDeleted) === '1');
  const [pageLength, setPageLengthState] = useState(readPageLength);

  const setSortBy = useCallback((value: SortBy) => {
    writeKey(KEYS.campaignSortBy, value);
    setSortState(value);
  }, []);
  const setShowDeleted = useCallback((value: boolean) => {
    writeKey(KEYS.campaignsShowDeleted, value ? '1' : '0');
    setShowDeletedState(value);
  }, []);
  const setPageLength = useCallback((value: number) => {
    try {
      window.localStorage.setItem(PAGE_LENGTH_KEY, String(value));
    } catch {
      // Storage blocked: the choice holds for this page view.
    }
    setPageLengthState(value);
  }, []);
  return { sortBy, setSortBy, showDeleted, setShowDeleted, pageLength, setPageLength };
}

/** Folders first by name; then campaigns in the chosen order (spec 1 §9). */
export function sortRows<T extends { campaignId: number; name: string; is_dir: number }>(
  rows: readonly T[],
  sortBy: SortBy,
): T[] {
  const byName = (a: T, b: T) =>
    a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });
  const folders = rows.filter((r) => r.is_dir === 1).sort(byName);
  const campaigns = rows.filter((r) => r.is_dir !== 1);
  const desc = sortBy.startsWith('-');
  const key = sortBy.replace('-', '');
  campaigns.sort((a, b) => {
    const order = key === 'name' ? byName(a, b) || a.campaignId - b.campaignId : a.campaignId - b.campaignId;
    return desc ? -order : order;
  });
  return [...folders, ...campaigns];
}
