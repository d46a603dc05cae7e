// Sorting and paging helpers of the data table, for tables whose rows are all in the browser.

type SortOrder = 'asc' | 'desc';
export type SortState = { key: string; order: SortOrder };

/** Clicking a column: a new column sorts descending first, the same column flips (spec 3 §2). */
export function nextSort(current: SortState | undefined, key: string): SortState {
  if (!current || current.key !== key) return { key, order: 'desc' };
  return { key, order: current.order === 'desc' ? 'asc' : 'desc' };
}

/** Numbers, or money written like '$1,234.56', compare as numbers; anything else as text. */
function sortValue(v: unknown): number | string {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const money = /^-?\$?-?[\d,]+(\.\d+)?%?$/.test(v.trim()) ? Number(v.replace(/[$,%]/g, '')) : Number.NaN;
    if (Number.isFinite(money)) return money;
    return v.toLowerCase();
  }
  return v === null || v === undefined ? '' : String(v);
}

export function sortRows<R>(
  rows: readonly R[],
  sort: SortState | undefined,
  value: (row: R, key: string) => unknown,
) {
  if (!sort) return [...rows];
  const dir = sort.order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = sortValue(value(a, sort.key));
    const y = sortValue(value(b, sort.key));
    const cmp = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return cmp * dir;
  });
}

export function lastPage(totalCount: number, perPage: number): number {
  return Math.max(1, Math.ceil(totalCount / Math.max(1, perPage)));
}

export function pageRows<R>(rows: readonly R[], page: number, perPage: number): R[] {
  const p = Math.min(Math.max(1, page), lastPage(rows.length, perPage));
  return rows.slice((p - 1) * perPage, p * perPage);
}

/** Text longer than 30 characters gets a tooltip listing its comma-separated parts (spec 3 §9). */
const TOOLTIP_MIN_LENGTH = 30;
export function tooltipParts(text: string): string[] | null {
  if (text.length <= TOOLTIP_MIN_LENGTH) return null;
  return text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}
