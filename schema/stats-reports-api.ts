import { z } from 'zod';
import { fromDmy } from './dates';
import { METRICS } from './stats-api';

// Answers of the statistics screen's report calls added by issue 17 (worker/routes/stats-reports.ts):
// filtered traffic and breakdowns. Money is in dollars rounded to cents, as in the tables.

/** What the filtered-traffic table groups the stored filter reasons into (docs/decisions/111). */
export const FILTERED_CATEGORIES = ['bot', 'prefetch', 'duplicate', 'other'] as const;
export type FilteredCategory = (typeof FILTERED_CATEGORIES)[number];

/** Column titles, shared by the screen and the CSV export. */
export const FILTERED_TITLES: Record<
  FilteredCategory | 'clicks' | 'conversions' | 'revenue' | 'day',
  string
> = {
  day: 'Day',
  clicks: 'Filtered clicks',
  bot: 'Bot user agent',
  prefetch: 'Prefetch or HEAD',
  duplicate: 'Duplicate click',
  other: 'Other rule',
  conversions: 'Conversions on filtered clicks',
  revenue: 'Revenue on filtered clicks',
};

/** The stored reason (visits.filter, or 'duplicate') in its category. */
export const FILTER_CATEGORY: Record<string, FilteredCategory> = {
  bot: 'bot',
  prefetch: 'prefetch',
  head: 'prefetch',
  duplicate: 'duplicate',
  inactive: 'other',
  unrouted: 'other',
  lp_direct: 'other',
};

export type FilteredCounts = Record<FilteredCategory, number> & {
  /** All filtered clicks: the sum of the categories. */
  clicks: number;
  /** Goal conversions whose visit was filtered (counted in the tables too, shown apart here). */
  conversions: number;
  revenue: number;
};
export type FilteredDay = FilteredCounts & { day: string };

/** GET /api/stats-reports/filtered: per day (newest first) and in total. */
export type FilteredTrafficAnswer = { days: FilteredDay[]; total: FilteredCounts };

const dmy = (message: string) =>
  z
    .string()
    .trim()
    .optional()
    .default('')
    .refine((v) => v === '' || fromDmy(v) !== null, message);

/** The query of the report calls: a campaign and a day range (dd-MM-yyyy, '' = open). */
export const reportQuerySchema = z.object({
  campaignId: z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z.number({ error: 'Please select a campaign' }).int().positive('Please select a campaign'),
  ),
  startDate: dmy('Start date must be written dd-MM-yyyy.'),
  endDate: dmy('End date must be written dd-MM-yyyy.'),
});

/** The visit dimensions stored in the breakdown rollup (docs/decisions/112). */
export const STORED_DIMENSIONS = ['country', 'device', 'os', 'browser', 'referrer', 'hour'] as const;
/** Every breakdown dimension: the stored ones and the day (from the same rows). */
export const BREAKDOWN_DIMENSIONS = [...STORED_DIMENSIONS, 'day'] as const;
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];

export const DIMENSION_TITLES: Record<BreakdownDimension, string> = {
  country: 'Country',
  device: 'Device type',
  os: 'OS',
  browser: 'Browser',
  referrer: 'Referrer domain',
  hour: 'Hour of day',
  day: 'Day',
};

