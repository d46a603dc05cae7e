import { z } from 'zod';
import { fromDmy } from './dates';

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
export type ReportQuery = z.output<typeof reportQuerySchema>;
