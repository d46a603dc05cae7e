import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import {
  adCounters,
  campaignDay,
  counters,
  createdAt,
  eventCounters,
  placementIds,
  serialId,
  target,
  updatedAt,
} from './columns';
import { PLATFORMS } from './integrations';

// Statistics: costs, the coarse daily rollups the report tables read, and the stored results
// of statistics jobs (docs/statistics.md). Money is integer micro-units (schema/money.ts).
// costs and the four rollup tables are WITHOUT ROWID tables (migration 0005, written by hand:
// drizzle cannot declare it), so their rows are stored in primary-key order.

/**
 * Where a cost row came from. When several exist for one (campaign, day, target), the highest
 * priority wins: a platform sync (what the ad platform billed) over a hand entry or CSV upload;
 * with none, spend is derived as the campaign's CPC times the target's visits that day.
 */
export const COST_SOURCES = ['manual', 'csv', 'sync', ...PLATFORMS] as const;
export type CostSource = (typeof COST_SOURCES)[number];
/** Rows imported from a platform are named after it (worker/services/integrations/cost-sync.ts). */
export const COST_PRIORITY: Record<CostSource, number> = {
  manual: 1,
  csv: 1,
  sync: 2,
  facebook: 2,
  tiktok: 2,
  taboola: 2,
  mediago: 2,
  liveintent: 2,
};

export const costs = sqliteTable(
  'costs',
  {
    ...campaignDay(),
    target: target(),
    source: text('source', { enum: COST_SOURCES }).notNull(),
    priority: integer('priority').notNull(),
    ...adCounters(),
    /** The currency the platform billed in (migration 0025); spend_micros is always US dollars. */
    currency: text('currency').notNull().default('USD'),
    /** The platform's amount in `currency`; null for hand and CSV rows. */
    platformSpendMicros: integer('platform_spend_micros'),
    updatedBy: integer('updated_by'),
    updatedAt: updatedAt(),
  },
  // Migration 0005 rebuilt the table WITHOUT ROWID; its primary key, which starts with
  // (campaign_id, day), took the place of the old costs_campaign_day_idx.
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.target, t.source] })],
);

/**
 * Per (campaign, day, target): the target table, costs allocation and the activity chart. The
 * effective cost of the key (the winning `costs` row, see worker/services/statistics/costs.ts) is copied
 * here whenever costs change, so a report is one grouped scan of one table.
 */
export const targetDaily = sqliteTable(
  'target_daily',
  {
    ...campaignDay(),
    target: target(),
    ...counters(),
    /** 1 when a cost row exists for the key; 0 means spend is derived as CPC x visits. */
    hasCost: integer('has_cost').notNull().default(0),
    ...adCounters(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.target] })],
);

/**
 * target_daily summed per week (a week is its Monday; a day that is not a date is its own week),
 * kept by triggers on target_daily (migration 0006, written by hand: drizzle cannot declare
 * triggers), so a month-long target report reads about a fifth of the rows. Spend is split into
 * what cost rows say and the visits of days without one, priced at the campaign's CPC when read.
 */
export const targetWeekly = sqliteTable(
  'target_weekly',
  {
    campaignId: integer('campaign_id').notNull(),
    week: text('week').notNull(),
    target: target(),
    ...counters(),
    impressions: integer('impressions').notNull().default(0),
    adClicks: integer('ad_clicks').notNull().default(0),
    costSpendMicros: integer('cost_spend_micros').notNull().default(0),
    uncostedVisits: integer('uncosted_visits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.week, t.target] })],
);

/** Per (campaign, day, path, landing, offer): the landing, offer and path tables. */
export const placementDaily = sqliteTable(
  'placement_daily',
  {
    ...campaignDay(),
    ...placementIds(),
    ...counters(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.pathId, t.landingId, t.offerId] })],
);

/** Event counts per (campaign, day, target, event). */
export const targetEventDaily = sqliteTable(
  'target_event_daily',
  {
    ...campaignDay(),
    target: target(),
    ...eventCounters(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.target, t.event] })],
);

/** Event counts per (campaign, day, path, landing, offer, event). */
export const placementEventDaily = sqliteTable(
  'placement_event_daily',
  {
    ...campaignDay(),
    ...placementIds(),
    ...eventCounters(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.pathId, t.landingId, t.offerId, t.event] })],
);

export const STATS_JOB_KINDS = ['target', 'target_total', 'landing', 'export', 'aggregate'] as const;
export type StatsJobKind = (typeof STATS_JOB_KINDS)[number];
export const STATS_JOB_STATUSES = ['queued', 'running', 'done', 'error'] as const;

/** A statistics job: queued by POST statistics, run by the statistics queue, polled by the SPA. */
export const statsJobs = sqliteTable(
  'stats_jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: STATS_JOB_KINDS }).notNull(),
    campaignId: integer('campaign_id').notNull(),
    userId: integer('user_id').notNull(),
    /** SHA-256 of the normalised request: a repeat is answered from the stored result. */
    requestHash: text('request_hash').notNull(),
    request: text('request').notNull(),
    status: text('status', { enum: STATS_JOB_STATUSES }).notNull().default('queued'),
    result: text('result'),
    error: text('error'),
    createdAt: createdAt(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    index('stats_jobs_hash_idx').on(t.requestHash, t.createdAt),
    index('stats_jobs_created_idx').on(t.createdAt),
  ],
);

/** What the landing-page auto-optimiser did, and why. */
export const optimizerLog = sqliteTable(
  'optimizer_log',
  {
    id: serialId(),
    campaignId: integer('campaign_id').notNull(),
    landingId: integer('landing_id').notNull(),
    action: text('action').notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('optimizer_log_campaign_idx').on(t.campaignId, t.createdAt)],
);
