import { z } from 'zod';
import { fromDmy } from './dates';

// The statistics protocol of spec 3 §3, §4, §7: request fields, validation messages in the
// spec's order, and the metric columns a marketer can tick.

export const STATS_MESSAGES = {
  selectCampaign: 'Select campaign first.',
  startAfterToday: 'Start date should be not greater than today.',
  endBeforeStart: 'End date should be greater than start date.',
  endAfterToday: 'End date should be not greater than today.',
  dateInvalid: 'Dates must be written dd-MM-yyyy.',
  noDataToExport: 'No Data To Export.',
  retriesExceeded: 'Exceed number of retries.',
  landingRetriesExceeded: 'Exceed number of retries for landing page performance table',
  totalsRetriesExceeded: 'Exceed number of retries for totals.',
  alertDismissed: 'Alert dismissed',
  landingStatusUpdated: 'Landing page status updated.',
  landingStatusNotUpdated: 'Landing page status not updated.',
  jobNotFound: 'This statistics request is unknown or has expired. Please search again.',
} as const;

const dmy = z.preprocess(
  (v) => (v === undefined || v === null ? '' : v),
  z
    .string({ error: STATS_MESSAGES.dateInvalid })
    .trim()
    .refine((v) => v === '' || fromDmy(v) !== null, STATS_MESSAGES.dateInvalid),
);

const intIn = (fallback: number, min: number, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? fallback : typeof v === 'string' ? Number(v) : v),
    z.number().int().min(min).max(max),
  );

const bool = z.preprocess((v) => v === true || v === 1 || v === '1' || v === 'true', z.boolean());
const sortOrder = z.preprocess((v) => (v === 'asc' ? 'asc' : 'desc'), z.enum(['asc', 'desc']));
const text = (max = 200) => z.preprocess((v) => (typeof v === 'string' ? v.trim() : ''), z.string().max(max));
const stringList = z.preprocess(
  (v) =>
    Array.isArray(v)
      ? v.map((x) =>
          typeof x === 'object' && x !== null ? ((x as { parameter?: unknown }).parameter ?? '') : x,
        )
      : typeof v === 'string' && v
        ? v.split(',')
        : [],
  z.array(z.coerce.string().max(64)).max(20),
);

export const statisticsRequestSchema = z.object({
  campaignId: z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z
      .number({ error: STATS_MESSAGES.selectCampaign })
      .int(STATS_MESSAGES.selectCampaign)
      .positive(STATS_MESSAGES.selectCampaign),
  ),
  startDate: dmy,
  endDate: dmy,
  part: z.preprocess((v) => (v === 'target' ? 'target' : 'all'), z.enum(['all', 'target'])),
  totalOnly: bool,
  /** Extra-token parameters to group the target table by. */
  extraTokens: stringList,
  landingDeletedStatus: bool,
  offerDeletedStatus: bool,
  pathDeletedStatus: bool,
  currentPage: intIn(1, 1, 1_000_000),
  perPage: intIn(10, 1, 500),
  search: text(),
  sortKey: text(64),
  sortOrder,
  landingCurrentPage: intIn(1, 1, 1_000_000),
  landingPerPage: intIn(10, 1, 500),
  landingTargetSearch: text(),
  landingSortKey: text(64),
  landingSortOrder: sortOrder,
  landingsTotalOnly: bool,
  /** Ignore a stored result for the same request. */
  force: bool,
});
export type StatisticsRequest = z.output<typeof statisticsRequestSchema>;
export const STATS_FIELD_ORDER = ['campaignId', 'startDate', 'endDate'] as const;

/**
 * The spec's date checks in order (spec 3 §5), on 'yyyy-MM-dd' days; '' means open.
 * Answers the first failing message, or null.
 */
export function checkDates(start: string, end: string, today: string): string | null {
  if (start && start > today) return STATS_MESSAGES.startAfterToday;
  if (start && end && start > end) return STATS_MESSAGES.endBeforeStart;
  if (end && end > today) return STATS_MESSAGES.endAfterToday;
  return null;
}

/** The metric columns of the target table (spec 3 §3, §9), in the picker's order. */
export const METRICS = [
  { name: 'LP Clicks', parameter: 'lpclicks' },
  { name: 'LP CPC', parameter: 'lp_cpc' },
  { name: 'LP CTR', parameter: 'lpctr' },
  { name: 'CPA', parameter: 'cpa' },
  { name: 'CR', parameter: 'cr' },
  { name: 'Ad Spend', parameter: 'ad_spent' },
  { name: 'Revenue', parameter: 'revenue' },
  { name: 'NET Profit', parameter: 'net' },
  { name: 'ROI', parameter: 'roi' },
  { name: 'EPC', parameter: 'epc' },
  { name: 'LP Event Clicks', parameter: 'event_lp_visits' },
  { name: 'LP Event CPC', parameter: 'event_lp_visits_cpc' },
  { name: 'LP Event CTR', parameter: 'event_lp_visits_ctr' },
  { name: 'ATC1 Event Clicks', parameter: 'event_atc1_visits' },
  { name: 'ATC1 Event CPC', parameter: 'event_atc1_visits_cpc' },
  { name: 'ATC2 Event Clicks', parameter: 'event_atc2_visits' },
  { name: 'ATC2 Event CPC', parameter: 'event_atc2_visits_cpc' },
  { name: 'IAS Opt-In', parameter: 'optin' },
  { name: 'IAS Checkout', parameter: 'checkout' },
  { name: 'IAS Sales', parameter: 'sales' },
  { name: 'IAS Booked A Call', parameter: 'booked_a_call' },
  { name: 'IAS Mentorship Sale', parameter: 'mentorship_sale' },
  { name: 'Affiliate Commission', parameter: 'commission' },
] as const;
export type MetricParameter = (typeof METRICS)[number]['parameter'];

const OTHER_DEFAULTS: MetricParameter[] = [
  'cpa',
  'cr',
  'ad_spent',
  'revenue',
  'net',
  'event_lp_visits',
  'event_lp_visits_cpc',
  'event_lp_visits_ctr',
];

/** The metrics ticked by default for a campaign's offer promotion and traffic source (spec 3 §9). */
export function defaultMetrics(offerPromotion: string, trafficSource: string): MetricParameter[] {
  if (trafficSource === 'cdsp') return ['lpclicks', 'lpctr', 'cpa', 'cr', 'ad_spent', 'revenue', 'net'];
  if (offerPromotion === 'affiliate-mentorship') {
    return [
      ...OTHER_DEFAULTS,
      'lpclicks',
      'lp_cpc',
      'optin',
      'checkout',
      'sales',
      'booked_a_call',
      'mentorship_sale',
      'commission',
    ];
  }
  return OTHER_DEFAULTS;
}

/** Named events that have their own columns; any other event name shows as a custom event. */
export const EVENT_COLUMNS: Record<string, string> = {
  lp: 'event_lp_visits',
  atc1: 'event_atc1_visits',
  atc2: 'event_atc2_visits',
  optin: 'optin',
  checkout: 'checkout',
  sales: 'sales',
  booked_a_call: 'booked_a_call',
  mentorship_sale: 'mentorship_sale',
  commission: 'commission',
};

export const statusUpdateSchema = z.object({
  status: z.preprocess(
    (v) =>
      v === true || v === 1 || v === '1' || v === 'true'
        ? 1
        : v === false || v === 0 || v === '0' || v === 'false'
          ? 0
          : v,
    z.union([z.literal(0), z.literal(1)], { error: 'Status must be 1 (active) or 0 (inactive).' }),
  ),
});
