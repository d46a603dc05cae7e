import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { campaignDay, counters, eventCounters, now, target } from './columns';

// Issue 16 (migration 0017, WITHOUT ROWID written by hand): the extra-token rollups the grouped
// target table reads (decision 105) and the record of raw days moved to R2 (decision 107).

/** The key both token rollups share before their own columns: campaign, day, target, tokens. */
const tokenKey = () => ({
  ...campaignDay(),
  target: target(),
  tokens: text('tokens').notNull(),
});

/**
 * Per (campaign, day, target, tokens): `tokens` is the JSON array of the 20 slots' values ('' for
 * none). Past TOKEN_ROLLUP_LIMIT keys a campaign-day counts into target '' / tokens '*' ("other").
 */
export const tokenDaily = sqliteTable(
  'token_daily',
  {
    ...tokenKey(),
    ...counters(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.target, t.tokens] })],
);

/** Conversions per event name under the same keys, for the event metric columns. */
export const tokenEventDaily = sqliteTable(
  'token_event_daily',
  {
    ...tokenKey(),
    ...eventCounters(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.target, t.tokens, t.event] })],
);

/** One campaign-day whose raw events were written to R2 and removed from D1. */
export const rawArchives = sqliteTable(
  'raw_archives',
  {
    ...campaignDay(),
    objectKey: text('object_key').notNull(),
    visits: integer('visits').notNull().default(0),
    lpClicks: integer('lp_clicks').notNull().default(0),
    conversions: integer('conversions').notNull().default(0),
    archivedAt: integer('archived_at').notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day] })],
);
