import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './auth';
import { serialId, timestamps } from './columns';

// Campaigns and the items visitors are routed through (spec 2 §3, §4).
// Money is stored in integer micro-units (1 USD = 1,000,000): docs/decisions/010-money-micro-units.md.
// Agent lists are comma-separated agent ids ('1' = any device), as the spec's payloads carry them.

export const CAMPAIGN_TYPES = [
  'landing_page',
  'direct_link',
  'rotator',
  'multiple_path_type',
  'multiple_option_type',
] as const;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];

export const TRAFFIC_SOURCES = [
  'trrcpc',
  'crane',
  'trrde',
  'blaze',
  'facebook',
  'tiktok',
  'taboola',
  'mediago',
  'liveintent',
  // Named by spec 3 §1 and §3: their statistics defaults are spec 3's (numberSetsOf,
  // targetDefaultSort and defaultMetrics in schema/stats-api.ts).
  'apple-news-feed',
  'cdsp',
  'jeeng',
] as const;

/** Affiliate networks and the offer-URL parameter each one reads the click id from (spec 2 §4). */
export const AFFILIATE_NETWORK_PARAMS = {
  clickbank: 'tid',
  mediamaven: 'subid',
  maxweb: 'subid',
  sellhealth: 't1',
  oasisads: 's1',
} as const;
export type AffiliateNetwork = keyof typeof AFFILIATE_NETWORK_PARAMS;
export const AFFILIATE_NETWORKS = Object.keys(AFFILIATE_NETWORK_PARAMS) as AffiliateNetwork[];

/** How the campaign link answers: a 302, a meta refresh, or a double meta refresh (hides the referrer). */
export const REDIRECT_TYPES = ['302', 'meta', 'double_meta'] as const;
export type RedirectType = (typeof REDIRECT_TYPES)[number];

export const MAX_EXTRA_TOKENS = 20;

/** The user who created a row; null once that user is removed. */
const createdBy = () => integer('created_by').references(() => users.id, { onDelete: 'set null' });

/** The campaign a row belongs to: the row goes with the campaign. */
export const campaignRef = () =>
  integer('campaign_id')
    .notNull()
    .references(() => campaigns.id, { onDelete: 'cascade' });

/** A campaign item's id and campaign (its items go with the campaign). */
export const ofCampaign = () => ({ id: serialId(), campaignId: campaignRef() });

/**
 * How a path or landing page is routed: its share of the visits among its siblings, whether it
 * takes visits at all, and the agents (device ids, "1" for any) it serves.
 */
const routing = () => ({
  share: integer('share').notNull().default(100),
  active: integer('active').notNull().default(1),
  agents: text('agents').notNull().default('1'),
});

/** A campaign item's soft delete, author and times. */
const itemEnd = () => ({
  deleted: integer('deleted').notNull().default(0),
  createdBy: createdBy(),
  ...timestamps(),
});

export const campaigns = sqliteTable(
  'campaigns',
  {
    id: serialId(),
    name: text('name').notNull(),
    /** 1 for a folder; folders carry only a name and children. */
    isDir: integer('is_dir').notNull().default(0),
    /** The folder holding this campaign; null at the top level. */
    parentId: integer('parent_id'),
    /** Query parameter of the campaign link that carries the target (creative / ad id). */
    urlAppendToken: text('url_append_token').notNull().default('tid'),
    /** Query parameter of the campaign link that carries the keyword. */
    keywordParameter: text('keyword_parameter').notNull().default('keyword'),
    /** Where visitors go when nothing can serve them (inactive campaign, no eligible page). */
    customUrl: text('custom_url').notNull().default(''),
    rotatorBaseUrl: text('rotator_base_url').notNull().default(''),
    rotatorRequiresSignedContract: integer('rotator_requires_signed_contract').notNull().default(0),
    customUrlResult: text('custom_url_result').notNull().default(''),
    offerPromotion: text('offer_promotion').notNull().default('other'),
    trafficSource: text('traffic_source').notNull().default(''),
    affiliateNetwork: text('affiliate_network').notNull().default(''),
    postbackEnabled: integer('postback_enabled').notNull().default(0),
    /** The traffic source's postback URL template, with macros such as {clickid} and {payout}. */
    postback: text('postback').notNull().default(''),
    active: integer('active').notNull().default(1),
    campaignType: text('campaign_type', { enum: CAMPAIGN_TYPES }).notNull().default('direct_link'),
    /** Landing-page URL parameter that receives the click id (default clickid). */
    lpTargetParam: text('lp_target_param').notNull().default(''),
    /** Offer URL parameter that receives the click id (set from the affiliate network). */
    opTargetParam: text('op_target_param').notNull().default(''),
    cpcMicros: integer('cpc_micros').notNull().default(0),
    liConversionImagePixel: text('li_conversion_image_pixel').notNull().default(''),
    liConversionLp: text('li_conversion_lp').notNull().default(''),
    liConversionAtc1: text('li_conversion_atc1').notNull().default(''),
    liConversionAtc2: text('li_conversion_atc2').notNull().default(''),
    /** The event name that counts as the campaign's conversion. */
    customConversionGoal: text('custom_conversion_goal').notNull().default('purchase'),
    liCustomNameEnabled: integer('li_custom_name_enabled').notNull().default(0),
    landingPagesAutoOptimized: integer('landing_pages_auto_optimized').notNull().default(0),
    enableLpTestReporting: integer('enable_lp_test_reporting').notNull().default(0),
    landingPagesOptimizationGoal: text('landing_pages_optimization_goal').notNull().default(''),
    landingPagesOptimizationMetric: text('landing_pages_optimization_metric').notNull().default(''),
    landingPagesOptimizationThreshold: real('landing_pages_optimization_threshold').notNull().default(0),
    landingPagesOptimizationMinVisits: integer('landing_pages_optimization_min_visits').notNull().default(10),
    redirectType: text('redirect_type', { enum: REDIRECT_TYPES }).notNull().default('302'),
    /** JSON object: facebook, blaze and jeeng details, alerts (spec 2 §3, spec 3 §3). */
    metainfo: text('metainfo').notNull().default('{}'),
    deleted: integer('deleted').notNull().default(0),
    deletedAt: integer('deleted_at'),
    createdBy: createdBy(),
    ...timestamps(),
  },
  (t) => [
    index('campaigns_parent_idx').on(t.parentId, t.deleted),
    index('campaigns_created_by_idx').on(t.createdBy),
  ],
);

