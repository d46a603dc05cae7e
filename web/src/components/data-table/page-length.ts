// The page-length preference shared by the statistics tables (spec 3 §2): stored in
// localStorage, one value for every table, and every table hears a change at once.
import { useCallback, useState } from 'react';
import { storedChoice } from '../../lib/stored-choice';

export const PAGE_LENGTHS = [10, 25, 50, 100] as const;
const pageLength = storedChoice<number>('tablePageLength', PAGE_LENGTHS, 10, Number);
const read = pageLength.read;
export const setPageLength = pageLength.set;

export function usePageLength(): number {
  return pageLength.use();
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
