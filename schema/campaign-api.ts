import { z } from 'zod';
import { EVENT_NAME, METAINFO_MESSAGES, metainfoInput } from './campaign-metainfo';
import {
  AFFILIATE_NETWORKS,
  CAMPAIGN_TYPES,
  type CampaignType,
  MAX_EXTRA_TOKENS,
  REDIRECT_TYPES,
  TRAFFIC_SOURCES,
} from './campaigns';
import {
  type LiCampaignListItem,
  type LiLineItemListItem,
  liCampaignEntry,
  liLineItemEntry,
  liveIntentListRules,
} from './liveintent-lists';
import { toMicros } from './money';
import type { Banner, JeengDetail } from './traffic-api';
import { EMAIL_PATTERN, isHttpUrl, optionalString, requiredName, requiredString } from './validators';

// The API contract of campaigns, landing pages, offers, paths, options and extra tokens
// (spec 2 §3, §5, §7). Field names are the spec's; messages quoted in the spec are used word
// for word, the others say plainly what is wrong.

export const CAMPAIGN_MESSAGES = {
  nameRequired: 'Campaign name is required.',
  campaignRequired: 'Campaign is required.',
  campaignNotFound: 'Campaign not found.',
  tokensLimit: 'You can add up to 20 tokens for a campaign.',
  pixelNameRequired: 'Conversion image pixel name is required.',
  facebookUnverified:
    'Please verify the facebook campaign first before saving. Facebook campaign ID must be valid.',
  pathRequiredForType:
    'Multiple path campaign type requires at least one path to add landing and offer pages.',
  optionRequiredForType: 'Multiple options campaign type requires at least one option to add offer pages.',
  directLinkNoLandings:
    'A direct-link campaign sends visitors straight to its offers: it has no landing pages.',
  campaignAdded: 'Campaign Added Successfully.',
  campaignUpdated: 'Campaign Updated Successfully.',
  landingSaved: 'Landing Page is successfully added/updated.',
  offerSaved: 'Offer page is successfully added/updated.',
  pathSaved: 'Path is successfully added/updated.',
  optionSaved: 'Option is successfully added/updated.',
  statsReset: 'Statistics have been reset.',
  parameterInvalid: 'Parameter names may contain only letters, digits, underscore, dash, dot and brackets.',
  urlInvalid: METAINFO_MESSAGES.urlInvalid,
  shareInvalid: 'Share must be a whole number from 0 to 100000.',
  payoutInvalid: 'Payout must be a number of at least 0 with up to 6 decimals.',
  cpcInvalid: 'CPC must be a number of at least 0 with up to 6 decimals.',
  agentsInvalid: 'Select at least one valid device.',
  eventInvalid: METAINFO_MESSAGES.eventInvalid,
  thresholdInvalid: 'Threshold must be a number greater than or equal to 0.',
  minVisitsInvalid: 'Minimum landing visits must be a whole number greater than or equal to 0.',
  metainfoInvalid: METAINFO_MESSAGES.metainfoInvalid,
  postbackRequired: 'Postback URL is required when postback is enabled.',
  postbackInvalid: 'Postback URL must be a public http or https URL.',
  emailInvalid: 'Please enter valid email address.',
  pathInvalid: 'Select a path of this campaign.',
  optionInvalid: 'Select an option of this campaign.',
  tokenNameRequired: 'Token name is required.',
  tokenParameterRequired: 'Token parameter is required.',
  tokenParameterDuplicate: 'Each token needs its own parameter.',
} as const;

const M = CAMPAIGN_MESSAGES;

const PARAMETER = /^[A-Za-z0-9_.\-[\]]{1,64}$/;

/** 1/0, true/false, '1'/'0', 'true'/'false', 'on'/'off' as 0 or 1; missing gives `fallback`. */
export const flag = (fallback: 0 | 1 = 0) =>
  z.preprocess(
    (v) => {
      if (v === undefined || v === null || v === '') return fallback;
      if (v === true || v === 1 || v === '1' || v === 'true' || v === 'on') return 1;
      if (v === false || v === 0 || v === '0' || v === 'false' || v === 'off') return 0;
      return v;
    },
    z.union([z.literal(0), z.literal(1)], { error: 'Use 1 or 0.' }),
  );