export const breakdownQuerySchema = reportQuerySchema.extend({
  by: z.enum(BREAKDOWN_DIMENSIONS, { error: 'Choose what to group by.' }),
  second: z
    .union([z.literal(''), z.enum(BREAKDOWN_DIMENSIONS)], { error: 'Choose what to group by second.' })
    .optional()
    .default(''),
  compare: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

/** The metrics of a breakdown row, as in the target table (money in dollars, rates in percent). */
export type BreakdownMetrics = {
  visits: number;
  lpclicks: number;
  lpctr: number;
  conversions: number;
  cr: number;
  revenue: number;
  ad_spent: number;
  net: number;
  roi: number;
  epc: number;
  cpa: number;
};
export const BREAKDOWN_METRICS = [
  'visits',
  'lpclicks',
  'lpctr',
  'conversions',
  'cr',
  'revenue',
  'ad_spent',
  'net',
  'roi',
  'epc',
  'cpa',
] as const satisfies readonly (keyof BreakdownMetrics)[];

/** The breakdown's column titles, on the screen and in the export. */
export const BREAKDOWN_TITLES: Record<keyof BreakdownMetrics, string> = {
  visits: 'Visits',
  lpclicks: 'LP Clicks',
  lpctr: 'LP CTR',
  conversions: 'Conversions',
  cr: 'CR',
  revenue: 'Revenue',
  ad_spent: 'Ad Spend',
  net: 'Net Profit',
  roi: 'ROI',
  epc: 'EPC',
  cpa: 'CPA',
};

/** Change of each metric against the previous period, in percent (null when it was 0). */
export type BreakdownChange = Record<keyof BreakdownMetrics, number | null>;

export type BreakdownRow = BreakdownMetrics & {
  value: string;
  /** The second level's rows when `second` was asked for. */
  children?: BreakdownRow[];
  previous?: BreakdownMetrics;
  change?: BreakdownChange;
};

/** GET /api/stats-reports/breakdown. */
export type BreakdownAnswer = {
  by: BreakdownDimension;
  second: BreakdownDimension | '';
  rows: BreakdownRow[];
  total: BreakdownMetrics;
  /** The previous period of equal length, when compare was asked for (days yyyy-MM-dd). */
  previousPeriod: { start: string; end: string } | null;
  previousTotal: BreakdownMetrics | null;
  totalChange: BreakdownChange | null;
};

/**
 * The statistics tables' column titles by key, as the screen shows them; the CSV export writes
 * these as its headers (issue 17). Extra-token columns take the token's name, custom events their
 * event name.
 */
export const STATS_COLUMN_TITLES: Record<string, string> = {
  target: 'Target',
  landing_page: 'Landing page',
  url: 'URL',
  impressions: 'Impressions',
  clicks: 'Clicks',
  ctr: 'CTR',
  ad_cpc: 'CPC',
  visits: 'Visits',
  conversions: 'Purchase Event',
  ...Object.fromEntries(METRICS.map((m) => [m.parameter, m.name])),
  // The metric picker keeps the spec's list name "NET Profit" (spec 3 §9); the column header
  // reads like the other money columns (issue 27, docs/decisions/132-the-shared-export.md).
  net: 'Net Profit',
};

/** A custom event's column key in the target table and the export (`custom:atc3`). */
export const CUSTOM_EVENT_PREFIX = 'custom:';

/**
 * The tables of the statistics screen the export writes (issue 27), in screen order, with the
 * title each section of the file starts with. POST /api/export-statistics `tables` picks some
 * (none: all of them).
 */
export const EXPORT_TABLES = {
  targets: 'Targets',
  landings: 'Landing pages',
  offers: 'Offer pages',
  paths: 'Paths',
  breakdown: 'Breakdown',
  costs: 'Ad costs',
  filtered: 'Filtered traffic',
} as const;
export type ExportTable = keyof typeof EXPORT_TABLES;

/** One number format per column type in the export: money 2 decimals without $, percent 2 decimals. */
export type ExportKind = 'text' | 'int' | 'money' | 'percent';

const MONEY_COLUMNS = [
  'ad_spent',
  'revenue',
  'net',
  'cpa',
  'epc',
  'ad_cpc',
  'lp_cpc',
  'event_lp_visits_cpc',
  'event_atc1_visits_cpc',
  'event_atc2_visits_cpc',
  'spend',
];
const PERCENT_COLUMNS = ['roi', 'cr', 'ctr', 'lpctr', 'event_lp_visits_ctr'];
const INT_COLUMNS = ['impressions', 'clicks', 'ad_clicks', 'visits', 'conversions', 'conversion', 'lpclicks'];

/** The type of a statistics column by key: metric columns not listed are counts, others text. */
export function exportKind(key: string): ExportKind {
  if (MONEY_COLUMNS.includes(key)) return 'money';
  if (PERCENT_COLUMNS.includes(key)) return 'percent';
  if (INT_COLUMNS.includes(key) || key.startsWith(CUSTOM_EVENT_PREFIX)) return 'int';
  return METRICS.some((m) => m.parameter === key) ? 'int' : 'text';
}

/** GET /api/stats-reports/stamp: the campaign's data version and newest event (live statistics). */
export type StatsStampAnswer = { version: number; newestEventAt: number | null };

/** The landing table's columns a CSV export holds when the request names none (the screen sends these). */
export const DEFAULT_LANDING_COLUMNS = [
  'landing_page',
  'visits',
  'lpclicks',
  'lpctr',
  'conversions',
  'cr',
  'cpa',
  'ad_spent',
  'revenue',
];
