// The statistics screen's requests: the applied filters, each table's page/sort/search, and the
// request bodies of spec 3 §3 built from them. Dates travel as dd-MM-yyyy ('' = open).
import { toDmy } from '../../../../schema/dates';
import {
  checkDates,
  numberSetsOf,
  STATS_MESSAGES,
  type StatisticsRequestBody,
  targetDefaultSort,
} from '../../../../schema/stats-api';
import type { SortState } from '../../components/data-table/sorting';

export type Applied = {
  campaignId: number;
  /** The campaign's traffic source: its number set goes with every request (spec 3 §1, §3). */
  trafficSource?: string;
  /** yyyy-MM-dd or '' */
  start: string;
  end: string;
  /** Extra-token parameters the target table is grouped by (several at once). */
  extraTokens: string[];
  /** Extra-token parameters the landing table is grouped by. */
  landingExtraTokens?: string[];
  /** Leave out the rows without a value of a grouped token (noInputTokens). */
  noInput?: boolean;
  /** The metric columns ticked in the picker; unset until the first answer names the defaults. */
  metrics?: string[];
  landingDeleted: boolean;
  offerDeleted: boolean;
  pathDeleted: boolean;
};

export type TableQuery = { page: number; sort: SortState; search: string };

export const TARGET_DEFAULT_SORT: SortState = targetDefaultSort('');
export const LANDING_DEFAULT_SORT: SortState = { key: 'visits', order: 'desc' };

/**
 * The sort, pager and search props of a paged statistics table, bound to its query: a new sort or
 * search starts again at page 1. The screen reloads every table at page 1 when the shared page
 * length changes, so a table's own page-length change does nothing.
 */
export function queryTableProps(
  query: TableQuery,
  onQueryChange: (query: TableQuery) => void,
  searchPlaceholder: string,
) {
  return {
    sort: query.sort,
    onSortChange: (sort: SortState) => onQueryChange({ ...query, sort, page: 1 }),
    onPageChange: (page: number) => onQueryChange({ ...query, page }),
    onPerPageChange: () => {},
    search: {
      value: query.search,
      placeholder: searchPlaceholder,
      onSearch: (search: string) => onQueryChange({ ...query, search, page: 1 }),
    },
  };
}

export const firstPage = (sort: SortState, search = ''): TableQuery => ({ page: 1, sort, search });

const dmy = (day: string) => (day ? toDmy(day) : '');

/** The grouped tokens whose rows without a value are left out: every grouped one, or none. */
function noInputTokens(a: Applied): string[] {
  return a.noInput ? [...new Set([...a.extraTokens, ...(a.landingExtraTokens ?? [])])] : [];
}

export function baseBody(a: Applied): StatisticsRequestBody {
  const landingTokens = a.landingExtraTokens ?? [];
  return {
    campaignId: a.campaignId,
    startDate: dmy(a.start),
    endDate: dmy(a.end),
    // Spec 3 §3 sends the grouped tokens twice, as the picker's choice and as the column fields.
    extraTokens: a.extraTokens,
    extraTokenFields: a.extraTokens,
    landingExtraTokens: landingTokens,
    landingExtraTokenFields: landingTokens,
    noInputTokens: noInputTokens(a),
    ...(a.metrics ? { metricParams: a.metrics } : {}),
    landingDeletedStatus: a.landingDeleted,
    offerDeletedStatus: a.offerDeleted,
    pathDeletedStatus: a.pathDeleted,
    ...numberSetsOf(a.trafficSource ?? ''),
  };
}

export function fullBody(
  a: Applied,
  target: TableQuery,
  landing: TableQuery,
  perPage: number,
  extra: Partial<StatisticsRequestBody> = {},
): StatisticsRequestBody {
  return {
    ...baseBody(a),
    part: 'all',
    currentPage: target.page,
    perPage,
    search: target.search,
    sortKey: target.sort.key,
    sortOrder: target.sort.order,
    landingCurrentPage: landing.page,
    landingPerPage: perPage,
    landingTargetSearch: landing.search,
    landingSortKey: landing.sort.key,
    landingSortOrder: landing.sort.order,
    ...extra,
  };
}

export type FilterProblem = { field: 'campaign' | 'start' | 'end'; message: string };

/** The spec's checks before search and export, in its order (spec 3 §5). */
export function checkFilters(
  campaignId: number | null,
  start: string,
  end: string,
  today: string,
): FilterProblem | null {
  if (!campaignId) return { field: 'campaign', message: STATS_MESSAGES.selectCampaign };
  const message = checkDates(start, end, today);
  if (!message) return null;
  return { field: message === STATS_MESSAGES.startAfterToday ? 'start' : 'end', message };
}

/** The landing columns of the CSV export: the page, its grouped tokens, then the numbers. */
export function landingExportColumns(a: Applied, columns: readonly string[]): string[] {
  const [first, ...rest] = columns;
  return [first, ...(a.landingExtraTokens ?? []), ...rest];
}

/**
 * The picker's metrics as the next requests' metricParams. The rows shown carry the metrics last
 * asked for (all of them before any choice), so only a metric they lack needs the rows again.
 */
export function withMetrics(a: Applied, metrics: string[]): { applied: Applied; refetch: boolean } {
  const carried = a.metrics;
  return {
    applied: { ...a, metrics },
    refetch: carried !== undefined && metrics.some((m) => !carried.includes(m)),
  };
}