/** A positive integer id; `message` when missing or not one. */
export const requiredId = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
    z.number({ error: message }).int(message).positive(message),
  );

/** An optional id: missing, null, '' or 0 give null. */
export const optionalId = () =>
  z.preprocess(
    (v) =>
      v === undefined || v === null || v === '' || v === 0 || v === '0'
        ? null
        : typeof v === 'string' && /^\d+$/.test(v.trim())
          ? Number(v)
          : v,
    z
      .number({ error: 'Use a numeric id.' })
      .int('Use a numeric id.')
      .positive('Use a numeric id.')
      .nullable(),
  );

const parameterName = (fallback: string) =>
  optionalString(64).pipe(
    z
      .string()
      .transform((v) => v || fallback)
      .refine((v) => v === '' || PARAMETER.test(v), M.parameterInvalid),
  );

/** A page URL; macros such as {clickid} are allowed, so they are checked with placeholders. */
function isPageUrl(value: string): boolean {
  return isHttpUrl(value.replace(/\{[A-Za-z0-9_.-]+\}/g, 'x'));
}

const optionalUrl = () =>
  optionalString(2000).pipe(z.string().refine((v) => v === '' || isPageUrl(v), M.urlInvalid));

const requiredUrl = (required: string) =>
  requiredString(required, 2000).pipe(z.string().refine(isPageUrl, M.urlInvalid));

const money = (message: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 0 : toMicros(v)),
    z.number({ error: message }).int(message).min(0, message),
  );

const share = () =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 100 : typeof v === 'string' ? Number(v) : v),
    z
      .number({ error: M.shareInvalid })
      .int(M.shareInvalid)
      .min(0, M.shareInvalid)
      .max(100_000, M.shareInvalid),
  );

/** Device agent ids as an array or the spec's comma list; missing means 'any' (1). */
const agentList = () =>
  z.preprocess(
    (v) => {
      if (v === undefined || v === null) return [1];
      const list = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v : [v];
      return list
        .map((x) => (typeof x === 'object' && x !== null && 'id' in x ? (x as { id: unknown }).id : x))
        .map((x) => (typeof x === 'string' ? x.trim() : x))
        .filter((x) => x !== '')
        .map((x) => Number(x));
    },
    z
      .array(z.number().int(M.agentsInvalid).positive(M.agentsInvalid), { error: M.agentsInvalid })
      .min(1, M.agentsInvalid)
      .max(50, M.agentsInvalid)
      .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
  );

const eventName = (fallback: string) =>
  optionalString(64).pipe(
    z
      .string()
      .transform((v) => v || fallback)
      .refine((v) => EVENT_NAME.test(v), M.eventInvalid),
  );

export const extraTokenInput = z.object({
  extraTokenId: optionalId(),
  token_name: requiredString(M.tokenNameRequired, 100),
  parameter: requiredString(M.tokenParameterRequired, 64).pipe(
    z.string().regex(PARAMETER, M.parameterInvalid),
  ),
  url_append: optionalString(255),
  landing_page_enabled: flag(0),
  offer_page_enabled: flag(0),
  deleted: flag(0),
});
export type ExtraTokenInput = z.output<typeof extraTokenInput>;

/** Fields of add-campaign and edit-campaign, in the order their errors are answered. */
export const CAMPAIGN_FIELD_ORDER = [
  'campaignId',
  'name',
  'trafficSource',
  'li_conversion_image_pixel',
  'extratokens',
] as const;