/** Devices. 'any' (id 1) is the default; desktop, mobile and tablet are seeded by the migration. */
export const agents = sqliteTable('agents', {
  id: serialId(),
  agentName: text('agent_name').notNull().unique(),
});
export const ANY_AGENT_ID = 1;
export const SEEDED_AGENTS = [
  { id: 1, agentName: 'any' },
  { id: 2, agentName: 'desktop' },
  { id: 3, agentName: 'mobile' },
  { id: 4, agentName: 'tablet' },
] as const;

export const paths = sqliteTable(
  'paths',
  {
    ...ofCampaign(),
    name: text('name').notNull(),
    ...routing(),
    ...itemEnd(),
  },
  (t) => [index('paths_campaign_idx').on(t.campaignId)],
);

export const options = sqliteTable(
  'options',
  {
    ...ofCampaign(),
    name: text('name').notNull(),
    active: integer('active').notNull().default(1),
    ...itemEnd(),
  },
  (t) => [index('options_campaign_idx').on(t.campaignId)],
);

export const landingPages = sqliteTable(
  'landing_pages',
  {
    ...ofCampaign(),
    pathId: integer('path_id').references(() => paths.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    ...routing(),
    ...itemEnd(),
  },
  (t) => [index('landing_pages_campaign_idx').on(t.campaignId)],
);

export const offerPages = sqliteTable(
  'offer_pages',
  {
    ...ofCampaign(),
    pathId: integer('path_id').references(() => paths.id, { onDelete: 'set null' }),
    optionId: integer('option_id').references(() => options.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    share: integer('share').notNull().default(100),
    payoutMicros: integer('payout_micros').notNull().default(0),
    active: integer('active').notNull().default(1),
    /** The offer URL parameter for the click id when this offer differs from the campaign's. */
    postbackParameter: text('postback_parameter').notNull().default(''),
    agents: text('agents').notNull().default('1'),
    liConversionName: text('li_conversion_name').notNull().default(''),
    rotatorParticipantEmail: text('rotator_participant_email').notNull().default(''),
    ...itemEnd(),
  },
  (t) => [index('offer_pages_campaign_idx').on(t.campaignId)],
);

/**
 * Extra tokens: query parameters captured on the campaign link. Each live token owns a slot
 * 1..20, the column t1..t20 of the raw event tables its values are stored in
 * (docs/decisions/012-extra-token-slots.md).
 */
export const extraTokens = sqliteTable(
  'extra_tokens',
  {
    ...ofCampaign(),
    slot: integer('slot').notNull(),
    tokenName: text('token_name').notNull(),
    parameter: text('parameter').notNull(),
    /** The traffic source's macro for this parameter, written into the campaign URL (e.g. {{ad.id}}). */
    urlAppend: text('url_append').notNull().default(''),
    landingPageEnabled: integer('landing_page_enabled').notNull().default(0),
    offerPageEnabled: integer('offer_page_enabled').notNull().default(0),
    deleted: integer('deleted').notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index('extra_tokens_campaign_idx').on(t.campaignId),
    uniqueIndex('extra_tokens_live_slot_unique').on(t.campaignId, t.slot).where(sql`${t.deleted} = 0`),
  ],
);
