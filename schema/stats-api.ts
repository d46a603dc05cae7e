import { z } from 'zod';
import { fromDmy } from './dates';
import { positiveId } from './validators';

// The statistics protocol of spec 3 §3, §4, §7: request fields, validation messages in the
// spec's order, and the metric columns a marketer can tick.

export const STATS_MESSAGES = {
  selectCampaign: 'Select campaign first.',
  startAfterToday: 'Start date should be not greater than today.',
  endBeforeStart: 'End date should be greater than start date.',
  endAfterToday: 'End date should be not greater than today.',
  dateInvalid: 'Dates must be written dd-MM-yyyy.',
  noDataToExport: 'No Data To Export.',
  exportTableUnknown: 'Choose tables among targets, landings, offers, paths, breakdown, costs and filtered.',
  exportBreakdownUnknown: 'Choose what the breakdown groups by.',
  exportFormatUnknown: 'Choose CSV or XLSX.',
  exportTooLargeForXlsx:
    'This export has more than 100,000 rows, too many for one workbook: export it as CSV.',
  retriesExceeded: 'Exceed number of retries.',
  landingRetriesExceeded: 'Exceed number of retries for landing page performance table',
  totalsRetriesExceeded: 'Exceed number of retries for totals.',
  alertDismissed: 'Alert dismissed',
  landingStatusUpdated: 'Landing page status updated.',
  landingStatusNotUpdated: 'Landing page status not updated.',
  dismissMessageFailed: 'Encountered error dismissing the message. Please try again later.',
  noSyncError: 'The LiveIntent sync has no error to dismiss.',
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
      ? v
          .map((x) =>
            typeof x === 'object' && x !== null ? ((x as { parameter?: unknown }).parameter ?? '') : x,
          )
          .filter((x) => x !== '' && x !== null && x !== undefined)
      : typeof v === 'string' && v
        ? v.split(',')
        : [],
  z.array(z.coerce.string().trim().max(64)).max(20),
);

/**
 * A list of parameters, or of the objects the statistics answer lists (extra tokens, metrics):
 * an object counts unless it says `ticked: false`, so the SPA may send its whole picker.
 */
const tickedList = z.preprocess(
  (v) =>
    Array.isArray(v)
      ? v.filter(
          (x) => !(typeof x === 'object' && x !== null && (x as { ticked?: unknown }).ticked === false),
        )
      : v,
  stringList,
);

const metricList = tickedList.superRefine((list, ctx) => {
  // METRICS is read when a request is parsed, after this module has loaded.
  const unknown = list.find((p) => !METRICS.some((m) => m.parameter === p));
  if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `Unknown metric "${unknown}".` });
});

/** `true` (or '1', 'true', 'all') leaves out the rows without a value of any grouped token. */
const noInputList = z.preprocess(
  (v) => (v === true || v === 1 || v === '1' || v === 'true' || v === 'all' ? ['*'] : v === false ? [] : v),
  stringList,
);

export const statisticsRequestSchema = z.object({
  campaignId: positiveId(STATS_MESSAGES.selectCampaign),
  startDate: dmy,
  endDate: dmy,
  part: z.preprocess((v) => (v === 'target' ? 'target' : 'all'), z.enum(['all', 'target'])),
  totalOnly: bool,
  /** Extra tokens to group the target table by: parameters, or token objects with `ticked`. */
  extraTokens: tickedList,
  /** The same as parameters only (the spec sends both); the table is grouped by their union. */
  extraTokenFields: stringList,
  /** The metric columns the target rows carry; none means every metric. */
  metricParams: metricList,
  /** Grouped tokens whose rows without a value are left out ('*' = every grouped token). */
  noInputTokens: noInputList,
  /** Extra tokens to group the landing table by, as extraTokens and extraTokenFields. */
  landingExtraTokens: tickedList,
  landingExtraTokenFields: stringList,
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
  /** The number sets of spec 3 §1 (numberSetsOf): which ad platform's numbers the screen shows. */
  showLiveIntentNumbers: bool,
  showBlazeNumbers: bool,
  showCPCNumbers: bool,
  /** Ignore a stored result for the same request. */
  force: bool,
});
export type StatisticsRequest = z.output<typeof statisticsRequestSchema>;
/**
 * The body of POST /api/statistics as the SPA sends it: the request, every field but the
 * campaign and the dates optional (the server fills the defaults).
 */
