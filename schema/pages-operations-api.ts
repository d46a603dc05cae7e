import { z } from 'zod';
import {
  type CampaignFields,
  type ExtraToken,
  flag,
  type Landing,
  type Offer,
  type OptionItem,
  type PathItem,
  requiredId,
} from './campaign-api';

// The pages-operation verbs of spec 2 §7 (delete, undo, clone, export, show-deleted and
// equal share of landing pages, offers, paths and options; the landing-page optimisation
// switches), the landing CSV upload, the landing and offer ZIP imports, and the token
// templates. Messages quoted in the spec are used word for word.

export const OPERATION_MESSAGES = {
  campaignRequired: 'Campaign is required.',
  landingRequired: 'Select at least one landing page.',
  offerRequired: 'Select at least one offer page.',
  pathRequired: 'Select at least one path.',
  optionRequired: 'Select at least one option.',
  landingNotFound: 'Landing page not found.',
  offerNotFound: 'Offer page not found.',
  pathNotFound: 'Path not found.',
  optionNotFound: 'Option not found.',
  landingsDeleted: 'Landing pages deleted.',
  landingsRestored: 'Landing pages restored.',
  landingsCloned: 'Landing pages cloned.',
  offersDeleted: 'Offer pages deleted.',
  offersRestored: 'Offer pages restored.',
  offersCloned: 'Offer pages cloned.',
  pathsDeleted: 'Paths deleted.',
  pathsRestored: 'Paths restored.',
  pathsCloned: 'Paths cloned.',
  optionsDeleted: 'Options deleted.',
  optionsRestored: 'Options restored.',
  optionsCloned: 'Options cloned.',
  equalShare: 'Traffic is now shared equally.',
  exported: 'Exported Successfully',
  metricRequired: 'Select an optimization metric.',
  thresholdInvalid: 'Threshold must be a number greater than or equal to 0.',
  minVisitsInvalid: 'Minimum landing visits must be a number greater than or equal to 0.',
  autoOptimizeOn: 'Landing pages auto optimization is on.',
  autoOptimizeOff: 'Landing pages auto optimization is off.',
  testReportingOn: 'Landing pages test reporting is on.',
  testReportingOff: 'Landing pages test reporting is off.',
  goalInvalid: 'Select a valid optimization goal.',
  goalSet: 'Landings pages optimization goal set to {goal}',
  // Uploads (spec 2 §5).
  csvRequired: 'Select csv file for upload.',
  csvInvalid: 'Select valid csv file.',
  csvTooLarge: 'The CSV file is too large: at most 2 MB.',
  csvEmpty: 'The CSV file holds no landing pages.',
  csvTooManyRows: 'The CSV file holds too many rows: at most 1,000 landing pages.',
  zipRequired: 'Select zip file for upload.',
  zipInvalid: 'Select valid zip file.',
  zipTooLarge: 'The ZIP file is too large: at most 5 MB.',
  zipTooManyEntries: 'The ZIP file holds too many files: at most 20.',
  zipTooLargeUncompressed: 'The ZIP file unpacks to more than 20 MB.',
  zipUnsafePath: 'The ZIP file holds a file with an unsafe name.',
  zipNoLandings: 'The ZIP file holds no landings.csv: import a file written by the landing pages export.',
  zipNoOffers: 'The ZIP file holds no offers.csv: import a file written by the offer pages export.',
  landingsUploaded: 'Landing pages data have been uploaded.',
  landingsImported: 'Landing pages data have been imported.',
  offersImported: 'Offer pages data have been imported.',
  // Token templates.
  templateRequired: 'Please select a template!',
  templateUnknown: 'Select one of the listed templates.',
  templatesApplied: 'Token templates applied!',
  tokensRemoved: 'Tokens removed!',
  tokensLimit: 'You can add up to 20 tokens for a campaign.',
} as const;

const M = OPERATION_MESSAGES;

/**
 * A list of positive ids from a number, a numeric string, a comma-joined string or an array of
 * those (the spec sends single ids, lists, and comma-joined bulk ids).
 */