const campaignFields = {
  name: requiredName(M.nameRequired),
  dir: optionalId(),
  urlAppendToken: parameterName('tid'),
  keywordParameter: parameterName('keyword'),
  custom_url: optionalUrl(),
  rotator_base_url: optionalUrl(),
  rotator_requires_signed_contract: flag(0),
  custom_url_result: optionalString(2000),
  offerPromotion: optionalString(64).pipe(z.string().transform((v) => v || 'other')),
  trafficSource: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.enum([...TRAFFIC_SOURCES, ''], { error: 'Select a valid traffic source.' }),
  ),
  affiliate_network: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.enum([...AFFILIATE_NETWORKS, ''], { error: 'Select a valid affiliate network.' }),
  ),
  postback_enabled: flag(0),
  postback: optionalString(2000),
  active: flag(1),
  campaignType: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 'direct_link' : v),
    z.enum(CAMPAIGN_TYPES, { error: 'Select a valid campaign type.' }),
  ),
  lpTargetParam: parameterName(''),
  opTargetParam: parameterName(''),
  cpc: money(M.cpcInvalid),
  li_conversion_image_pixel: optionalString(1000),
  li_conversion_lp: optionalString(255),
  li_conversion_atc1: optionalString(255),
  li_conversion_atc2: optionalString(255),
  customConversionGoal: eventName('purchase'),
  li_custom_name_enabled: flag(0),
  landing_pages_auto_optimized: flag(0),
  enable_lp_test_reporting: flag(0),
  landing_pages_optimization_goal: optionalString(64),
  landing_pages_optimization_metric: optionalString(64),
  landing_pages_optimization_threshold: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 0 : typeof v === 'string' ? Number(v) : v),
    z.number({ error: M.thresholdInvalid }).finite(M.thresholdInvalid).min(0, M.thresholdInvalid),
  ),
  landing_pages_optimization_min_visits: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 10 : typeof v === 'string' ? Number(v) : v),
    z.number({ error: M.minVisitsInvalid }).int(M.minVisitsInvalid).min(0, M.minVisitsInvalid),
  ),
  redirectType: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? '302' : String(v)),
    z.enum(REDIRECT_TYPES, { error: 'Select a valid redirect type.' }),
  ),
  metainfo: metainfoInput(),
  extratokens: z.array(extraTokenInput, { error: 'Extra tokens must be a list.' }).max(200).optional(),
};

type CampaignShape = z.output<z.ZodObject<typeof campaignFields>>;

function campaignRules(v: CampaignShape, ctx: z.RefinementCtx) {
  if (v.trafficSource === 'facebook' && v.metainfo.verified !== true) {
    ctx.addIssue({ code: 'custom', path: ['trafficSource'], message: M.facebookUnverified });
  }
  if (v.li_custom_name_enabled === 1 && !v.li_conversion_image_pixel) {
    ctx.addIssue({ code: 'custom', path: ['li_conversion_image_pixel'], message: M.pixelNameRequired });
  }
  if (v.extratokens) {
    const live = v.extratokens.filter((t) => t.deleted === 0);
    if (live.length > MAX_EXTRA_TOKENS) {
      ctx.addIssue({ code: 'custom', path: ['extratokens'], message: M.tokensLimit });
    }
    const names = live.map((t) => t.parameter);
    if (new Set(names).size !== names.length) {
      ctx.addIssue({ code: 'custom', path: ['extratokens'], message: M.tokenParameterDuplicate });
    }
  }
  if (v.postback_enabled === 1 && !v.postback) {
    ctx.addIssue({ code: 'custom', path: ['postback'], message: M.postbackRequired });
  }
}

export const addCampaignSchema = z.object(campaignFields).superRefine(campaignRules);
export const editCampaignSchema = z
  .object({
    campaignId: requiredId(M.campaignRequired),
    ...campaignFields,
    // The editor's LiveIntent lists (schema/liveintent-lists.ts); absent keeps the stored ones.
    liCampaigns: z.array(liCampaignEntry).max(200).optional(),
    liLineItems: z.array(liLineItemEntry).max(500).optional(),
  })
  .superRefine(campaignRules)
  .superRefine(liveIntentListRules);
export type AddCampaignInput = z.output<typeof addCampaignSchema>;
export type EditCampaignInput = z.output<typeof editCampaignSchema>;

export const LANDING_FIELD_ORDER = [
  'campaignId',
  'landingPageId',
  'name',
  'url',
  'share',
  'pathId',
  'agents',
];
const landingFields = {
  campaignId: requiredId(M.campaignRequired),
  name: requiredName('Landing page name is required.'),
  url: requiredUrl('Landing page URL is required.'),
  share: share(),
  active: flag(1),
  pathId: optionalId(),
  agents: agentList(),
};
export const addLandingSchema = z.object(landingFields);
export const editLandingSchema = z.object({
  landingPageId: requiredId('Landing page is required.'),
  ...landingFields,
});
export type LandingInput = z.output<typeof addLandingSchema>;