export type StatisticsRequestBody = Partial<Omit<StatisticsRequest, 'campaignId'>> & {
  campaignId: number | null;
  /** dd-MM-yyyy or '' (open) */
  startDate: string;
  endDate: string;
};
export const STATS_FIELD_ORDER = ['campaignId', 'startDate', 'endDate'] as const;

/**
 * The extra-token parameters a table is grouped by: the ticked tokens, then the fields not among
 * them, each once, in the order sent.
 */
export function groupedTokens(req: StatisticsRequest, table: 'target' | 'landing'): string[] {
  const lists =
    table === 'target'
      ? [req.extraTokens, req.extraTokenFields]
      : [req.landingExtraTokens, req.landingExtraTokenFields];
  // Jobs stored before a field existed lack it.
  return [...new Set(lists.flatMap((l) => l ?? []).filter((p) => p !== ''))];
}

/** Whether rows without a value of `parameter` are left out (noInputTokens). */
export function dropsNoInput(req: Pick<StatisticsRequest, 'noInputTokens'>, parameter: string): boolean {
  const list = req.noInputTokens ?? [];
  return list.includes('*') || list.includes(parameter);
}

/** get-landing-elements-data (spec 3 §7): the query, and its answer's parts. */
export const landingElementsQuerySchema = z.object({
  campaignId: positiveId(STATS_MESSAGES.selectCampaign),
  url: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : ''),
    z.string().min(1, 'Landing page URL is required.').max(2048, 'Landing page URL is too long.'),
  ),
  startDate: dmy,
  endDate: dmy,
  separator: z.preprocess(
    (v) => (typeof v === 'string' && v.length > 0 && v.length <= 3 ? v : '_'),
    z.string(),
  ),
});
/** cta when the element's content starts with an image tag, otherwise header (spec 3 §3). */
export type ElementTagType = 'cta' | 'header';
type ElementVariation = { name: string; content: string; tagType: ElementTagType };
/** GET /api/landing/get-landing-elements-data: `error` says why a page could not be read. */
export type LandingElementsAnswer = {
  url: string;
  variations: ElementVariation[];
  test_datas: { name: string; data: TestResult[] }[];
  error: string | null;
};

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

/**
 * Spec 3 §1: "liveintent shows liveintent numbers, blaze shows blaze numbers, trrcpc shows CPC
 * numbers, others show none." The statistics request sends the set of the campaign's source; the
 * target table shows the ad platform's columns (impressions, ad clicks, CTR, CPC) under a set.
 */
export type NumberSets = {
  showLiveIntentNumbers: boolean;
  showBlazeNumbers: boolean;
  showCPCNumbers: boolean;
};
export function numberSetsOf(trafficSource: string): NumberSets {
  return {
    showLiveIntentNumbers: trafficSource === 'liveintent',
    showBlazeNumbers: trafficSource === 'blaze',
    showCPCNumbers: trafficSource === 'trrcpc',
  };
}
export const showsNumberSet = (sets: Partial<NumberSets>) =>
  Boolean(sets.showLiveIntentNumbers || sets.showBlazeNumbers || sets.showCPCNumbers);

/**
 * The target table's sort when none is asked for: ctr descending (spec 3 §9), conversions
 * descending for apple-news-feed campaigns (spec 3 §1). The screen and the server share it.
 */
export function targetDefaultSort(trafficSource: string): { key: string; order: 'asc' | 'desc' } {
  return trafficSource === 'apple-news-feed'
    ? { key: 'conversions', order: 'desc' }
    : { key: 'ctr', order: 'desc' };
}

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

// ---- answers (the `data` of each envelope; worker/routes/stats.ts and costs.ts answer these) ---
// Money: numbers are dollars rounded to cents; the landing table also writes it as text.

/** A campaign alert in its metainfo (raised by the optimiser and the system checks). */
export type CampaignAlert = {
  /**
   * sync: a platform's cost import failed (cleared by its next success). tracking: clicks were
   * redirected but no store took their events (docs/decisions/126).
   */
  type: 'optimizer' | 'postback' | 'spend' | 'test' | 'sync' | 'tracking';
  message: string;
  created_at: number;
  key: string;
};

