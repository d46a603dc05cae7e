import { z } from 'zod';
import { keysOf } from './label-keys';
import {
  EMAIL_PATTERN,
  isHttpUrl,
  newPassword,
  optionalString,
  requiredPassword,
  requiredString,
} from './validators';

// The settings screen's calls (spec 2 §2, §3, §5, §7): installation settings, password change,
// LiveIntent credentials, delete-all-records, install export/import and database
// find-and-replace. Shared by the worker and the settings screen.

export const SETTINGS_MESSAGES = {
  updated: 'Setting has been successfully Updated.',
  // Spec 2 §8: the LiveIntent section saved with credentials to connect with.
  liveIntentConnected: 'LiveIntent connected successfully.',
  baseUrlRequired: 'Base url field is required.',
  baseUrlInvalid: 'Base url must be a valid http or https URL.',
  emailRequired: 'Email field is required.',
  emailInvalid: 'Please enter valid email address.',
  titleRequired: 'Title field is required.',
  faviconRequired: 'Favicon field is required.',
  faviconType: 'Favicon must be a png or ico file.',
  faviconSize: 'Favicon may not be larger than 512 KB.',
  logoType: 'Logo must be a png, jpg or jpeg file.',
  logoSize: 'Logo may not be larger than 2 MB.',
  routeMainRequired: 'Main ad link route is required.',
  routeClickRequired: 'Landing page route is required.',
  routeImageRequired: 'Tracking image route is required.',
  routeIframeRequired: 'Tracking iframe route is required.',
  routeScriptRequired: 'Tracking script route is required.',
  routePostbackRequired: 'Postback route is required.',
  routeInvalid: 'A route may only contain letters, numbers, dots, dashes and underscores.',
  routeReserved: 'This route is used by the application; choose another.',
  routeDuplicate: 'Each tracking route must be different.',
  timezoneRequired: 'Timezone field is required.',
  timezoneInvalid: 'Timezone field is not valid.',
  customDomainInvalid: 'Custom domain must be a host name such as track.example.com.',
  oldPasswordRequired: 'Old password field is required.',
  oldPasswordIncorrect: 'Old password is incorrect.',
  newPasswordRequired: 'New password field is required.',
  confirmPasswordRequired: 'Confirm Password field is required.',
  confirmPasswordMismatch: 'Confirm Password do not match with Password.',
  advertiserIdInvalid: 'Advertiser ID may only contain letters, numbers, underscores and dashes.',
  advertiserAppIdInvalid: 'Advertiser app ID may only contain letters, numbers, underscores and dashes.',
  liUsernameRequired: 'Username is required.',
  liPasswordRequired: 'Password is required.',
  retrieveDaysRequired: 'Retrieval days is required.',
  retrieveDaysInvalid: 'Retrieval days must be 7, 14, 30, 60, 90 or all.',
  advertiserIdRequired: 'Advertiser ID is required.',
  advertiserAppIdRequired: 'Advertiser app ID is required.',
  deleteConfirmWrong: 'Please add correct number in text box.',
  recordsDeleted: 'Records deleted successfully.',
  deleteFailed: 'Please try again to delete records.',
  exported: 'Exported Successfully',
  imported: 'Install Imported Successfully',
  importFailed: 'Import Install Failed.',
  importFileRequired: 'Select zip file for upload.',
  importFileInvalid: 'Select valid zip file.',
  importFileTooLarge: 'The file may not be larger than 32 MB.',
  importFileCorrupt: 'The zip file is damaged and cannot be read.',
  importNotAnExport: 'This file is not an install export of this product.',
  importTooBig: 'The zip file holds too many files or too much data.',
  importUnexpectedEntry: 'The zip file holds a file that an install export never has.',
  importNewerVersion: 'The export comes from a newer version of the product; update this installation first.',
  importBadRows: 'The export holds rows that do not match their table.',
  findFieldInvalid: 'Please select a valid field.',
  findRequired: 'Find field is required.',
  replaceInvalidUrl: 'The replacement would leave a URL that is not a valid http or https URL.',
  replaceInvalidPostback: 'The replacement would leave a postback URL that may not be called.',
  replaceEmptyName: 'The replacement would leave a name empty.',
  licenseDeactivateFailed: 'Error in deactivate license',
} as const;
const M = SETTINGS_MESSAGES;

// ---- tracking routes ------------------------------------------------------------------------

export const ROUTE_LABELS = {
  route_main: 'Main ad link route',
  route_click: 'Landing page route',
  route_image: 'Tracking image route',
  route_iframe: 'Tracking iframe route',
  route_script: 'Tracking script route',
  route_postback: 'Postback route',
};
export type RouteKey = keyof typeof ROUTE_LABELS;
/** In the order of ROUTE_LABELS. */
export const ROUTE_KEYS = keysOf(ROUTE_LABELS);

