import { z } from 'zod';
import { requiredId } from './campaign-api';
import { isDay } from './dates';
import {
  adCtr,
  cpa,
  GRAPH_METRICS,
  type GraphMetric,
  graphValue,
  lpCtr,
  type MetricBase,
  roi,
  round,
} from './metrics';
import { fromMicros, toMicros } from './money';

// The per-installation master-dashboard API (/api/masterdashboard/, spec 4 §7) and the
// operator's central calls (/api/operator/). Inputs arrive as form data or JSON; dates are
// yyyy-MM-dd (spec 3 §5). Money in answers is dollars rounded to cents; series follow spec 4 §9.

/** The custom header of spec 4 §6 every central call carries (docs/decisions/080). */
export const OPERATOR_HEADER = 'X-Master-Dashboard';
export const OPERATOR_HEADER_VALUE = 'edge-tracker-operator';

export const MD_MESSAGES = {
  campaignRequired: 'Select campaign first.',
  dateInvalid: 'Dates must be real days written yyyy-MM-dd.',
  dateOrder: 'End date should be greater than start date.',
  rangeTooLong: 'A date range may cover at most 400 days.',
  countInvalid: 'Counts must be whole numbers of at least 0.',
  moneyInvalid: 'Amounts must be numbers of at least 0 with up to 6 decimals.',
  percentInvalid: 'Percentages must be numbers above 0 and at most 100.',
  valueRequired: 'Enter a value.',
  correctionNotFound: 'Correction not found.',
  campaignNotFound: 'Campaign not found.',
  saved: 'Data updated.',
  reverted: 'Correction reverted.',
} as const;

const MAX_RANGE_DAYS = 400;

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
const day = z.preprocess(
  trimmed,
  z.string({ error: MD_MESSAGES.dateInvalid }).refine(isDay, MD_MESSAGES.dateInvalid),
);
const campaignId = requiredId(MD_MESSAGES.campaignRequired);
const count = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z
    .number({ error: MD_MESSAGES.countInvalid })
    .int(MD_MESSAGES.countInvalid)
    .min(0, MD_MESSAGES.countInvalid)
    .max(1e12, MD_MESSAGES.countInvalid),
);
/** Dollars in, micro-units out. */
const money = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? undefined : (toMicros(v) ?? Number.NaN)),
  z
    .number({ error: MD_MESSAGES.moneyInvalid })
    .int(MD_MESSAGES.moneyInvalid)
    .min(0, MD_MESSAGES.moneyInvalid),
);
const percent = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z
    .number({ error: MD_MESSAGES.percentInvalid })
    .gt(0, MD_MESSAGES.percentInvalid)
    .max(100, MD_MESSAGES.percentInvalid),
);

function daysBetween(a: string, b: string) {
  return (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;
}

/** `shape` with start_date and end_date: real days, in order, at most 400 days apart. */
export function withDateRange<T extends z.ZodRawShape>(shape: T) {
  // The generic shape hides the two dates from zod's types; they are there, parsed as days.
  const range = (r: unknown) => r as { start_date: string; end_date: string };
  return z
    .object({ ...shape, start_date: day, end_date: day })
    .refine((r) => range(r).start_date <= range(r).end_date, {
      message: MD_MESSAGES.dateOrder,
      path: ['end_date'],
    })
    .refine((r) => daysBetween(range(r).start_date, range(r).end_date) < MAX_RANGE_DAYS, {
      message: MD_MESSAGES.rangeTooLong,
      path: ['end_date'],
    });
}

export const dateRangeSchema = withDateRange({});
export const DATE_FIELD_ORDER = ['campaign_id', 'start_date', 'end_date'] as const;

export const campaignRangeSchema = withDateRange({ campaign_id: campaignId });

/** Each modify call of spec 4 §7: the value it takes, parsed. Money in micros, ad_ctr in percent. */
export const MODIFY_VALUES = {
  'modify-adspend': z.object({ ad_spend: money }),
  'modify-conversion': z.object({ conversion: count, payout: money }),
  'modify-adclicks': z.object({ ad_clicks: count }),
  'modify-revenue': z.object({ revenue: money }),
  'modify-cpa': z.object({ cpa: money }),
  'modify-adctr': z.object({ ad_ctr: percent }),
  'modify-cpc': z.object({ cpc: money }),
  'modify-lpcpc': z.object({ lpcpc: money }),
} as const;
export type ModifyVerb = keyof typeof MODIFY_VALUES | 'modify-row';
export const MODIFY_VERBS = [...Object.keys(MODIFY_VALUES), 'modify-row'] as ModifyVerb[];

export const modifyRowSchema = z.object({
  campaign_id: campaignId,
  sid_token: z.preprocess((v) => (v == null ? '' : String(v).trim()), z.string().max(255)),
  ad_clicks: count,
  ad_spend: money,
  conversions: count,
  payout: money,
  date: day,
});
export const MODIFY_ROW_ORDER = [
  'campaign_id',
  'sid_token',
  'ad_clicks',
  'ad_spend',
  'conversions',
  'payout',
  'date',
];

export const revertSchema = z.object({
  id: z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
    z.number({ error: MD_MESSAGES.correctionNotFound }).int().positive(MD_MESSAGES.correctionNotFound),
  ),
});

