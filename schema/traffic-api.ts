import { z } from 'zod';
import { NAME_MAX, NAME_TOO_LONG } from './validators';

// Tabs 7 and 8 of the campaign editor (spec 2 §3, §7, §8, §9; spec 4's CPC builder): the blaze
// banners and placement, and the CPC traffic campaign. Messages are the spec's, word for word.

export const TRAFFIC_MESSAGES = {
  bannersSaved: 'Banner(s) saved successfully',
  bannersUpdated: 'Banner(s) updated successfully',
  bannersDeleted: 'Banner(s) deleted successfully',
  placementsSaved: 'Placements saved successfully',
  saveBannerFailed: 'Failed to save banner',
  updateBannerFailed: 'Failed to update banner',
  deleteBannersFailed: 'Failed to delete banner(s)',
  savePlacementsFailed: 'Failed to save placements',
  trafficSubmitted: 'Traffic data submitted successfully',
  trafficInfoSaved: 'Traffic info saved successfully',
  linesUpdated: 'Lines updated successfully',
  headlinesSaved: 'Traffic headlines saved successfully',
  assetsSaved: 'Asset(s) saved successfully',
  // Ours: the spec names only the failure toast of a delete.
  deleteAssetsDone: 'Asset(s) deleted successfully',
  submitFailed: 'Failed to submit traffic data',
  saveInfoFailed: 'Failed to save traffic info',
  updateLinesFailed: 'Failed to update lines',
  deleteAssetsFailed: 'Failed to delete asset(s)',
  // Ours (the spec shows no server text for these checks).
  bannerImageRequired: 'Add at least one image for the banner.',
  bannerOneImage: 'A banner being edited takes one image only.',
  bannerBatch: 'Send at most 5 images or ids at a time.',
  // A body over the upload's size limit says the limit (docs/decisions/125).
  bannerUploadTooLarge: 'The banner upload is too large: at most 5 images of up to 2 MB each.',
  imageType: 'Images must be png, jpg, jpeg or gif files.',
  imageSize: 'Each banner image must be 2 MB or smaller.',
  imageName: 'The file name is not usable; rename the file and try again.',
  notBlaze: 'Banners and placement are for Blaze campaigns.',
  bannerNotFound: 'Banner not found.',
  nameRequired: 'Banner name is required.',
  urlInvalid: 'Enter a valid http or https URL.',
  sizeInvalid: 'Width and height must be whole numbers from 1 to 5000.',
  placementRequired: 'Select a placement.',
  idsRequired: 'Select at least one banner.',
} as const;

const M = TRAFFIC_MESSAGES;

export const BLAZE_PLACEMENT_TYPES = ['EMAIL_PLACEMENT', 'NEWSFEED_PLACEMENT', 'DISPLAY_PLACEMENT'] as const;
export const DEFAULT_BLAZE_PUBLISHER_ID = 9;
/** Spec 4: asset and banner uploads go in batches of 5 images. */
export const UPLOAD_BATCH_SIZE = 5;
export const BANNER_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const BANNER_IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif'] as const;

export type Banner = {
  id: number;
  name: string;
  url: string;
  placement_type: string;
  width: number;
  height: number;
  active: number;
  image_name: string;
  /** A short-lived link to the image (signed, 15 minutes). */
  image_url: string;
  provider_banner_id: string;
};

export type BlazeZone = { id: string; name: string; placements: string[] };

/** GET api/blaze/get-zones-and-placement-by-publisher-id/{id}?campaign_id= */
export type ZonesAnswer = { status: 'success'; data: { zones: BlazeZone[]; placement: string | null } };
export type BannersAnswer = { message: string; banners: Banner[] };
export type PlacementAnswer = { message: string; placement: string };

const intText = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ error: message }).int(message).min(1, message).max(5000, message),
  );
const flagText = z.preprocess(
  (v) => (v === undefined || v === '' ? 1 : v === '1' || v === 1 || v === 'true' || v === true ? 1 : 0),
  z.union([z.literal(0), z.literal(1)]),
);

