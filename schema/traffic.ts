import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, serialId, timestamps, updatedAt } from './columns';

// Traffic providers (migration 0015, docs/decisions/095-099): the CPC traffic campaign of a trrcpc
// or crane campaign (spec 2 §3 jeeng_campaign) with its assets, and the blaze banners of tab 7.
// Money in micro-units (docs/decisions/010).

/** Spec 2 §5 and §9: a submitted campaign cannot be set inactive before this much spend... */
export const MIN_SPEND_BEFORE_INACTIVE_MICROS = 1_500_000_000;
/** ...unless it was submitted on or before this day (installation time zone). */
export const MIN_SPEND_CUTOFF_DAY = '2025-07-06';
export const MIN_SPEND_MESSAGE = 'Cannot set the campaign to inactive before reaching $1500 spend';
/** The traffic sources whose campaigns are submitted to the CPC provider (tab 8). */
export const CPC_TRAFFIC_SOURCES = ['trrcpc', 'crane'] as const;

/** An image kept in R2 (worker/services/traffic/storage.ts): its key, content type and bytes. */
const storedImage = () => ({
  r2Key: text('r2_key').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
});

/** One campaign's traffic settings at the CPC provider; created by the first save on tab 8. */
export const trafficCampaigns = sqliteTable('traffic_campaigns', {
  campaignId: integer('campaign_id').primaryKey(),
  provider: text('provider').notNull(),
  providerCampaignId: text('provider_campaign_id').notNull().default(''),
  offerName: text('offer_name').notNull().default(''),
  traffic: text('traffic').notNull().default('Email'),
  adType: text('ad_type').notNull().default('Display'),
  /** Comma list of sizes, as the provider takes it. */
  adSize: text('ad_size').notNull().default('300x250'),
  dailyBudgetMicros: integer('daily_budget_micros').notNull().default(500_000_000),
  cpcMicros: integer('cpc_micros').notNull().default(750_000),
  maxAdSpendMicros: integer('max_ad_spend_micros').notNull().default(200_000_000),
  toggleMaxAdSpend: integer('toggle_max_ad_spend').notNull().default(0),
  totalBudgetMicros: integer('total_budget_micros').notNull().default(1_500_000_000),
  /** JSON list of { headline, image }. */
  headlines: text('headlines').notNull().default('[]'),
  /** JSON list of { id, cpm } (cpm in micro-units). */
  lines: text('lines').notNull().default('[]'),
  /** What the provider reports the campaign has spent. */
  spendMicros: integer('spend_micros').notNull().default(0),
  submitted: integer('submitted').notNull().default(0),
  submittedAt: integer('submitted_at'),
  /** The installation's day of submitted_at (YYYY-MM-DD): the $1500 rule's cutoff compares it. */
  submittedOn: text('submitted_on'),
  /** JSON list of asset names sent with the submit; they can no longer be changed. */
  uneditableAssets: text('uneditable_assets').notNull().default('[]'),
  ...timestamps(),
});

/** An image of a traffic campaign, stored in R2 under traffic/{campaignId}/. */
export const trafficAssets = sqliteTable(
  'traffic_assets',
  {
    id: serialId(),
    campaignId: integer('campaign_id').notNull(),
    name: text('name').notNull(),
    ...storedImage(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('traffic_assets_campaign_name_idx').on(t.campaignId, t.name)],
);

/** A blaze banner (spec 2 §3): one image each, stored in R2 under banners/{campaignId}/. */
export const banners = sqliteTable(
  'banners',
  {
    id: serialId(),
    campaignId: integer('campaign_id').notNull(),
    providerBannerId: text('provider_banner_id').notNull().default(''),
    name: text('name').notNull(),
    url: text('url').notNull(),
    placementType: text('placement_type').notNull().default('EMAIL_PLACEMENT'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    active: integer('active').notNull().default(1),
    imageName: text('image_name').notNull(),
    ...storedImage(),
    ...timestamps(),
  },
  (t) => [index('banners_campaign_idx').on(t.campaignId)],
);

/**
 * The blaze placement chosen on tab 7. A table of its own rather than the campaign's metainfo,
 * which the editor's save writes back whole from the form (docs/decisions/098).
 */
export const blazePlacements = sqliteTable('blaze_placements', {
  campaignId: integer('campaign_id').primaryKey(),
  placement: text('placement').notNull(),
  updatedAt: updatedAt(),
});
