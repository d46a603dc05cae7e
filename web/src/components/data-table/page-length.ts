// The page-length preference shared by the statistics tables (spec 3 §2): stored in
// localStorage, one value for every table, and every table hears a change at once.
import { useCallback, useState, useSyncExternalStore } from 'react';

const PAGE_LENGTH_KEY = 'tablePageLength';
export const PAGE_LENGTHS = [10, 25, 50, 100] as const;
const DEFAULT_PAGE_LENGTH = 10;

const listeners = new Set<() => void>();

function read(): number {
  try {
    const n = Number(window.localStorage.getItem(PAGE_LENGTH_KEY));
    return (PAGE_LENGTHS as readonly number[]).includes(n) ? n : DEFAULT_PAGE_LENGTH;
  } catch {
    return DEFAULT_PAGE_LENGTH;
  }
}

export function setPageLength(n: number): void {
  try {
    window.localStorage.setItem(PAGE_LENGTH_KEY, String(n));
  } catch {
    // Storage blocked: the choice still holds for this page view through the listeners.
  }
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === PAGE_LENGTH_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function usePageLength(): number {
  return useSyncExternalStore(subscribe, read, () => DEFAULT_PAGE_LENGTH);
}

/**
 * A table's page with the shared page length: when the length changes (here or in another
 * table) the page goes back to 1.
 */
export function usePaging() {
  const perPage = usePageLength();
  const [state, setState] = useState({ page: 1, perPage });
  const page = state.perPage === perPage ? state.page : 1;
  const setPage = useCallback((p: number) => setState({ page: p, perPage: read() }), []);
  return { page, perPage, setPage };
}