/** The totals object of spec 3 §3 (target and landing footers). */
export type StatsTotals = {
  visitsTotal: number;
  clicksTotal: number;
  impressionsTotal: number;
  conversionsTotal: number;
  crTotal: number;
  ctrTotal: number;
  lpclicksTotal: number;
  lpctrTotal: number;
  ad_cpc_total: number;
  /** What ad_cpc_total and ctrTotal divide by: the platform's clicks, or tracked visits where none were imported. */
  ad_clicks_from: 'platform' | 'visits';
  lp_cpc_total: number;
  roi_total: number;
  ad_spent: number;
  revenue: number;
  net: number;
  cpa: number;
  epc_total: number;
};

/**
 * A target (creative) row: the target, then its metric columns (METRICS; only those asked for
 * when the request names metricParams), one column per grouped extra token (its parameter) and
 * custom_events, the counts of the campaign's other events. Money columns are dollars.
 */
export type TargetRecord = {
  target: string;
  CAMPAIGNID: number;
  /** What ad_cpc and ctr divide by (docs/decisions/158). */
  ad_clicks_from?: 'platform' | 'visits';
  custom_events: Record<string, number>;
  /** The row's ratios without a value (denominator 0), by column key, with the reason (issue 27). */
  no_value?: Record<string, string>;
  [column: string]: unknown;
} & Partial<Record<MetricParameter, number>>;

/** One pairwise significance test of a landing page (or element) against another. */
export type TestResult = {
  against: number | string;
  is_significant: boolean;
  best_variant: 0 | 1 | 2;
  p_value: number;
};
export type TestSummary = { better: number; worst: number; insignificants: number; total_tests: number };

export type LandingRecord = {
  page_id: number;
  landing_page: string;
  url: string;
  visits: number;
  conversions: number;
  lpclicks: number;
  lpctr: number;
  cr: number;
  /** Money written '$1,234.56'; the numbers are in the *_value fields. */
  cpa: string;
  ad_spent: string;
  revenue: string;
  net: string;
  cpa_value: number;
  ad_spent_value: number;
  revenue_value: number;
  active: number;
  deleted: number;
  test_data: TestResult[];
  test_summary: TestSummary;
  /** One column per extra token the table is grouped by (landingExtraTokens), its parameter. */
  [column: string]: unknown;
};

export type OfferRecord = {
  offer_id: number;
  offer_name: string;
  visits: number;
  liConversionName: string;
  conversion: number;
  revenue: number;
  cr: number;
  active: number;
  deleted: number;
};

export type PathRecord = {
  path_id: number;
  path_name: string;
  visits: number;
  conversion: number;
  cr: number;
  active: number;
  deleted: number;
};

type OfferTable = {
  offerRecords: OfferRecord[];
  offerTotal: { visitsTotal: number; conversionsTotal: number; crTotal: number; revenue: number };
};
type PathTable = {
  pathRecords: PathRecord[];
  pathTotal: { visitsTotal: number; conversionsTotal: number; crTotal: number };
};

/** A metric column a marketer can tick (METRICS), ticked by the campaign's defaults. */
export type StatsMetric = { name: string; parameter: string; ticked: boolean };
/** `default`: the parameter is one of the traffic source's token template (docs/decisions/169). */
export type StatsExtraToken = { token_name: string; parameter: string; default: boolean };
/** The LiveIntent cost sync's last error; the screen toasts it unless hideNotif (spec 3 §8). */
export type LiveIntentStatus = { error: boolean; hideNotif: boolean; message: string };

/** POST /api/statistics with totalOnly: the target-total job only. */
export type StatisticsTotalAnswer = { campaign: { campaignId: number; name: string }; queueId: string };