export const OFFER_FIELD_ORDER = [
  'campaignId',
  'offerPageId',
  'name',
  'url',
  'share',
  'payout',
  'pathId',
  'optionId',
  'postback',
  'agents',
  'rotator_participant_email',
];
const offerFields = {
  campaignId: requiredId(M.campaignRequired),
  name: requiredName('Offer page name is required.'),
  url: requiredUrl('Offer page URL is required.'),
  share: share(),
  payout: money(M.payoutInvalid),
  active: flag(1),
  pathId: optionalId(),
  optionId: optionalId(),
  postback: parameterName(''),
  agents: agentList(),
  liConversionName: optionalString(255),
  rotator_participant_email: optionalString(255).pipe(
    z.string().refine((v) => v === '' || EMAIL_PATTERN.test(v), M.emailInvalid),
  ),
};
export const addOfferSchema = z.object(offerFields);
export const editOfferSchema = z.object({
  offerPageId: requiredId('Offer page is required.'),
  ...offerFields,
});
export type OfferInput = z.output<typeof addOfferSchema>;

export const PATH_FIELD_ORDER = ['campaignId', 'pathId', 'name', 'share', 'agents'];
const pathFields = {
  campaignId: requiredId(M.campaignRequired),
  name: requiredName('Path name is required.'),
  share: share(),
  active: flag(1),
  agents: agentList(),
};
export const addPathSchema = z.object(pathFields);
export const editPathSchema = z.object({ pathId: requiredId('Path is required.'), ...pathFields });
export type PathInput = z.output<typeof addPathSchema>;

export const OPTION_FIELD_ORDER = ['campaignId', 'optionId', 'name'];
const optionFields = {
  campaignId: requiredId(M.campaignRequired),
  name: requiredName('Option name is required.'),
  active: flag(1),
};
export const addOptionSchema = z.object(optionFields);
export const editOptionSchema = z.object({ optionId: requiredId('Option is required.'), ...optionFields });
export type OptionInput = z.output<typeof addOptionSchema>;

/** GET /api/campaign: one campaign (campaignId) or a folder's list (dir, includeDeleted, no_dir). */
export const campaignQuerySchema = z.object({
  campaignId: optionalId(),
  dir: optionalId(),
  includeDeleted: flag(0),
  no_dir: flag(0),
});

/** GET /api/landing, /api/offer, /api/path, /api/option, /api/extratokens. */
export const itemListQuerySchema = z.object({
  campaignId: requiredId(M.campaignRequired),
  showDeleted: flag(0),
});

export const campaignIdSchema = z.object({ campaignId: requiredId(M.campaignRequired) });

// ---- answers (the `data` of each envelope; worker/routes/campaigns.ts answers these) ------------

/** A device agent of the campaign's agents list. */
export type Agent = { id: number; agent_name: string };

/** A landing page as the editor's calls answer it; agents is the comma list of agent ids. */
export type Landing = {
  landingPageId: number;
  campaignId: number;
  name: string;
  url: string;
  share: number;
  active: number;
  pathId: number | null;
  path: string;
  agents: string;
  deleted: number;
};

/** An offer page; payout in dollars. */
export type Offer = {
  offerPageId: number;
  campaignId: number;
  name: string;
  url: string;
  share: number;
  payout: number;
  active: number;
  pathId: number | null;
  path: string;
  optionId: number | null;
  option: string;
  postback: string;
  agents: string;
  liConversionName: string;
  rotator_participant_email: string;
  deleted: number;
};

export type PathItem = {
  pathId: number;
  campaignId: number;
  name: string;
  share: number;
  active: number;
  agents: string;
  deleted: number;
};

export type OptionItem = {
  optionId: number;
  campaignId: number;
  name: string;
  active: number;
  deleted: number;
};

export type ExtraToken = {
  extraTokenId: number;
  campaignId: number;
  slot: number;
  token_name: string;
  parameter: string;
  url_append: string;
  landing_page_enabled: number;
  offer_page_enabled: number;
  deleted: number;
};

