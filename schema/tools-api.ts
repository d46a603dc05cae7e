import { z } from 'zod';
import { flag, optionalId, requiredId } from './campaign-api';
import type { CampaignType, RedirectType } from './campaigns';
import type { TestPostbackStatus } from './tools';
import { optionalString } from './validators';

// The Tools screen's API (/api/tools/…): link tester (a dry run of the routing), postback
// tester (test clicks and test conversions kept apart from the numbers) and link builder.
// docs/api.md "Tools"; decisions 060 to 062.

export const TOOLS_MESSAGES = {
  linkOrCampaign: 'Paste a campaign link or pick a campaign.',
  linkInvalid:
    'This is not a campaign link of this tracker: it should look like https://your-domain/go/12?tid=…',
  campaignRequired: 'Pick a campaign.',
  deviceInvalid: 'Choose desktop, mobile or tablet.',
  countryInvalid: 'Country must be a two-letter code such as US.',
  runsInvalid: 'Runs must be a whole number from 1 to 10,000.',
  seedInvalid: 'Seed must be a whole number.',
  tokensInvalid: 'Token values must be text, at most 20 of them.',
  clickIdRequired: 'Make a test click first.',
  clickIdNotTest:
    'This is not a test click id: only test clicks can be converted here. Make a test click first.',
  paramName: 'Parameter names may contain only letters, digits, underscore, dash, dot and brackets.',
  paramsTooMany: 'You can add up to 20 parameters.',
  sourceUnknown: 'Select one of the listed traffic sources.',
  testClickMade: 'Test click made.',
  cleared: 'Test conversions cleared.',
} as const;
const M = TOOLS_MESSAGES;

const DEVICES = ['desktop', 'mobile', 'tablet'] as const;
export type ToolDevice = (typeof DEVICES)[number];

const device = z.preprocess(
  (v) => (v === undefined || v === null ? '' : v),
  z.enum(['', ...DEVICES], { error: M.deviceInvalid }),
);
const country = z.preprocess(
  (v) => (v === undefined || v === null ? '' : typeof v === 'string' ? v.trim().toUpperCase() : v),
  z.string({ error: M.countryInvalid }).regex(/^([A-Z]{2})?$/, M.countryInvalid),
);
const tokens = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? {} : v),
  z
    .record(z.string().max(64), z.string({ error: M.tokensInvalid }).max(255, M.tokensInvalid), {
      error: M.tokensInvalid,
    })
    .refine((r) => Object.keys(r).length <= 20, M.tokensInvalid),
);

export const linkTestSchema = z
  .object({
    link: optionalString(2000),
    campaignId: optionalId(),
    device,
    country,
    userAgent: optionalString(1000),
    target: optionalString(),
    keyword: optionalString(),
    tokens,
    /** Option campaigns: the option of the landing page's click-through link. */
    optionId: optionalId(),
    runs: z.preprocess(
      (v) => (v === undefined || v === null || v === '' ? 1 : typeof v === 'string' ? Number(v) : v),
      z.number({ error: M.runsInvalid }).int(M.runsInvalid).min(1, M.runsInvalid).max(10_000, M.runsInvalid),
    ),
    /** Repeatable picks (tests); without it the picks are random like real visitors'. */
    seed: z.preprocess(
      (v) => (v === undefined || v === null || v === '' ? null : typeof v === 'string' ? Number(v) : v),
      z.number({ error: M.seedInvalid }).int(M.seedInvalid).nullable(),
    ),
    /** 1: fetch the eligible landing pages and look for the click-through link. */
    checkPages: flag(1),
  })
  .refine((v) => v.link !== '' || v.campaignId !== null, { path: ['link'], message: M.linkOrCampaign });
export type LinkTestInput = z.output<typeof linkTestSchema>;
export const LINK_TEST_FIELD_ORDER = [
  'link',
  'campaignId',
  'device',
  'country',
  'userAgent',
  'target',
  'keyword',
  'tokens',
  'optionId',
  'runs',
  'seed',
  'checkPages',
] as const;