/** POST /api/statistics: the jobs to poll, the campaign, and the offer and path tables. */
export type StatisticsAnswer = {
  campaign: {
    campaignId: number;
    name: string;
    campaignType: string;
    trafficSource: string;
    offerPromotion: string;
    metainfo: { alerts: CampaignAlert[] };
  };
  queueId: string;
  landingQueueKey: string | null;
  /** The force sync's completed message while not dismissed, else null. */
  forceSyncCompletedStatus: string | null;
  trafficSourceName: string;
  studentBalanceError: boolean;
  liveintentStatus: LiveIntentStatus;
  extraTokens: StatsExtraToken[];
  metrics: StatsMetric[];
  campaignVisits: number;
  /** totalCount: the target rows the search finds, once the target job has run (else null). */
  target: { currentPage: number; totalCount: number | null };
  offer: OfferTable | null;
  path: PathTable | null;
};

/**
 * When a job's result was computed and the newest event time (UTC ms) of the campaign's data it
 * includes, null before any event (docs/decisions/110-fresh-statistics.md). Every job the
 * statistics queue runs carries them; the screen shows "updated … ago".
 */
export type StatsFreshness = { generatedAt?: number; newestEventAt?: number | null };

/** The target job's result; a totalOnly job has targetTotal alone. */
export type TargetResult = {
  targetRecords?: TargetRecord[];
  currentPage?: number;
  totalCount?: number;
  targetTotal: StatsTotals;
  /** Metric columns of named events that occurred in the range (shown even when not ticked). */
  eventColumns?: string[];
} & StatsFreshness;
export type LandingResult = {
  landingRecords: LandingRecord[];
  landingCount: number;
  landingCurrentPage: number;
  landingTotal: StatsTotals;
} & StatsFreshness;

/** A landing-name element of the aggregator, summed over the pages that carry it; money in dollars. */
export type ElementRow = {
  position: number;
  page: string;
  landingIds: number[];
  /** The distinct URLs of its landing pages, where its content is read (get-landing-elements-data). */
  urls: string[];
  visits: number;
  lpClicks: number;
  lpCTR: number;
  conversions: number;
  cr: number;
  cpa: number;
  adSpent: number;
  revenue: number;
  netProfit: number;
  /** 1 when any of its pages is active. */
  status: 0 | 1;
  test_data: TestResult[];
  test_summary: TestSummary;
};
export type AggregateResult = { separator: string; positions: ElementRow[][] };

/** A polled job: done once finished or failed; data is null until done. */
type JobAnswer<T> = { done: boolean; error: string | null; data: T };
/** POST /api/get-target-statistics (the spec nests the result once more). */
export type TargetJobAnswer = JobAnswer<{ data: TargetResult | null }>;
/** POST /api/get-landing-statistics. */
export type LandingJobAnswer = JobAnswer<LandingResult | null>;
/** POST /api/get-aggregate. */
export type AggregateJobAnswer = JobAnswer<AggregateResult | null>;
/** POST /api/queue-aggregate. */
export type QueueAggregateAnswer = { uuid: string };

/** POST /api/export-statistics: a link to the CSV, or null and a message when there is no data. */
export type ExportStatisticsAnswer = {
  downloadLink: string | null;
  message?: string;
  fileName?: string;
  targetRows?: number;
  landingRows?: number;
};

/** GET /api/stats-today: the installation's day (yyyy-MM-dd) and time zone. */
export type StatsTodayAnswer = { today: string; timeZone: string };

/** GET /api/campaign-activity: daily visitors, every day of the range. */
export type ActivityPoint = { date: string; visitors: number };

/** POST /api/quick-stats-v2: the dashboard's daily series (money in dollars). */
export type QuickStats = {
  liveintent: { reports: { date: string; advertiserSpent: number; clicks: number; impressions: number }[] };
  visitors: { date: string; visitors: number; lpclicks: number; revenue: number }[];
  conversions: { date: string; conversions: number }[];
};

/** update-offer-status and update-path-status: the status now set. */
export type ItemStatusAnswer = { active: 0 | 1 };
/** update-landing-status: the status now set, with the spec's message. */
export type LandingStatusAnswer = { status: true; active: 0 | 1; message: string };
/** update-landing-status-many: how many live pages were switched. */
export type ItemStatusManyAnswer = { updated: number; active: 0 | 1 };

/** DELETE /api/campaigns/:id/alerts/:index: the alerts left. */
export type DismissAlertAnswer = { message: string; alerts: CampaignAlert[] };
