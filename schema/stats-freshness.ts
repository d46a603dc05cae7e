import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { campaignDay, counters } from './columns';

// Written by the ingest transaction (worker/services/statistics/ingest-extras.ts), migration 0018.

/**
 * Per campaign: the newest event time ingested and a version bumped by every ingest transaction
 * that wrote one of its events, so a stored statistics job is reused only while no newer data
 * arrived (docs/decisions/110-fresh-statistics.md).
 */
export const statsFreshness = sqliteTable('stats_freshness', {
  campaignId: integer('campaign_id').primaryKey(),
  newestEventAt: integer('newest_event_at').notNull().default(0),
  version: integer('version').notNull().default(0),
  changedAt: integer('changed_at').notNull().default(0),
});

/**
 * Per (campaign, day, reason): visits stored but not counted (bot, head, prefetch, inactive,
 * unrouted, lp_direct, and 'duplicate' for a visit event whose click id was already stored),
 * and the conversions and payouts that arrived on those filtered visits
 * (docs/decisions/111-filtered-traffic.md).
 */
export const filteredDaily = sqliteTable(
  'filtered_daily',
  {
    ...campaignDay(),
    reason: text('reason').notNull(),
    clicks: integer('clicks').notNull().default(0),
    conversions: integer('conversions').notNull().default(0),
    revenueMicros: integer('revenue_micros').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.reason] })],
);

/**
 * Breakdowns (docs/decisions/112-breakdowns.md): per (campaign, day, dimension, value) with
 * dim2 = '' and per pair of dimensions (dim < dim2 by name), the counted visits, LP clicks, goal
 * conversions and revenue, from the visit's country, device, OS, browser, referrer domain and hour.
 */
export const breakdownDaily = sqliteTable(
  'breakdown_daily',
  {
    ...campaignDay(),
    dim: text('dim').notNull(),
    value: text('value').notNull(),
    dim2: text('dim2').notNull().default(''),
    value2: text('value2').notNull().default(''),
    ...counters(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.dim, t.dim2, t.value, t.value2] })],
);