const idList = (message: string) =>
  z.preprocess(
    (v) => {
      if (v === undefined || v === null || v === '') return [];
      const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
      return list.map((x) => (typeof x === 'string' && /^\s*\d+\s*$/.test(x) ? Number(x) : x));
    },
    z
      .array(z.number({ error: message }).int(message).positive(message), { error: message })
      .min(1, message)
      .max(500, 'Select at most 500 items at once.')
      .transform((ids) => [...new Set(ids)]),
  );

const base = {
  campaignId: requiredId(M.campaignRequired),
  showDeleted: flag(0),
};

/** campaignId and showDeleted: the toggle-delete and equal-share verbs. */
export const campaignListSchema = z.object(base);

/**
 * The item ids of a verb: the first of `keys` that is present. The spec names them per verb
 * (landingId, landingIds, offerId, offerPageIds...); the singular and plural are both accepted.
 */
function itemsSchema(keys: readonly string[], message: string) {
  return z.preprocess(
    (v) => {
      if (!v || typeof v !== 'object') return v;
      const body = v as Record<string, unknown>;
      const key = keys.find((k) => body[k] !== undefined && body[k] !== null && body[k] !== '');
      return { ...body, ids: key ? body[key] : undefined };
    },
    z.object({ ...base, ids: idList(message) }),
  );
}

export const landingItemsSchema = itemsSchema(
  ['landingIds', 'landingId', 'landingPageIds', 'landingPageId'],
  M.landingRequired,
);
export const offerItemsSchema = itemsSchema(
  ['offerPageIds', 'offerId', 'offerIds', 'offerPageId'],
  M.offerRequired,
);
export const pathItemsSchema = itemsSchema(['pathIds', 'pathId'], M.pathRequired);
export const optionItemsSchema = itemsSchema(['optionIds', 'optionId'], M.optionRequired);
export const ITEMS_FIELD_ORDER = ['campaignId', 'ids'];

/** The optimisation metrics (worker/services/pages/optimizer-rules.ts OPTIMIZATION_METRICS). */
export const OPTIMIZATION_METRIC_OPTIONS = [
  { value: 'cr', label: 'Conversion rate (CR)' },
  { value: 'lpctr', label: 'Landing page CTR' },
  { value: 'epc', label: 'Earnings per click (EPC)' },
  { value: 'roi', label: 'Return on investment (ROI)' },
] as const;
export const OPTIMIZATION_GOAL_OPTIONS = [
  { value: 'conversion_rate', label: 'Conversion rate' },
  { value: 'lp_ctr', label: 'Landing page CTR' },
] as const;

const numberAtLeastZero = (message: string, fallback: number) =>
  z.preprocess(
    (v) =>
      v === undefined || v === null || v === ''
        ? fallback
        : typeof v === 'string' && v.trim() !== ''
          ? Number(v)
          : v,
    z.number({ error: message }).finite(message).min(0, message),
  );

export const AUTO_OPTIMIZE_FIELD_ORDER = [
  'campaignId',
  'optimizationMetricSelected',
  'optimizationThreshold',
  'optimizationMinLpVisit',
];

/** campaign-toggle-auto-optimize: turning it on needs a metric, a threshold and minimum visits (spec 2 §5). */
export const autoOptimizeSchema = z
  .object({
    ...base,
    autoOptimized: flag(0),
    optimizationMetricSelected: z.preprocess(
      (v) => (v === undefined || v === null ? '' : v),
      z.union([z.enum(OPTIMIZATION_METRIC_OPTIONS.map((o) => o.value)), z.literal('')], {
        error: M.metricRequired,
      }),
    ),
    optimizationThreshold: numberAtLeastZero(M.thresholdInvalid, 0),
    optimizationMinLpVisit: numberAtLeastZero(M.minVisitsInvalid, 10).pipe(
      z.number().transform((v) => Math.floor(v)),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.autoOptimized === 1 && !v.optimizationMetricSelected) {
      ctx.addIssue({ code: 'custom', path: ['optimizationMetricSelected'], message: M.metricRequired });
    }
  });
export type AutoOptimizeInput = z.output<typeof autoOptimizeSchema>;

