import { z } from 'zod';
import { isDay } from './dates';
import { keysOf } from './label-keys';

// Numbers across campaigns (issue 17 item 2): the campaigns list's metric columns with folder
// totals, and the dashboard's "All campaigns" series. Both read the target_daily rollup.

/** Column titles, the same on the screen and in the column picker. */
export const LIST_METRIC_LABELS = {
  visits: 'Visits',
  conversions: 'Conversions',
  revenue: 'Revenue',
  spend: 'Spend',
  profit: 'Profit',
  roi: 'ROI',
  cr: 'CR',
  epc: 'EPC',
};
export type ListMetric = keyof typeof LIST_METRIC_LABELS;
/** In the order of LIST_METRIC_LABELS. */
export const LIST_METRICS = keysOf(LIST_METRIC_LABELS);

/** Money in dollars rounded to cents; roi and cr in percent with 2 decimals. */
export type ListMetrics = Record<ListMetric, number>;

export type CampaignMetricsRow = {
  campaignId: number;
  name: string;
  is_dir: 0 | 1;
  /** The parent folder's id, 0 at the top level. */
  dir: number;
  /** The folder path, "Folder / Subfolder", '' at the top level. */
  folder: string;
  campaignType: string;
  trafficSource: string;
  active: number;
  /** A folder's are the sums over every campaign inside it, at any depth. */
  metrics: ListMetrics;
};

/** GET /api/campaign-metrics */
export type CampaignMetricsAnswer = {
  start: string;
  end: string;
  timeZone: string;
  /** Every live campaign and folder the user may see, in every folder. */
  rows: CampaignMetricsRow[];
  /** Over every campaign of rows. */
  totals: ListMetrics;
};

const ACROSS_MESSAGES = {
  badDate: 'Dates must be written yyyy-MM-dd.',
  endBeforeStart: 'End date should be greater than start date.',
} as const;

const day = z
  .string()
  .trim()
  .optional()
  .refine((v) => !v || isDay(v), ACROSS_MESSAGES.badDate);

/** The range of both calls; an empty end is the start, an empty start is today. */
export const acrossRangeSchema = z
  .object({ start: day, end: day })
  .refine((r) => !r.start || !r.end || r.end >= r.start, {
    message: ACROSS_MESSAGES.endBeforeStart,
    path: ['end'],
  });
