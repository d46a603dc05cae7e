import { integer, sqliteTable } from 'drizzle-orm/sqlite-core';

/**
 * A version per campaign, bumped by triggers on every change of its routing (migration 0016,
 * docs/decisions/100): the click's caches compare it to decide whether their copy is current.
 */
export const campaignVersions = sqliteTable('campaign_versions', {
  campaignId: integer('campaign_id').primaryKey(),
  version: integer('version').notNull().default(0),
});
