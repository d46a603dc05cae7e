import { z } from 'zod';
import { isDay } from './dates';
import { toMicros } from './money';
import { positiveId } from './validators';

export const COST_MESSAGES = {
  campaignRequired: 'Select campaign first.',
  dateInvalid: 'Date must be a real day written yyyy-MM-dd.',
  countInvalid: 'Impressions and clicks must be whole numbers of at least 0.',
  spendInvalid: 'Spend must be a number of at least 0 with up to 6 decimals.',
  saved: 'Cost saved.',
  deleted: 'Cost removed.',
  csvRequired: 'Select csv file for upload.',
  csvInvalid: 'Select Valid Csv file.',
  csvTooLarge: 'The CSV file must be smaller than 5 MB.',
  csvHeader: 'The first line must name the columns date, target, impressions, clicks and spend.',
  csvUploaded: 'Costs have been uploaded.',
} as const;

const count = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? 0 : typeof v === 'string' ? Number(v) : v),
  z
    .number({ error: COST_MESSAGES.countInvalid })
    .int(COST_MESSAGES.countInvalid)
    .min(0, COST_MESSAGES.countInvalid)
    .max(1e12, COST_MESSAGES.countInvalid),
);

export const costInputSchema = z.object({
  campaignId: positiveId(COST_MESSAGES.campaignRequired),
  date: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ error: COST_MESSAGES.dateInvalid }).refine(isDay, COST_MESSAGES.dateInvalid),
  ),
  target: z.preprocess((v) => (v === undefined || v === null ? '' : String(v).trim()), z.string().max(255)),
  impressions: count,
  ad_clicks: count,
  spend: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 0 : toMicros(v)),
    z
      .number({ error: COST_MESSAGES.spendInvalid })
      .int(COST_MESSAGES.spendInvalid)
      .min(0, COST_MESSAGES.spendInvalid),
  ),
});
export const COST_FIELD_ORDER = [
  'campaignId',
  'date',
  'target',
  'impressions',
  'ad_clicks',
  'spend',
] as const;

// ---- answers (the `data` of each envelope; worker/routes/costs.ts answers these) ------------

/** How the screen and the export name a cost row's source. */
export const COST_SOURCE_LABELS: Record<string, string> = {
  sync: 'Platform sync',
  manual: 'Entered',
  csv: 'CSV upload',
  // Imported rows carry their platform's name (docs/statistics.md, "Costs: which source wins").
  facebook: 'Facebook sync',
  tiktok: 'TikTok sync',
  taboola: 'Taboola sync',
  mediago: 'MediaGo sync',
  liveintent: 'LiveIntent sync',
};

/** A cost row of GET /api/costs; spend in dollars. */
export type CostRow = {
  date: string;
  target: string;
  source: string;
  impressions: number;
  ad_clicks: number;
  spend: number;
  updated_at: number;
};
export type CostsAnswer = { result: CostRow[] };
/** POST /api/costs/upload. */
export type CostUploadAnswer = { uploaded: true; rows: number; message: string };
