import { z } from 'zod';
import { keysOf } from './label-keys';
import { requiredString } from './validators';

// API contract of the manage-liveintent screens (spec 4 §2, §5, §7, §8; issue 13; docs/api.md
// "Manage LiveIntent"; docs/decisions/090). Every call lives under /api/manage-liveintent/<verb>
// and names the tracker campaign (`campaignId`) it acts for, so the access rules are checked on
// every call. Dates travel as 'YYYY-MM-DD HH:mm:ss'.

export const LIVEINTENT_MESSAGES = {
  hasOwnAccount: 'Student with LiveIntent Account is not allowed to access this page.',
  notLiveIntent: 'Only Campaign with LiveIntent as Traffic Source can access this page.',
  required: 'This field is required.',
  startPast: "Can't start from the past.",
  endBeforeStart: "End Date can't be older than Start Date",
  endSameAsStart: "End Date can't be the same as Start Date",
  bidPositive: 'Must be greater than 0',
  amountPositive: 'Amount should be greater than zero.',
  startInvalid: 'Start Date is invalid.',
  endInvalid: 'End Date is invalid.',
  lineStartBeforeCampaign: 'Ensure that Start Date is not set prior to Campaign Start Date.',
  lineEndAfterCampaign: 'Ensure that End Date does not extend beyond Campaign End Date.',
  lineEndBeforeStart: 'Ensure that End Date is not set prior to Start Date.',
  notImage: 'Must be an image file',
  tooLarge: 'File size must be less than 250kb',
  selectImage: 'Please select an image',
  lineItemNotFound: 'No record found for this Line Item.',
  trackerNotFound: 'No record found for this Conversion Tracker.',
  campaignNotFound: 'No record found for this Campaign.',
  adNotFound: 'No record found for this Ad.',
  notConnected: 'LiveIntent is not connected. Add the LiveIntent account in Settings.',
  campaignCreated: 'Campaign Created!',
  campaignUpdated: 'Campaign Updated!',
  campaignDeleted: 'Campaign deleted successfully',
  campaignDeleteFailed: 'Error deleting campaign',
  lineItemCreated: 'Line Item Created!',
  lineItemUpdated: 'Line Item Updated!',
  lineItemDeleted: 'Line Item deleted successfully',
  lineItemsFailed: 'Error getting lineitems',
  trackerCreated: 'Conversion Tracker Created!',
  trackerUpdated: 'Conversion Tracker Updated!',
  trackerDeleted: 'Conversion Tracker deleted successfully',
  pixelCreated: 'Conversion pixel created',
  adCreated: 'Ad created!',
  adUpdated: 'Ad updated!',
  adDeleted: 'Ad deleted successfully',
  adStatusChanged: 'Ad status changed successfully',
  platformFailed: 'LiveIntent could not complete the request. Please try again.',
} as const;

const M = LIVEINTENT_MESSAGES;

/** Ad images are refused at this size or above (spec 4 §9: under 250000 bytes). */
export const AD_IMAGE_MAX_BYTES = 250_000;

// ---- constants of spec 4 §9 -------------------------------------------------------------------

export const STRATEGY_LABELS = {
  deliver_impression: 'Deliver Impressions',
  max_click: 'Maximize Clicks',
  achieve_cpa: 'Achieve CPA',
  max_conversion: 'Maximize Conversions',
};
export type Strategy = keyof typeof STRATEGY_LABELS;
/** In the order of STRATEGY_LABELS. */
export const STRATEGIES = keysOf(STRATEGY_LABELS);
/** The bid each strategy names (CPM, Target eCPC, Target eCPA). */
export const STRATEGY_BID_LABELS: Record<Strategy, string> = {
  deliver_impression: 'CPM bid',
  max_click: 'Target eCPC',
  achieve_cpa: 'Target eCPA',
  max_conversion: 'Target eCPA',
};
export const needsTracker = (s: string) => s === 'achieve_cpa' || s === 'max_conversion';

