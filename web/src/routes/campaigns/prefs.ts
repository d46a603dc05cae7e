// The list's remembered choices (spec 1 §3, §9): sort (campaignSortBy), show deleted
// (campaignsShowDeleted), the open folder (campaignsDir) and the page length.
import { useCallback, useState } from 'react';
import { setPageLength, usePageLength } from '../../components/data-table/page-length';
import { KEYS, readKey, writeKey } from '../../lib/storage';

const SORTS = ['campaignId', '-campaignId', 'name', '-name'] as const;
export type SortBy = (typeof SORTS)[number];
const DEFAULT_SORT: SortBy = 'campaignId';

function readSort(): SortBy {
  const value = readKey(KEYS.campaignSortBy);
  return (SORTS as readonly string[]).includes(value ?? '') ? (value as SortBy) : DEFAULT_SORT;
}

export function useListPrefs() {
  const [sortBy, setSortState] = useState<SortBy>(readSort);
  const [showDeleted, setShowDeletedState] = useState(() => readKey(KEYS.campaignsShowDeleted) === '1');
  // The tables' shared page-length preference: the statistics tables read and set the same one.
  const pageLength = usePageLength();

  const setSortBy = useCallback((value: SortBy) => {
    writeKey(KEYS.campaignSortBy, value);
    setSortState(value);
  }, []);
  const setShowDeleted = useCallback((value: boolean) => {
    writeKey(KEYS.campaignsShowDeleted, value ? '1' : '0');
    setShowDeletedState(value);
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
