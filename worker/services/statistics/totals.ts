import { adClickBase, addBase, cpa, cpc, emptyBase, epc, roi, round, safeDiv } from '../../../schema/metrics';
import { dollars } from './common';
import type { TargetAgg } from './targets';

// Footer totals and the server-side paging every table shares.

/** The totals object of spec 3 §3 over any set of aggregates, with the spec's rounding (§9). */
export function totals(
  rows: Pick<
    TargetAgg,
    'visits' | 'lpClicks' | 'conversions' | 'revenue' | 'impressions' | 'adClicks' | 'spend'
  >[],
) {
  const s = rows.reduce(addBase, emptyBase());
  const base = adClickBase(s.adClicks, s.visits);
  return {
    visitsTotal: s.visits,
    clicksTotal: s.adClicks,
    impressionsTotal: s.impressions,
    conversionsTotal: s.conversions,
    crTotal: round(safeDiv(s.conversions, s.visits) * 100, 2),
    ctrTotal: round(safeDiv(base.clicks, s.impressions) * 100, 3),
    lpclicksTotal: s.lpClicks,
    lpctrTotal: round(safeDiv(s.lpClicks, s.visits) * 100, 2),
    ad_cpc_total: dollars(cpc(s.spend, base.clicks)),
    ad_clicks_from: base.from,
    lp_cpc_total: dollars(safeDiv(s.spend, s.lpClicks)),
    roi_total: roi(s.revenue, s.spend),
    ad_spent: dollars(s.spend),
    revenue: dollars(s.revenue),
    net: dollars(s.revenue - s.spend),
    cpa: dollars(cpa(s.spend, s.conversions)),
    epc_total: dollars(epc(s.revenue, s.visits)),
  };
}

/** Compares rows by a column: numbers numerically, anything else as text. */
export function compareBy(sortKey: string, sortOrder: 'asc' | 'desc') {
  const dir = sortOrder === 'asc' ? 1 : -1;
  return (a: Record<string, unknown>, b: Record<string, unknown>) => {
    const x = a[sortKey];
    const y = b[sortKey];
    const cmp =
      typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''));
    return cmp * dir;
  };
}

/** Sorts rows by a column (numbers numerically, text by locale), then pages them. */
export function sortAndPage<T extends Record<string, unknown>>(
  rows: T[],
  {
    sortKey,
    sortOrder,
    page,
    perPage,
    search,
    searchKeys,
  }: {
    sortKey: string;
    sortOrder: 'asc' | 'desc';
    page: number;
    perPage: number;
    search: string;
    searchKeys: string[];
  },
) {
  const needle = search.toLowerCase();
  const filtered = needle
    ? rows.filter((r) =>
        searchKeys.some((k) =>
          String(r[k] ?? '')
            .toLowerCase()
            .includes(needle),
        ),
      )
    : rows;
  const sorted = [...filtered].sort(compareBy(sortKey, sortOrder));
  const lastPage = Math.max(1, Math.ceil(sorted.length / perPage));
  const current = Math.min(page, lastPage);
  return {
    records: sorted.slice((current - 1) * perPage, current * perPage),
    currentPage: current,
    totalCount: filtered.length,
  };
}