// ---- answers -------------------------------------------------------------------------------

/** The report total of a student (spec 3 §3) plus the counts it derives from. */
export type ReportTotal = {
  ad_spend: number;
  revenue: number;
  conversions: number;
  cpa: number;
  ad_clicks: number;
  net_profit: number;
  landing_page_ctr: number;
  ad_ctr: number;
  roi: number;
  visits: number;
  lp_clicks: number;
  impressions: number;
};

/** One day: its base numbers and every graph series of spec 4 §9 (money in dollars). */
export type ReportDay = { date: string; ad_spend_micros: number; revenue_micros: number } & ReportTotal &
  Record<GraphMetric, number>;

export type CampaignReport = { campaign_id: number; name: string } & ReportTotal;

/** GET /api/masterdashboard/reports */
export type ReportsAnswer = {
  start_date: string;
  end_date: string;
  campaigns: CampaignReport[];
  days: ReportDay[];
  total: ReportTotal;
};
/** GET /api/masterdashboard/campaign-data */
export type CampaignDataAnswer = { campaign_id: number; name: string; days: ReportDay[] };
/** GET /api/masterdashboard/campaign-total */
export type CampaignTotalAnswer = { campaign_id: number; name: string; total: ReportTotal };
/** GET /api/masterdashboard/campaigns */
export type MdCampaignsAnswer = { campaigns: { campaign_id: number; name: string }[] };

export type CorrectionRecord = {
  id: number;
  campaign_id: number;
  date: string;
  field: string;
  value: number;
  verb: string;
  sid_token: string;
  source: string;
  created_by: string;
  created_at: number;
  reverted_at: number | null;
  reverted_by: string | null;
};
/** Every modify call answers the rows it wrote; status_code mirrors the HTTP status (spec 3 §4). */
export type ModifyAnswer = { status_code: number; message: string; corrections: CorrectionRecord[] };
export type CorrectionsAnswer = { corrections: CorrectionRecord[] };
/** POST /api/masterdashboard-credentials (admin): the clear credential, shown once. */
export type CredentialAnswer = { id: number; label: string; credential: string };
/** GET /api/masterdashboard-credentials: the live and revoked credentials, never their values. */
type CredentialRow = { id: number; label: string; created_at: number; revoked_at: number | null };
export type CredentialsAnswer = { credentials: CredentialRow[] };
/** DELETE /api/masterdashboard-credentials/{id}. */
export type CredentialRevokedAnswer = { message: string };

const money2 = (micros: number) => round(fromMicros(micros), 2);

/** Base numbers (money in micros) to the report total, with the formulas of schema/metrics.ts. */
export function reportTotal(m: MetricBase): ReportTotal {
  return {
    ad_spend: money2(m.spend),
    revenue: money2(m.revenue),
    conversions: m.conversions,
    cpa: money2(cpa(m.spend, m.conversions)),
    ad_clicks: m.adClicks,
    net_profit: money2(m.revenue - m.spend),
    landing_page_ctr: lpCtr(m.lpClicks, m.visits, 2),
    ad_ctr: adCtr(m.adClicks, m.impressions),
    roi: roi(m.revenue, m.spend),
    visits: m.visits,
    lp_clicks: m.lpClicks,
    impressions: m.impressions,
  };
}

const MONEY_SERIES = new Set<GraphMetric>([
  'ad_spent',
  'revenue',
  'net_profit',
  'cpc',
  'cpa',
  'cplpc',
  'epc',
]);

/** One day with its graph series (money series in dollars, 2 decimals). */
export function reportDay(date: string, m: MetricBase): ReportDay {
  const series = Object.fromEntries(
    GRAPH_METRICS.map((g) => {
      const v = graphValue(g, m);
      return [g, MONEY_SERIES.has(g) ? money2(v) : v];
    }),
  ) as Record<GraphMetric, number>;
  // Micro-units too, so that the operator's cache sums days without cent rounding drift.
  return { date, ad_spend_micros: m.spend, revenue_micros: m.revenue, ...reportTotal(m), ...series };
}