export const testClickSchema = z.object({
  campaignId: requiredId(M.campaignRequired),
  device,
  country,
  target: optionalString(),
  keyword: optionalString(),
  tokens,
});
export type TestClickInput = z.output<typeof testClickSchema>;
export const TEST_CLICK_FIELD_ORDER = ['campaignId', 'device', 'country', 'target', 'keyword', 'tokens'];

const raw = (max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v),
    z.string().trim().max(max, `This field may not be greater than ${max} characters.`),
  );

/** Payout, transaction id and event go to the postback route as typed: its refusals are the point. */
export const testPostbackSchema = z.object({
  clickId: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string({ error: M.clickIdRequired }).trim().min(1, M.clickIdRequired).max(64, M.clickIdNotTest),
  ),
  payout: raw(64),
  txid: raw(255),
  event: raw(80),
  /** 1: call the traffic source's postback URL for real. */
  send: flag(0),
});
export type TestPostbackInput = z.output<typeof testPostbackSchema>;
export const TEST_POSTBACK_FIELD_ORDER = ['clickId', 'payout', 'txid', 'event', 'send'];

export const testConversionsQuerySchema = z.object({ campaignId: optionalId() });

const PARAM_NAME = /^[A-Za-z0-9_.\-[\]]{1,64}$/;
export const linkBuilderSchema = z.object({
  campaignId: requiredId(M.campaignRequired),
  trafficSource: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string({ error: M.sourceUnknown }).max(40, M.sourceUnknown),
  ),
  params: z.preprocess(
    (v) => (v === undefined || v === null ? [] : v),
    z
      .array(
        z.object({
          name: z.string({ error: M.paramName }).trim().regex(PARAM_NAME, M.paramName),
          value: z.preprocess(
            (v) => (v === undefined || v === null ? '' : v),
            z.string().max(255, 'This field may not be greater than 255 characters.'),
          ),
        }),
        { error: M.paramName },
      )
      .max(20, M.paramsTooMany),
  ),
});
export type LinkBuilderInput = z.output<typeof linkBuilderSchema>;
export const LINK_BUILDER_FIELD_ORDER = ['campaignId', 'trafficSource', 'params'];

// ---- answers ---------------------------------------------------------------------------------

/** Why an item cannot serve the visitor. */
export type IneligibleReason =
  | 'deleted'
  | 'paused'
  | 'device'
  | 'zero_share'
  | 'path'
  | 'no_landing'
  | 'option';

export type Candidate = {
  id: number;
  name: string;
  share: number;
  /** Its chance within its pool, percent with 2 decimals; null when not eligible. */
  sharePct: number | null;
  /** The group it is chosen within: 'campaign', 'path:3', 'option:2'. */
  pool: string;
  poolName: string;
  eligible: boolean;
  reason: IneligibleReason | null;
  reasonText: string;
  chosen: boolean;
  url: string;
};

type LinkTestWarningCode =
  | 'campaign_deleted'
  | 'campaign_paused'
  | 'no_eligible'
  | 'bot'
  | 'lp_no_click_link'
  | 'lp_unchecked'
  | 'offer_no_click_id';
export type LinkTestWarning = { code: LinkTestWarningCode; message: string };

/** A pool of the split check: the items of one level that share the runs reaching it. */
type SplitPoolOf = {
  level: 'path' | 'landing' | 'offer';
  pool: string;
  poolName: string;
};
export type SplitRow = SplitPoolOf & {
  id: number;
  name: string;
  /** Runs that reached this item's pool. */
  poolRuns: number;
  count: number;
  configuredPct: number;
  observedPct: number;
  /** |observed - configured| in percentage points is within the tolerance. */
  withinTolerance: boolean;
};
export type SplitPool = SplitPoolOf & {
  runs: number;
  tolerancePct: number;
  chiSquare: number;
  degreesOfFreedom: number;
  /** Chi-square at p = 0.001 for those degrees of freedom: above it the split is suspicious. */
  critical: number;
  consistent: boolean;
};
export type SplitAnswer = { runs: number; rows: SplitRow[]; pools: SplitPool[] };

