import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { campaignDay, createdAt, serialId } from './columns';

// Tables of the hardening work (migrations/0008_hardening.sql, docs/decisions/041-044).

/**
 * Every password-reset request, known address or not, so both are limited alike: the address
 * is kept only as a SHA-256 of its lower-cased form.
 */
export const passwordResetRequests = sqliteTable(
  'password_reset_requests',
  {
    id: serialId(),
    ip: text('ip').notNull(),
    emailHash: text('email_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('password_reset_requests_ip_idx').on(t.ip, t.createdAt),
    index('password_reset_requests_email_idx').on(t.emailHash, t.createdAt),
  ],
);

/** A campaign's own postback secret; campaigns without a row use the installation's (settings). */
export const campaignPostbackSecrets = sqliteTable('campaign_postback_secrets', {
  campaignId: integer('campaign_id').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});

/** Conversions refused at the door, counted per campaign, day (UTC) and reason. */
export const conversionRejections = sqliteTable(
  'conversion_rejections',
  {
    ...campaignDay(),
    reason: text('reason').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day, t.reason] })],
);

/**
 * Conversions accepted with the installation's own secret during the grace period (migration
 * 0020, docs/decisions/120), per campaign and UTC day, so the admin sees when it is unused.
 */
export const postbackLegacyUses = sqliteTable(
  'postback_legacy_uses',
  {
    ...campaignDay(),
    count: integer('count').notNull().default(0),
    lastAt: integer('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day] })],
);

/**
 * Conversions the ingest refused past the per-click cap (docs/decisions/121), by dedupe key, so
 * a redelivery neither stores nor counts them twice.
 */
export const refusedConversions = sqliteTable(
  'refused_conversions',
  {
    dedupeKey: text('dedupe_key').primaryKey(),
    clickId: text('click_id').notNull(),
    campaignId: integer('campaign_id').notNull(),
    reason: text('reason').notNull(),
    payoutMicros: integer('payout_micros'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('refused_conversions_campaign_idx').on(t.campaignId)],
);
