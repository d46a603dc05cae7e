import { z } from 'zod';
import { PLATFORMS } from './integrations';

// API contract of the platform cost sync and the ad performance records (issue 12, docs/api.md
// "Ad platforms: cost sync and ad records"). The integrations screen's own calls (connect,
// tokens, verification) are in schema/connections-api.ts.

export const INTEGRATION_MESSAGES = {
  campaignRequired: 'Campaign is required.',
  platformInvalid: 'Select a valid platform.',
  externalCampaignRequired: 'The campaign id on the platform is required.',
  usdRateInvalid:
    "Enter the rate as US dollars for one unit of the ad account's currency (a positive number, up to 6 decimals).",
  dateInvalid: 'Enter a valid date (YYYY-MM-DD).',
  rangeInvalid: 'The end date cannot be before the start date.',
  rangeTooLong: 'Choose at most 93 days.',
  recordsPlatform: 'Ad records are available for Facebook, TikTok and Taboola campaigns only.',
  notLinked: 'This campaign is not linked to a campaign on its traffic source.',
  recordsNotFound: 'No ad records request with this id.',
  syncQueued: 'The cost import was queued.',
  linkSaved: 'The campaign link was saved.',
  advertiserRequired: 'Enter the TikTok advertiser id.',
  linkPlatformInvalid: 'Pick TikTok, Taboola or MediaGo.',
} as const;

/** The platforms the editor links by picking the platform's campaign (issue 25; decision 156). */
export const PICKER_PLATFORMS = ['tiktok', 'taboola', 'mediago'] as const;
export type PickerPlatform = (typeof PICKER_PLATFORMS)[number];

/** GET /api/integrations/platform-campaigns?platform=&accountId= */
export type PlatformCampaignsAnswer = {
  platform: PickerPlatform;
  /** False when no credential is saved on Integrations: the editor says so and links there. */
  connected: boolean;
  /** The account the list was read from (TikTok: the advertiser id asked for; Taboola: the credentials' account). */
  accountId: string;
  campaigns: { id: string; name: string }[];
  /** Why the list could not be read (the platform's words), or ''. */
  problem: string;
};

const M = INTEGRATION_MESSAGES;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const campaignId = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.number({ error: M.campaignRequired }).int(M.campaignRequired).positive(M.campaignRequired),
);
const day = z.string({ error: M.dateInvalid }).regex(DAY, M.dateInvalid);

/** POST /api/integrations/campaign-link */
export const campaignLinkSchema = z.object({
  campaignId,
  platform: z.enum(PLATFORMS, { error: M.platformInvalid }),
  externalCampaignId: z
    .string({ error: M.externalCampaignRequired })
    .trim()
    .min(1, M.externalCampaignRequired)
    .max(64, M.externalCampaignRequired),
  externalAccountId: z.string().trim().max(64).optional().default(''),
  enabled: z.boolean().optional().default(true),
  /** US dollars for one unit of the ad account's currency ("1.08"); '' or absent: none. */
  usdRate: z
    .union([z.string(), z.number()], { error: M.usdRateInvalid })
    .transform((v) => String(v).trim())
    .refine((v) => v === '' || (/^\d{1,5}(\.\d{1,6})?$/.test(v) && Number(v) > 0), M.usdRateInvalid)
    .optional(),
});

/** POST /api/integrations/sync-now */
export const syncNowSchema = z.object({
  campaignId,
  platform: z.enum(PLATFORMS, { error: M.platformInvalid }),
});

/** POST /api/facebook/ad-performance: start building a campaign's ad records over a date range. */
export const adRecordsRequestSchema = z
  .object({ campaignId, startDate: day, endDate: day })
  .refine((v) => v.endDate >= v.startDate, { path: ['endDate'], message: M.rangeInvalid })
  .refine((v) => Date.parse(v.endDate) - Date.parse(v.startDate) <= 92 * 86_400_000, {
    path: ['endDate'],
    message: M.rangeTooLong,
  });

/** One row of the ad performance records (spec 4 §3); money in currency units, 2 decimals. */
export type AdPerformanceRecord = {
  id: string;
  ad_name: string;
  visits: number;
  clicks: number;
  impressions: number;
  conversions: number;
  ctr: number;
  cpc: number;
  spend: number;
};

/** POST /api/facebook/ad-performance answers the id to poll. */
export type AdRecordsStartAnswer = { uuid: string };

/** GET /api/facebook/ad-performance/{uuid}: `done` false while the job runs (poll every 3 s). */
export type AdRecordsAnswer = { done: boolean; data: AdPerformanceRecord[]; error: string | null };

/** GET /api/integrations/sync-status?campaignId=: the campaign's platform links and last syncs. */
export type PlatformSyncStatus = {
  platform: (typeof PLATFORMS)[number];
  externalCampaignId: string;
  externalAccountId: string;
  enabled: boolean;
  /** ms since the epoch; null before the first run. */
  lastSyncAt: number | null;
  lastSuccessAt: number | null;
  lastError: string;
  syncedFrom: string;
  syncedTo: string;
  rowsImported: number;
  /** The ad account's currency and time zone as the platform said at the last sync ('' before). */
  accountCurrency: string;
  accountTimeZone: string;
  /** US dollars for one unit of the account's currency, as entered ('' when none). */
  usdRate: string;
};
export type SyncStatusAnswer = { campaignId: number; links: PlatformSyncStatus[] };