/** campaign-toggle-lp-test-reporting: `enabled` 1/0; missing flips the stored value. */
export const testReportingSchema = z.object({
  ...base,
  enabled: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? undefined : v),
    flag(0).optional(),
  ),
});

export const goalSchema = z.object({
  ...base,
  goal: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.enum(
      OPTIMIZATION_GOAL_OPTIONS.map((o) => o.value),
      { error: M.goalInvalid },
    ),
  ),
});

/** Token template apply and remove: campaignid, template, campaigntype (spec 2 §7). */
export const tokenTemplateSchema = z.object({
  campaignid: requiredId(M.campaignRequired),
  template: z.preprocess(
    (v) => (v === undefined || v === null ? '' : typeof v === 'string' ? v.trim() : v),
    z.string({ error: M.templateRequired }).min(1, M.templateRequired),
  ),
  campaigntype: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string().max(64)),
});
export const TOKEN_TEMPLATE_FIELD_ORDER = ['campaignid', 'template', 'campaigntype'];

/** The CSV columns of the landing-page upload (and of landings.csv in the ZIP export). */
export const LANDING_CSV_COLUMNS = ['name', 'url', 'share', 'path', 'agents', 'active'] as const;
/** The CSV columns of offers.csv in the offer ZIP export. */
export const OFFER_CSV_COLUMNS = [
  'name',
  'url',
  'share',
  'payout',
  'path',
  'option',
  'postback',
  'agents',
  'active',
  'li_conversion_name',
  'rotator_participant_email',
] as const;

/** Upload limits, shared with the web so the picker can refuse early. */
export const UPLOAD_LIMITS = {
  csvBytes: 2 * 1024 * 1024,
  csvRows: 1000,
  zipBytes: 5 * 1024 * 1024,
  zipEntries: 20,
  zipUncompressedBytes: 20 * 1024 * 1024,
} as const;

// ---- answers (the `data` of each envelope; worker/routes/pages-operations.ts answers these) ---

/** The items of a campaign that the pages operations (and the on/off switches) act on. */
export type ItemKind = 'landing' | 'offer' | 'path' | 'option';

/** The answer row of each item kind. */
export type ItemOf<K extends ItemKind> = K extends 'landing'
  ? Landing
  : K extends 'offer'
    ? Offer
    : K extends 'path'
      ? PathItem
      : OptionItem;

/** delete-, undo-, clone- and *-equal-share verbs: the kind's list after the change. */
export type ItemsAnswer<T> = { message: string; result: T[] };

/** *-toggle-delete: the kind's list with or without deleted items. */
export type ShowDeletedAnswer<T> = { showDeleted: 0 | 1; result: T[] };

/** export-landings and export-offers: a signed link to the ZIP, and the list. */
export type ExportItemsAnswer<T> = { message: string; downloadLink: string; result: T[] };

/** lading-pages-csv, import-landings and import-offers: how many were made, and the list. */
export type ItemsUploadAnswer<T> = { message: string; uploaded: number; result: T[] };

/** The landing-page optimisation settings of a campaign. */
export type OptimizationSettings = Pick<
  CampaignFields,
  | 'landing_pages_auto_optimized'
  | 'enable_lp_test_reporting'
  | 'landing_pages_optimization_goal'
  | 'landing_pages_optimization_metric'
  | 'landing_pages_optimization_threshold'
  | 'landing_pages_optimization_min_visits'
>;

/** campaign-toggle-auto-optimize, campaign-toggle-lp-test-reporting, campaign-set-lp-optimization-goal. */
export type OptimizationAnswer = { message: string; campaign: OptimizationSettings; result: Landing[] };

/** A token template: the extra tokens a traffic source fills in (GET /api/token-templates). */
type TemplateToken = { token_name: string; parameter: string; url_append: string };
export type TokenTemplate = { key: string; label: string; tokens: TemplateToken[] };

/** apply-token-template (added) and remove-token-template (removed): the live tokens after it. */
export type ApplyTemplateAnswer = { message: string; added: number; result: ExtraToken[] };
export type RemoveTemplateAnswer = { message: string; removed: number; result: ExtraToken[] };