/** The campaign's tracking links and pixels (docs/tracking.md). */
export type LinkPixel = {
  campaignURL: string;
  lpofferlink_simple: string;
  lpofferlink_options: { optionId: number; name: string; url: string }[];
  postback: string;
  postback_event: string;
  pixel: string;
  pixel_url: string;
  iframe: string;
  script: string;
  direct_tracking: string;
};

/** A campaign's own fields, as GET /api/campaign?campaignId= answers them; cpc in dollars. */
export type CampaignFields = {
  campaignId: number;
  name: string;
  is_dir: number;
  dir: number;
  urlAppendToken: string;
  keywordParameter: string;
  custom_url: string;
  rotator_base_url: string;
  rotator_requires_signed_contract: number;
  custom_url_result: string;
  offerPromotion: string;
  trafficSource: string;
  affiliate_network: string;
  postback_enabled: number;
  postback: string;
  active: number;
  campaignType: CampaignType;
  lpTargetParam: string;
  opTargetParam: string;
  cpc: number;
  li_conversion_image_pixel: string;
  li_conversion_lp: string;
  li_conversion_atc1: string;
  li_conversion_atc2: string;
  customConversionGoal: string;
  li_custom_name_enabled: number;
  landing_pages_auto_optimized: number;
  enable_lp_test_reporting: number;
  landing_pages_optimization_goal: string;
  landing_pages_optimization_metric: string;
  landing_pages_optimization_threshold: number;
  landing_pages_optimization_min_visits: number;
  redirectType: string;
  metainfo: Record<string, unknown>;
  deleted: number;
  userId: number | null;
  created_at: number;
  updated_at: number;
};

/**
 * GET /api/campaign?campaignId=: the campaign with its items, links and tokens. The LiveIntent,
 * Jeeng and banner fields of spec 2 §3 are answered empty (those integrations are not built).
 */
export type CampaignDetail = CampaignFields & {
  currentDomain: string;
  customDomain: string;
  /** What the manage-liveintent screen checks (spec 4 §7 data.campaign.trafficSource). */
  campaign: { campaignId: number; name: string; trafficSource: string };
  hasLiveIntentAccount: boolean;
  liCampaigns: LiCampaignListItem[];
  liLineItems: LiLineItemListItem[];
  liBalanceNotZero: boolean;
  optimizationMetrics: unknown[];
  banners: Banner[];
  placement: string | null;
  jeeng_assets: JeengDetail['jeeng_assets'];
  jeeng_assets_size: number;
  jeeng_campaign: JeengDetail['jeeng_campaign'];
  jeeng_balance: number;
  jeeng_min_required_balance: number;
  landing: Landing[];
  offer: Offer[];
  path: PathItem[];
  option: OptionItem[];
  agents: Agent[];
  linkpixel: LinkPixel;
  extratokens: ExtraToken[];
};

/** The short form of a saved campaign (spec 2 §7 data.campaign.campaignData). */
type CampaignData = Pick<
  CampaignFields,
  | 'campaignId'
  | 'name'
  | 'urlAppendToken'
  | 'keywordParameter'
  | 'campaignType'
  | 'active'
  | 'lpTargetParam'
  | 'opTargetParam'
>;

/** POST /api/add-campaign and PUT /api/edit-campaign. */
export type CampaignSaveAnswer = { message: string; campaign: { campaignData: CampaignData } };

/** The lists of GET /api/landing, /offer, /path, /option, /extratokens (and many verbs' result). */
export type ListAnswer<T> = { result: T[] };

/** POST/PUT add-/edit-landing, -offer, -path, -option: the saved item and the list after it. */
export type LandingSaveAnswer = { message: string; landing: Landing; result: Landing[] };
export type OfferSaveAnswer = { message: string; offer: Offer; result: Offer[] };
export type PathSaveAnswer = { message: string; path: PathItem; result: PathItem[] };
export type OptionSaveAnswer = { message: string; option: OptionItem; result: OptionItem[] };

/** POST /api/reset-stats. */
export type ResetStatsAnswer = { status: true; message: string };
