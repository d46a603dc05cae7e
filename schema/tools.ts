import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './auth';
import { campaignRef } from './campaigns';
import { serialId } from './columns';

// Test clicks and test conversions of the Tools screen (docs/decisions/061-test-clicks.md):
// tables of their own, so that no statistic, rollup or export reads them.

export const testClicks = sqliteTable(
  'test_clicks',
  {
    id: serialId(),
    /** A test click id: signed like a real one but of another version, refused by every real route. */
    clickId: text('click_id').notNull(),
    campaignId: campaignRef(),
    pathId: integer('path_id').notNull().default(0),
    landingId: integer('landing_id').notNull().default(0),
    offerId: integer('offer_id').notNull().default(0),
    target: text('target').notNull().default(''),
    keyword: text('keyword').notNull().default(''),
    device: text('device').notNull().default(''),
    country: text('country').notNull().default(''),
    /** Extra-token values by parameter name, JSON. */
    tokens: text('tokens').notNull().default('{}'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('test_clicks_click_id_unique').on(t.clickId),
    index('test_clicks_campaign_idx').on(t.campaignId),
  ],
);

/** What the traffic-source postback of a test conversion did: not sent unless asked. */
export const TEST_POSTBACK_STATUSES = ['off', 'not_goal', 'blocked', 'ready', 'sent', 'failed'] as const;
export type TestPostbackStatus = (typeof TEST_POSTBACK_STATUSES)[number];

export const testConversions = sqliteTable(
  'test_conversions',
  {
    id: serialId(),
    /** The real conversions' rule: click id + transaction id, else click id + event. */
    dedupeKey: text('dedupe_key').notNull(),
    clickId: text('click_id').notNull(),
    campaignId: campaignRef(),
    offerId: integer('offer_id').notNull().default(0),
    event: text('event').notNull(),
    isGoal: integer('is_goal').notNull().default(1),
    transactionId: text('transaction_id').notNull().default(''),
    payoutMicros: integer('payout_micros').notNull().default(0),
    source: text('source').notNull(),
    /** Later arrivals with the same dedupe key, counted here and otherwise ignored. */
    duplicates: integer('duplicates').notNull().default(0),
    postbackStatus: text('postback_status').notNull().default(''),
    postbackUrl: text('postback_url').notNull().default(''),
    postbackResponse: integer('postback_response'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('test_conversions_dedupe_unique').on(t.dedupeKey),
    index('test_conversions_campaign_idx').on(t.campaignId),
  ],
);