const ROUTE_REQUIRED: Record<RouteKey, string> = {
  route_main: M.routeMainRequired,
  route_click: M.routeClickRequired,
  route_image: M.routeImageRequired,
  route_iframe: M.routeIframeRequired,
  route_script: M.routeScriptRequired,
  route_postback: M.routePostbackRequired,
};

/** One path segment: the tracking handler matches /{route}/... before the SPA. */
export const ROUTE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * First path segments a tracking route may not take: the API, files, built assets, the session
 * exchange and every screen of the SPA (a route named 'campaigns' would swallow the screen).
 */
export const RESERVED_ROUTES = [
  'api',
  'files',
  'assets',
  'sanctum',
  '__scheduled',
  'favicon.svg',
  'index.html',
  'login',
  'register',
  'forgot-password',
  'reset-password',
  'application-startup',
  'license',
  'dashboard',
  'campaigns',
  'basic-info',
  'setting',
  'settings',
  'tools',
  'conversion-tracker',
  'postback-urls',
  'funding',
  'stats',
  'registeruser',
  'master-dashboard',
  'integrations',
  'release-notes',
  'manage-liveintent',
  'rotators',
] as const;

/** Leading and trailing slashes are not part of a route. */
export const trimRoute = (value: string) => value.trim().replace(/^\/+|\/+$/g, '');

// ---- installation settings (the basic pane) -------------------------------------------------

const HOST_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

const route = (key: RouteKey) =>
  requiredString(ROUTE_REQUIRED[key], 200).pipe(
    z
      .string()
      .transform(trimRoute)
      .pipe(
        z
          .string()
          .min(1, ROUTE_REQUIRED[key])
          .regex(ROUTE_PATTERN, M.routeInvalid)
          .refine((v) => !(RESERVED_ROUTES as readonly string[]).includes(v.toLowerCase()), M.routeReserved),
      ),
  );

export const basicSettingsSchema = z
  .object({
    baseUrl: requiredString(M.baseUrlRequired, 500).pipe(
      z
        .string()
        .refine(isHttpUrl, M.baseUrlInvalid)
        .transform((v) => v.replace(/\/+$/, '')),
    ),
    email: requiredString(M.emailRequired).pipe(z.string().regex(EMAIL_PATTERN, M.emailInvalid)),
    title: requiredString(M.titleRequired, 120),
    route_main: route('route_main'),
    route_click: route('route_click'),
    route_image: route('route_image'),
    route_iframe: route('route_iframe'),
    route_script: route('route_script'),
    route_postback: route('route_postback'),
    timeZone: requiredString(M.timezoneRequired, 64),
    customDomain: optionalString(253).pipe(
      z
        .string()
        .transform((v) =>
          v
            .replace(/^https?:\/\//i, '')
            .replace(/\/.*$/, '')
            .toLowerCase(),
        )
        .refine((v) => v === '' || HOST_PATTERN.test(v), M.customDomainInvalid),
    ),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    for (const key of ROUTE_KEYS) {
      // Only routes that are otherwise valid can clash (a blank one has its own message).
      const raw = v[key];
      if (typeof raw !== 'string' || !ROUTE_PATTERN.test(raw)) continue;
      const value = raw.toLowerCase();
      if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [key], message: M.routeDuplicate });
      seen.add(value);
    }
  });

/** Fields that make a request an installation-settings change (admins only). */
export const BASIC_FIELDS = ['baseUrl', 'email', 'title', ...ROUTE_KEYS, 'timeZone', 'customDomain'] as const;

// ---- password change --------------------------------------------------------------------------

export const PASSWORD_FIELDS = ['oldPassword', 'newPassword', 'confirmPassword'] as const;

export const passwordChangeSchema = z
  .object({
    oldPassword: requiredPassword(M.oldPasswordRequired),
    newPassword: newPassword(M.newPasswordRequired),
    confirmPassword: requiredPassword(M.confirmPasswordRequired),
  })
  .superRefine((v, ctx) => {
    if (v.newPassword && v.confirmPassword && v.newPassword !== v.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: M.confirmPasswordMismatch });
    }
  });

/** A password change is asked for when any of its fields holds more than whitespace. */
export function wantsPasswordChange(input: Record<string, unknown>): boolean {
  return PASSWORD_FIELDS.some((f) => typeof input[f] === 'string' && input[f].replace(/\s+/g, '') !== '');
}

// ---- LiveIntent credentials -------------------------------------------------------------------

