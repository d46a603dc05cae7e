// The statistics screen's requests: the applied filters, each table's page/sort/search, and the
// request bodies of spec 3 §3 built from them. Dates travel as dd-MM-yyyy ('' = open).
import { toDmy } from '../../../../schema/dates';
import { checkDates, STATS_MESSAGES } from '../../../../schema/stats-api';
import type { StatisticsRequestBody } from '../../api/endpoints';
import type { SortState } from '../../components/data-table/sorting';

export type Applied = {
  campaignId: number;
  /** yyyy-MM-dd or '' */
  start: string;
  end: string;
  extraTokens: string[];
  landingDeleted: boolean;
  offerDeleted: boolean;
  pathDeleted: boolean;
};

export type TableQuery = { page: number; sort: SortState; search: string };

export const TARGET_DEFAULT_SORT: SortState = { key: 'ctr', order: 'desc' };
export const LANDING_DEFAULT_SORT: SortState = { key: 'visits', order: 'desc' };

export const firstPage = (sort: SortState, search = ''): TableQuery => ({ page: 1, sort, search });

const dmy = (day: string) => (day ? toDmy(day) : '');

export function baseBody(a: Applied): StatisticsRequestBody {
  return {
    campaignId: a.campaignId,
    startDate: dmy(a.start),
    endDate: dmy(a.end),
    extraTokens: a.extraTokens,
    landingDeletedStatus: a.landingDeleted,
    offerDeletedStatus: a.offerDeleted,
    pathDeletedStatus: a.pathDeleted,
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