export const AGE_TARGETS = [
  { id: 1, label: '18-20' },
  { id: 2, label: '21-24' },
  { id: 3, label: '25-34' },
  { id: 4, label: '35-44' },
  { id: 5, label: '45-54' },
  { id: 6, label: '55-64' },
  { id: 7, label: '65+' },
] as const;
export const GENDER_TARGETS = [
  { id: 8, label: 'Male' },
  { id: 9, label: 'Female' },
] as const;
export const TARGET_TYPES = ['include', 'exclude'] as const;
const LINE_ITEM_STATUSES = ['paused', 'active'] as const;

/** IAB tier-1 content categories; the id is what the platform takes (default 1). */
export const IAB_CATEGORIES = [
  'Arts & Entertainment',
  'Automotive',
  'Business',
  'Careers',
  'Education',
  'Family & Parenting',
  'Health & Fitness',
  'Food & Drink',
  'Hobbies & Interests',
  'Home & Garden',
  'Law, Government & Politics',
  'News',
  'Personal Finance',
  'Society',
  'Science',
  'Pets',
  'Sports',
  'Style & Fashion',
  'Technology & Computing',
  'Travel',
  'Real Estate',
  'Shopping',
  'Religion & Spirituality',
  'Uncategorized',
  'Non-Standard Content',
  'Illegal Content',
].map((name, i) => ({ id: i + 1, code: `IAB${i + 1}`, name }));

// ---- dates ------------------------------------------------------------------------------------

/** 'YYYY-MM-DD HH:mm:ss', the platform's and the spec's date format. */
const PLATFORM_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Minutes since the epoch of a 'YYYY-MM-DD HH:mm:ss' wall-clock time; null when invalid. */
function wallMinutes(value: string): number | null {
  const m = PLATFORM_DATE.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  if (h > 23 || mi > 59 || s > 59) return null;
  return Math.floor(t / 60_000);
}

// ---- inputs -----------------------------------------------------------------------------------

const id = (message = M.required) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ error: message }).int(message).positive(message),
  );
const ref = (message = M.required) => requiredString(message, 64);
const amount = (message: string) =>
  z.preprocess(
    (v) => (v === '' || v === null || v === undefined ? undefined : typeof v === 'string' ? Number(v) : v),
    z.number({ error: message }).finite(message),
  );
/** A valid 'YYYY-MM-DD HH:mm:ss' date, checked per field so it shows beside the other fields' errors. */
const date = (message: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string({ error: message }).refine((v) => wallMinutes(v) !== null, { message, abort: true }),
  );

/** Every call names the tracker campaign it acts for. */
export const campaignScopeSchema = z.object({ campaignId: id() });

/**
 * POST create-campaign / edit-campaign. `today` is the installation's day ('YYYY-MM-DD'): the
 * start may not be before it.
 */
export function liCampaignSchema(today: string) {
  return z
    .object({
      campaignId: id(),
      refId: z.string().trim().max(64).optional().default(''),
      strategyType: z.enum(STRATEGIES, { error: M.required }),
      category: id(),
      startDate: date(M.startInvalid).refine((v) => v.slice(0, 10) >= today, M.startPast),
      endDate: date(M.endInvalid),
      bidAmount: amount(M.bidPositive).pipe(z.number().gt(0, M.bidPositive)),
      name: requiredString(M.required, 120),
      conversionPixel: z
        .preprocess((v) => (v === null || v === undefined ? '' : String(v)), z.string().trim().max(64))
        .optional()
        .default(''),
    })
    .superRefine((v, ctx) => {
      const start = wallMinutes(v.startDate);
      const end = wallMinutes(v.endDate);
      if (start !== null && end !== null && end < start)
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: M.endBeforeStart });
      else if (start !== null && end === start)
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: M.endSameAsStart });
      if (needsTracker(v.strategyType) && !v.conversionPixel)
        ctx.addIssue({ code: 'custom', path: ['conversionPixel'], message: M.required });
    });
}
export const LI_CAMPAIGN_ORDER = [
  'campaignId',
  'strategyType',
  'name',
  'category',
  'bidAmount',
  'conversionPixel',
  'startDate',
  'endDate',
];
export type LiCampaignInput = z.output<ReturnType<typeof liCampaignSchema>>;