export const bannerFieldsSchema = z.object({
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(NAME_MAX, NAME_TOO_LONG),
  url: z
    .string({ error: M.urlInvalid })
    .trim()
    .refine((u) => /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(u), M.urlInvalid),
  type: z.enum(BLAZE_PLACEMENT_TYPES).default('EMAIL_PLACEMENT'),
  width: intText(M.sizeInvalid),
  height: intText(M.sizeInvalid),
  active: flagText,
});
export const BANNER_FIELD_ORDER = [
  'campaign_id',
  'name',
  'url',
  'type',
  'width',
  'height',
  'active',
  'images',
];
export type BannerFields = z.output<typeof bannerFieldsSchema>;

// ---- Tab 8: the CPC traffic campaign (trrcpc, crane) ---------------------------------------------

export const CPC_MESSAGES = {
  submitted: 'Traffic data was submitted and can no longer be changed.',
  assetSubmitted: 'Submitted assets cannot be changed.',
  notCpc: 'The traffic tab is for trrcpc and crane campaigns.',
  infoFirst: 'Save the traffic info before submitting.',
  assetsFirst: 'Upload at least one asset before submitting.',
  balanceLow: 'The CPC balance is below the minimum required to submit.',
  attachmentTooLarge: 'Attachment file size must be less than',
  assetType: 'Assets must be png, jpg, jpeg or gif files.',
  appleAssetType: 'Apple News assets must be png, jpg or jpeg files.',
  assetSize: 'is larger than the asset size limit.',
  assetCount: 'A campaign holds at most 200 assets.',
  assetUploadTooLarge: 'The asset upload is too large: at most 5 images of up to 1000 KB each.',
  headlinesTooLarge: 'The headline images are too large: at most 50 images of up to 1000 KB each.',
  assetNotFound: 'Asset not found.',
  imagesRequired: 'Choose at least one image.',
  headlineRequired: 'Every headline needs its text.',
  offerRequired: 'Select an offer.',
  budgetInvalid: 'Enter an amount of at least 0 with up to 2 decimals.',
  adTypeInvalid: 'Select an ad type.',
  adSizeInvalid: 'Select at least one ad size of the traffic.',
  trafficInvalid: 'Select the traffic.',
  linesInvalid: 'Every line needs an id and a CPM of at least 0.',
} as const;

export const CPC_TRAFFIC = ['Email', 'Apple News'] as const;
export const CPC_AD_TYPES = ['Display', 'Native'] as const;
/** Spec 2 §9: sizes per traffic and ad type. */
export const CPC_AD_SIZES = {
  Email: { Display: ['300x250', '970x250', '970x550'], Native: ['300x250'] },
  'Apple News': { Display: ['970x250', '900x750', '1242x699', '1536x864'], Native: [] as string[] },
} as const;
export const MAX_TRAFFIC_ASSETS = 200;
export const EMAIL_ASSET_MAX_BYTES = 1000 * 1024;
export const APPLE_ASSET_MAX_BYTES = 500 * 1024;
export const EMAIL_ASSET_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif'] as const;
export const APPLE_ASSET_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;
export const DEFAULT_ATTACHMENT_MAX_MB = 25;
/** Spec 2 §9 traffic defaults; amounts in dollars as the form shows them. */
export const CPC_DEFAULTS = {
  traffic: 'Email',
  adType: 'Display',
  adSize: '300x250',
  dailyBudget: 500,
  totalBudget: 1500,
  maxAdSpend: 200,
  cpc: 0.75,
} as const;

export type TrafficAsset = { name: string; checked: boolean; size: number; url: string; editable: boolean };
export type TrafficHeadline = { headline: string; image: string };
export type TrafficLine = { id: string; cpm: number };