/** Retrieval day options (spec 2 §9); -1 is all. */
export const RETRIEVE_DAY_OPTIONS = [7, 14, 30, 60, 90, -1] as const;
export const DEFAULT_RETRIEVE_DAYS = 7;

const LI_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** 'https://…?aid=ab-12&x=1' or 'aid=ab-12' pasted into an id field: the aid value. */
export function extractAid(value: string): string {
  const match = /(?:^|[?&#\s])aid=([^&#\s]*)/i.exec(value);
  if (!match) return value.trim();
  try {
    return decodeURIComponent(match[1]).trim();
  } catch {
    return match[1].trim();
  }
}

const flag = z.preprocess(
  (v) => (v === true || v === 1 || v === '1' || v === 'true' || v === 'on' ? 1 : 0),
  z.union([z.literal(0), z.literal(1)]),
);

const liId = (message: string) =>
  optionalString(120).pipe(
    z
      .string()
      .transform(extractAid)
      .refine((v) => v === '' || LI_ID_PATTERN.test(v), message),
  );

const retrieveDays = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? undefined : Number(v)),
  z
    .number({ error: M.retrieveDaysRequired })
    .refine((n) => (RETRIEVE_DAY_OPTIONS as readonly number[]).includes(n), M.retrieveDaysInvalid)
    .optional(),
);

/**
 * One LiveIntent account section. The password is write-only: blank keeps the stored one, so
 * `passwordStored` says whether one exists for the fetch-enabled requirement.
 */
function liveIntentSection(prefix: 'li' | 'pli', daysKey: 'retrieveNumDays' | 'pretrieveNumDays') {
  const k = (name: string) => `${prefix}${name}`;
  return z
    .object({
      [k('AdvertiserId')]: liId(M.advertiserIdInvalid),
      [k('Aid')]: liId(M.advertiserAppIdInvalid),
      [k('FetchEnable')]: flag,
      [k('Username')]: optionalString(200),
      [k('Password')]: z.preprocess(
        (v) => (typeof v === 'string' ? v.replace(/\s+/g, '') : ''),
        z.string().max(200, 'This field may not be greater than 200 characters.'),
      ),
      [daysKey]: retrieveDays,
      passwordStored: z.boolean().default(false),
      ...(prefix === 'pli' ? { pliPauseAll: flag } : {}),
    })
    .superRefine((raw, ctx) => {
      const v = raw as Record<string, unknown>;
      if (v[k('FetchEnable')] !== 1) return;
      const need = (field: string, message: string, ok: boolean) => {
        if (!ok) ctx.addIssue({ code: 'custom', path: [field], message });
      };
      need(k('Username'), M.liUsernameRequired, v[k('Username')] !== '');
      need(k('Password'), M.liPasswordRequired, v[k('Password')] !== '' || v.passwordStored === true);
      need(daysKey, M.retrieveDaysRequired, v[daysKey] !== undefined);
      need(k('AdvertiserId'), M.advertiserIdRequired, v[k('AdvertiserId')] !== '');
      need(k('Aid'), M.advertiserAppIdRequired, v[k('Aid')] !== '');
    });
}

export const liveIntentOwnSchema = liveIntentSection('li', 'retrieveNumDays');
export const liveIntentPersonalSchema = liveIntentSection('pli', 'pretrieveNumDays');

export const LI_OWN_FIELDS = [
  'liAdvertiserId',
  'liAid',
  'liFetchEnable',
  'liUsername',
  'liPassword',
  'retrieveNumDays',
] as const;
export const LI_PERSONAL_FIELDS = [
  'pliAdvertiserId',
  'pliAid',
  'pliFetchEnable',
  'pliUsername',
  'pliPassword',
  'pretrieveNumDays',
  'pliPauseAll',
] as const;

// Check order of spec 2 §5 within each section: the advertiser id pattern, then what fetching
// needs (username, password, retrieval days, advertiser ID, advertiser app ID).
const LI_ORDER = (p: 'li' | 'pli', days: string) => [
  `${p}AdvertiserId`,
  `${p}Aid`,
  `${p}Username`,
  `${p}Password`,
  days,
];

/** The 422 field order of update-setting (spec 2 §5 order within each pane). */
export const UPDATE_SETTING_FIELD_ORDER = [
  'baseUrl',
  'email',
  'title',
  'favicon',
  'logo',
  ...ROUTE_KEYS,
  'timeZone',
  'customDomain',
  ...PASSWORD_FIELDS,
  ...LI_ORDER('li', 'retrieveNumDays'),
  ...LI_ORDER('pli', 'pretrieveNumDays'),
] as const;