const idList = (allowed: readonly number[]) =>
  z
    .preprocess(
      (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
      z.array(z.preprocess((x) => Number(x), z.number())),
    )
    .transform((list) => [...new Set(list)].filter((n) => allowed.includes(n)));

/** POST create-lineitem / edit-lineitem. The campaign-date rules are checked after the platform answers. */
export const lineItemSchema = z
  .object({
    campaignId: id(),
    liCampaignId: ref(),
    lineItemRefId: z.string().trim().max(64).optional().default(''),
    name: requiredString(M.required, 120),
    status: z.enum(LINE_ITEM_STATUSES, { error: M.required }).default('paused'),
    startDate: date(M.startInvalid),
    endDate: date(M.endInvalid),
    dailyCap: amount(M.required),
    dailyBudget: amount(M.required),
    dataProviderSegments: z
      .array(z.object({ type: z.string().trim().max(40), id: z.string().trim().max(64) }))
      .max(50)
      .optional()
      .default([]),
    ageTargetType: z.enum(TARGET_TYPES).default('include'),
    ageTarget: idList(AGE_TARGETS.map((a) => a.id)),
    genderTargetType: z.enum(TARGET_TYPES).default('include'),
    genderTarget: idList(GENDER_TARGETS.map((g) => g.id)),
  })
  .superRefine((v, ctx) => {
    const start = wallMinutes(v.startDate);
    const end = wallMinutes(v.endDate);
    if (start !== null && end !== null && end < start)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: M.lineEndBeforeStart });
  });
export const LINE_ITEM_ORDER = [
  'campaignId',
  'liCampaignId',
  'name',
  'status',
  'dailyCap',
  'dailyBudget',
  'startDate',
  'endDate',
];
export type LineItemInput = z.output<typeof lineItemSchema>;

/**
 * The rules that need the parent campaign (its goal and dates), shared by the form and the
 * server: field errors in the spec's words, empty when the line item fits.
 */
export function lineItemCampaignErrors(
  v: Pick<LineItemInput, 'dailyCap' | 'dailyBudget' | 'startDate' | 'endDate'>,
  parent: { strategyType: string; startDate: string; endDate: string },
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (parent.strategyType === 'achieve_cpa' && !(v.dailyCap > 0)) errors.dailyCap = [M.amountPositive];
  if (parent.strategyType !== 'achieve_cpa' && !(v.dailyBudget > 0)) errors.dailyBudget = [M.amountPositive];
  const start = wallMinutes(v.startDate);
  const end = wallMinutes(v.endDate);
  const pStart = wallMinutes(parent.startDate);
  const pEnd = wallMinutes(parent.endDate);
  if (start !== null && pStart !== null && start < pStart) errors.startDate = [M.lineStartBeforeCampaign];
  if (end !== null && pEnd !== null && end > pEnd) errors.endDate = [M.lineEndAfterCampaign];
  return errors;
}

/** POST create-conversiontracker / edit-conversiontracker. */
export const trackerSchema = z.object({
  campaignId: id(),
  segmentId: z.string().trim().max(64).optional().default(''),
  termRegex: requiredString(M.required, 500),
  segmentName: requiredString(M.required, 120),
});
export const TRACKER_ORDER = ['campaignId', 'termRegex', 'segmentName'];

const clickUrl = requiredString(M.required, 2000).pipe(
  z.string().refine((v) => /^https?:\/\/[^\s]+$/i.test(v), 'Enter a valid URL (http or https).'),
);

/** POST create-ad: one image per call (the screen sends the files one after another). */
export const createAdSchema = z.object({
  campaignId: id(),
  lineitem_ref_id: ref(),
  adName: requiredString(M.required, 120),
  clickUrl,
  mediaUrl: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string().min(1, M.notImage)),
  width: z.preprocess((v) => Number(v ?? 0), z.number().int().min(0).max(10_000)).default(0),
  height: z.preprocess((v) => Number(v ?? 0), z.number().int().min(0).max(10_000)).default(0),
});
export const CREATE_AD_ORDER = ['campaignId', 'lineitem_ref_id', 'mediaUrl', 'adName', 'clickUrl'];

