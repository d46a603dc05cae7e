import { integer, sqliteTable } from 'drizzle-orm/sqlite-core';

/**
 * A version per campaign, bumped by triggers on every change of its routing (migration 0016,
 * docs/decisions/100): the click's caches compare it to decide whether their copy is current.
 */
export const campaignVersions = sqliteTable('campaign_versions', {
  /** The campaign's id; not named campaign_id on purpose: the row outlives the campaign. */
  campaign: integer('campaign').primaryKey(),
  version: integer('version').notNull().default(0),
});