// ---- uploads ----------------------------------------------------------------------------------

export const FAVICON_MAX_BYTES = 512 * 1024;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const FAVICON_EXTENSIONS = ['png', 'ico'] as const;
export const LOGO_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;
export const IMPORT_MAX_BYTES = 32 * 1024 * 1024;

// ---- delete all records -----------------------------------------------------------------------

export const DELETE_RECORDS_CODE = '1234';
export const cleanRecordsSchema = z.object({
  confirm: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : ''),
    z.string().refine((v) => v === DELETE_RECORDS_CODE, M.deleteConfirmWrong),
  ),
});

// ---- find and replace -------------------------------------------------------------------------

export const FIND_FIELDS = [
  { value: 'landingpage.url', label: 'Landing page URL' },
  { value: 'landingpage.name', label: 'Landing page name' },
  { value: 'offerpage.url', label: 'Offer page URL' },
  { value: 'offerpage.name', label: 'Offer page name' },
  { value: 'campaign.name', label: 'Campaign name' },
  { value: 'campaign.custom_url', label: 'Campaign custom URL' },
  { value: 'campaign.rotator_base_url', label: 'Campaign rotator base URL' },
  { value: 'campaign.postback', label: 'Campaign postback URL' },
  { value: 'path.name', label: 'Path name' },
  { value: 'option.name', label: 'Option name' },
] as const;
export type FindField = (typeof FIND_FIELDS)[number]['value'];
export const DEFAULT_FIND_FIELD: FindField = 'landingpage.url';
const FIND_FIELD_VALUES = FIND_FIELDS.map((f) => f.value) as [FindField, ...FindField[]];

/** Find text is matched exactly (case-sensitive, no patterns) anywhere in the field. */
export const dbFindSchema = z.object({
  field: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? DEFAULT_FIND_FIELD : v),
    z.enum(FIND_FIELD_VALUES, { error: M.findFieldInvalid }),
  ),
  find: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string({ error: M.findRequired }).min(1, M.findRequired).max(2000),
  ),
  replace: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string().max(2000, 'This field may not be greater than 2000 characters.'),
  ),
});
export const DB_FIND_FIELD_ORDER = ['field', 'find', 'replace'] as const;

/** One match of db-find: where it is and the value before and after the replacement. */
export type FindMatch = {
  id: number;
  campaignId: number;
  campaignName: string;
  name: string;
  deleted: number;
  before: string;
  after: string;
};

// ---- answers (the `data` of each envelope; worker/routes/settings.ts answers these) -----------

type SettingsCommon = { username: string; userEmail: string; role: string };

/** GET /api/settings for an admin: the installation's settings, secrets only as flags. */
export type InstallationSettings = SettingsCommon & {
  canManage: true;
  baseUrl: string;
  email: string;
  title: string;
  favicon: string;
  logo: string;
  timeZone: string;
  customDomain: string;
  appDomain: string;
  currentDomain: string;
  route_main: string;
  route_click: string;
  route_image: string;
  route_iframe: string;
  route_script: string;
  route_postback: string;
  has_liveintent_account: boolean;
  liAdvertiserId: string;
  liAid: string;
  liFetchEnable: 0 | 1;
  liUsername: string;
  liPasswordSet: boolean;
  retrieveNumDays: number;
  pliAdvertiserId: string;
  pliAid: string;
  pliFetchEnable: 0 | 1;
  pliUsername: string;
  pliPasswordSet: boolean;
  pretrieveNumDays: number;
  pliPauseAll: 0 | 1;
};

/** GET /api/settings for a coach or student: their own account only. */
type OwnSettings = SettingsCommon & { canManage: false };
export type SettingsAnswer = InstallationSettings | OwnSettings;

/** POST /api/update-setting. */
export type UpdateSettingAnswer = {
  message: string;
  favicon: string;
  logo: string;
  title: string;
  /** A fresh token after a password change (every other session is signed out). */
  token?: string;
};

/** DELETE /api/clean-records. */
export type CleanRecordsAnswer = { message: string };

/** GET /api/export-install: a signed link to the ZIP and how many rows it holds. */
export type ExportInstallAnswer = { downloadLink: string; message: string; rows: number };

/** POST /api/import-install: rand is the client's own value, echoed. */
export type ImportInstallAnswer = {
  message: string;
  rand: string;
  rows: number;
  tables: { name: string; rows: number }[];
};

/** POST /api/db-find: the first matches, how many there are in all, and the field searched. */
export type FindAnswer = { results: FindMatch[]; total: number; field: FindField };

/** POST /api/db-replace. */
export type ReplaceAnswer = { count: number; message: string };