export type LinkTestAnswer = {
  campaign: {
    campaignId: number;
    name: string;
    campaignType: CampaignType;
    active: number;
    deleted: number;
    redirectType: RedirectType;
    trafficSource: string;
  };
  visitor: {
    device: ToolDevice;
    /** 'chosen' when the device was picked, 'user_agent' when read from the user agent. */
    deviceFrom: 'chosen' | 'user_agent' | 'default';
    bot: boolean;
    country: string;
    userAgent: string;
  };
  values: { target: string; keyword: string; tokens: Record<string, string> };
  /** routed: a page serves the visitor; fallback: custom URL or 404; not_available: unknown or deleted. */
  result: 'routed' | 'fallback' | 'not_available';
  fallback: { reason: 'inactive' | 'unrouted' | 'deleted'; status: 302 | 404; url: string } | null;
  path: { id: number; name: string } | null;
  landing: { id: number; name: string } | null;
  offer: { id: number; name: string; payout: number } | null;
  redirect: { mode: RedirectType; description: string };
  /** A test click id (never stored): real routes refuse it. */
  clickId: string;
  landingUrl: string | null;
  clickThroughUrl: string | null;
  offerUrl: string | null;
  offerClickIdParam: string;
  candidates: { paths: Candidate[]; landings: Candidate[]; offers: Candidate[] };
  warnings: LinkTestWarning[];
  split: SplitAnswer | null;
};

export type DuplicateRule = {
  rule: 'transaction' | 'event';
  key: string;
  description: string;
};

export type TestConversionRow = {
  id: number;
  campaignId: number;
  campaignName: string;
  clickId: string;
  event: string;
  isGoal: number;
  transactionId: string;
  payout: number;
  source: string;
  duplicates: number;
  postbackStatus: TestPostbackStatus | '';
  postbackUrl: string;
  postbackResponse: number | null;
  createdAt: number;
};

export type TestClickAnswer = {
  message: string;
  clickId: string;
  campaignId: number;
  path: { id: number; name: string } | null;
  landing: { id: number; name: string } | null;
  offer: { id: number; name: string; payout: number } | null;
  /** The installation's postback URL for this click, {payout}, {txid} left for the network. */
  postbackUrl: string;
  note: string;
};

export type TrafficSourcePostback = {
  status: TestPostbackStatus | 'duplicate';
  url: string;
  message: string;
  responseStatus: number | null;
};

export type TestPostbackAnswer = {
  request: { method: 'GET'; url: string };
  response: { status: number; body: unknown };
  outcome: 'accepted' | 'duplicate' | 'refused';
  message: string;
  duplicateRule: DuplicateRule | null;
  conversion: TestConversionRow | null;
  trafficSourcePostback: TrafficSourcePostback | null;
};

/**
 * The value a campaign link carries in the target (ad id) parameter when its traffic source has no
 * known macro (issue 27): never an empty value, always something a marketer sees must be replaced
 * by the source's own ad-id macro (docs/decisions/130-campaign-link-values.md).
 */
export const TARGET_PLACEHOLDER = 'REPLACE_WITH_AD_ID';

export type TrafficSourceInfo = {
  key: string;
  label: string;
  /** The macro that fills the campaign's target (ad id) parameter; '' when the source has none. */
  targetMacro: string;
  tokens: { token_name: string; parameter: string; url_append: string }[];
};

export type LinkBuilderAnswer = {
  url: string;
  trafficSource: string;
  parameters: { name: string; value: string; from: 'target' | 'token' | 'extra' }[];
  /** Parameters the source offers that the campaign does not capture (add them as extra tokens). */
  missingTokens: { token_name: string; parameter: string; url_append: string }[];
};

/** GET /api/tools/traffic-sources. */
export type TrafficSourcesAnswer = { result: TrafficSourceInfo[] };
/** GET /api/tools/test-conversions. */
export type TestConversionsAnswer = { result: TestConversionRow[] };
/** DELETE /api/tools/test-conversions. */
export type ClearTestConversionsAnswer = { deleted: number; message: string };