/** POST edit-ad: `mediaUrl` is a new image (data URL) or the ad's current image URL. */
export const editAdSchema = z.object({
  campaignId: id(),
  refId: ref(),
  adName: requiredString(M.required, 120),
  clickUrl,
  mediaUrl: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string().min(1, M.selectImage)),
});
export const EDIT_AD_ORDER = ['campaignId', 'refId', 'mediaUrl', 'adName', 'clickUrl'];

export const refSchema = z.object({ campaignId: id(), refId: ref() });
export const lineItemRefSchema = z.object({ campaignId: id(), lineItemRefId: ref() });
export const conversionRefSchema = z.object({ campaignId: id(), conversionRefId: ref() });
export const segmentRefSchema = z.object({ campaignId: id(), segmentId: ref() });
export const toggleAdSchema = z.object({
  campaignId: id(),
  refId: ref(),
  status: z.preprocess((v) => v === true || v === 1 || v === '1' || v === 'true', z.boolean()),
});

// ---- answers ----------------------------------------------------------------------------------

export type LiCampaign = {
  li_refid: string;
  li_name: string;
  li_start_date: string;
  li_end_date: string;
  perf_goal: Strategy;
  bidAmount: number;
  category: number;
  conversionPixel: string;
  li_status: string;
};
export type LiLineItem = {
  li_refid: string;
  li_name: string;
  li_status: string;
  li_start_date: string;
  li_end_date: string;
  li_daily_cap: number;
  li_daily_budget: number;
  li_campaign_refid: string;
  age_target_type: (typeof TARGET_TYPES)[number];
  gender_target_type: (typeof TARGET_TYPES)[number];
  age_target: number[];
  gender_target: number[];
  data_provider_segments: { type: string; id: string }[];
};
export type ConversionTracker = {
  li_segment_id: string;
  li_segment_name: string;
  li_term_regex: string;
  li_conversion_id: number;
  li_conversion_refid: string;
  li_status: string;
};
export type LiAd = {
  li_refid: string;
  li_name: string;
  li_click_url: string;
  li_media_url: string;
  li_status: boolean;
  li_lineitem_refid: string;
  created_at: number;
};

export type LiMessageAnswer = { message: string };
export type IabCategoriesAnswer = { id: number; code: string; name: string }[];
export type LiCampaignsAnswer = { liCampaigns: LiCampaign[] };
export type LiCampaignAnswer = { liCampaign: LiCampaign };
export type LineItemsAnswer = { lineItems: LiLineItem[] };
export type LineItemAnswer = { lineItem: LiLineItem };
export type ConversionTrackersAnswer = { conversionTrackers: ConversionTracker[] };
export type ConversionTrackerAnswer = { conversionTracker: ConversionTracker };
export type TrackerStatusAnswer = { active: boolean };
export type LiAdsAnswer = { ads: LiAd[] };
export type LiAdAnswer = { ad: LiAd };
export type LiCreateAdAnswer = { message: string; ad: LiAd };
export type LiCampaignCreatedAnswer = { message: string; liCampaign: LiCampaign };
export type LineItemCreatedAnswer = { message: string; lineItem: LiLineItem };
export type TrackerCreatedAnswer = { message: string; conversionTracker: ConversionTracker };

// ---- force sync (spec 3 §4, §7) ------------------------------------------------------------------

export const FORCE_SYNC_MESSAGES = {
  started: 'Force sync started.',
  running: 'A force sync is already running for this campaign.',
  nothingToSync: 'This campaign has no LiveIntent campaign to sync.',
  stopped: 'Force sync stopped.',
  completed: 'Force sync completed.',
  stopFailed: 'Encountered error while stopping force sync.',
} as const;

/** POST liveintent-force-sync and its siblings: the state the panel shows. */
export type ForceSyncAnswer = {
  status: 'idle' | 'started' | 'in-progress' | 'error' | 'done';
  message: string;
  progressLogs: string[];
  completedMessage: string;
};