/** jeeng_campaign of the campaign detail (spec 2 §3). Amounts in dollars. */
export type JeengCampaign = {
  campaign_id: number;
  offer_name: string;
  traffic: string;
  ad_type: string;
  ad_size: string;
  daily_budget: number;
  cpc: number;
  toggle_max_ad_spend: number;
  data: { max_ad_spend: number; total_budget: number; headlines: TrafficHeadline[] };
  lines: TrafficLine[];
  spend: number;
  submitted: number;
  submitted_at: string | null;
  can_submit: boolean;
  uneditable_assets: string[];
};

/** The traffic fields of the campaign detail. */
export type JeengDetail = {
  jeeng_campaign: JeengCampaign | null;
  jeeng_assets: TrafficAsset[];
  jeeng_assets_size: number;
  jeeng_balance: number;
  jeeng_min_required_balance: number;
};

export type TrafficStatusAnswer = { status: Record<string, string> };
export type CpcOffersAnswer = { offers: { name: string }[] };
/** GET /api/cpc/config; blaze_publisher_id is ours (tab 7's publisher, 9 unless configured). */
export type CpcConfigAnswer = { config: { attachment_max_size_mb: number; blaze_publisher_id: number } };
export type CpcCampaignAnswer = { message: string; jeeng_campaign: JeengCampaign };
export type CpcAssetsAnswer = {
  message: string;
  assets: TrafficAsset[];
  uploader: { uploaded: number; total: number };
};

const money = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z
    .number({ error: CPC_MESSAGES.budgetInvalid })
    .min(0, CPC_MESSAGES.budgetInvalid)
    .max(10_000_000, CPC_MESSAGES.budgetInvalid)
    .refine((n) => /^\d+(\.\d{1,2})?$/.test(String(n)), CPC_MESSAGES.budgetInvalid),
);
const toggle = z.preprocess(
  (v) => (v === true || v === 1 || v === '1' || v === 'true' ? 1 : 0),
  z.union([z.literal(0), z.literal(1)]),
);

export const saveInfoSchema = z
  .object({
    offerName: z
      .string({ error: CPC_MESSAGES.offerRequired })
      .trim()
      .min(1, CPC_MESSAGES.offerRequired)
      .max(200),
    traffic: z.enum(CPC_TRAFFIC, { error: CPC_MESSAGES.trafficInvalid }).default('Email'),
    adType: z.enum(CPC_AD_TYPES, { error: CPC_MESSAGES.adTypeInvalid }).default('Display'),
    adSize: z.preprocess(
      (v) => (Array.isArray(v) ? v.join(',') : v),
      z.string({ error: CPC_MESSAGES.adSizeInvalid }).trim().default('300x250'),
    ),
    dailyBudget: money.default(CPC_DEFAULTS.dailyBudget),
    cpc: money.default(CPC_DEFAULTS.cpc),
    maxAdSpend: money.default(CPC_DEFAULTS.maxAdSpend),
    toggleMaxAdSpend: toggle.default(0),
    totalBudget: money.default(CPC_DEFAULTS.totalBudget),
  })
  .superRefine((v, ctx) => {
    const allowed: readonly string[] = CPC_AD_SIZES[v.traffic][v.adType];
    const sizes = v.adSize
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (sizes.length === 0 || sizes.some((s) => !allowed.includes(s)))
      ctx.addIssue({ code: 'custom', path: ['adSize'], message: CPC_MESSAGES.adSizeInvalid });
  });
export type SaveInfoInput = z.output<typeof saveInfoSchema>;
export const SAVE_INFO_FIELD_ORDER = [
  'campaign_id',
  'offerName',
  'traffic',
  'adType',
  'adSize',
  'dailyBudget',
  'cpc',
  'maxAdSpend',
  'toggleMaxAdSpend',
  'totalBudget',
];

export const linesSchema = z
  .array(z.object({ id: z.string().trim().min(1).max(100), cpm: money }), {
    error: CPC_MESSAGES.linesInvalid,
  })
  .max(500, CPC_MESSAGES.linesInvalid);
