import { z } from 'zod';

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
  submitFailed: 'Failed to submit traffic data',
  saveInfoFailed: 'Failed to save traffic info',
  updateLinesFailed: 'Failed to update lines',
  deleteAssetsFailed: 'Failed to delete asset(s)',
  // Ours (the spec shows no server text for these checks).
  bannerImageRequired: 'Add at least one image for the banner.',
  bannerOneImage: 'A banner being edited takes one image only.',
  bannerBatch: 'Send at most 5 images or ids at a time.',
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
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(120),
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
