import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { campaignRef } from './campaigns';
import { createdAt, timestamps } from './columns';

// Ad-platform integrations (migration 0010, docs/decisions/070-073).

/** Platforms the product has a client for (worker/integrations/<platform>/). */
export const PLATFORMS = ['facebook', 'tiktok', 'taboola', 'mediago', 'liveintent'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Platforms whose campaigns get ad performance records (spec 4 §9). */
export const AD_RECORD_PLATFORMS = ['facebook', 'tiktok', 'taboola'] as const;
export type AdRecordPlatform = (typeof AD_RECORD_PLATFORMS)[number];

export const CREDENTIAL_STATUSES = ['active', 'inactive'] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

/**
 * One stored credential per (platform, user). user_id 0 is the installation's own credential.
 * `token` and `client_id` are AES-GCM ciphertexts; only their last 4 characters are clear.
 */
export const platformCredentials = sqliteTable(
  'platform_credentials',
  {
    platform: text('platform', { enum: PLATFORMS }).notNull(),
    userId: integer('user_id').notNull().default(0),
    token: text('token').notNull().default(''),
    tokenLast4: text('token_last4').notNull().default(''),
    clientId: text('client_id').notNull().default(''),
    clientIdLast4: text('client_id_last4').notNull().default(''),
    status: text('status', { enum: CREDENTIAL_STATUSES }).notNull().default('active'),
    expiresAt: integer('expires_at'),
    meta: text('meta').notNull().default('{}'),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.platform, t.userId] })],
);

/** A campaign's link to its campaign on a platform, and the state of its scheduled cost sync. */
export const platformSync = sqliteTable(
  'platform_sync',
  {
    campaignId: campaignRef(),
    platform: text('platform', { enum: PLATFORMS }).notNull(),
    externalAccountId: text('external_account_id').notNull().default(''),
    externalCampaignId: text('external_campaign_id').notNull().default(''),
    enabled: integer('enabled').notNull().default(1),
    queuedAt: integer('queued_at'),
    lastSyncAt: integer('last_sync_at'),
    lastSuccessAt: integer('last_success_at'),
    lastError: text('last_error').notNull().default(''),
    lastErrorAt: integer('last_error_at'),
    syncedFrom: text('synced_from').notNull().default(''),
    syncedTo: text('synced_to').notNull().default(''),
    rowsImported: integer('rows_imported').notNull().default(0),
    /** The ad account's currency and time zone at the last sync (migration 0025). */
    accountCurrency: text('account_currency').notNull().default(''),
    accountTimeZone: text('account_time_zone').notNull().default(''),
    /** US-dollar micros for one unit of the account's currency, as the user entered it. */
    usdRateMicros: integer('usd_rate_micros'),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.platform] }),
    index('platform_sync_platform_idx').on(t.platform, t.enabled),
  ],
);

export const AD_RECORD_JOB_STATUSES = ['queued', 'running', 'done', 'error'] as const;

/** A queued build of a campaign's ad performance records (POST, then polled every 3 s). */
export const adRecordJobs = sqliteTable(
  'ad_record_jobs',
  {
    id: text('id').primaryKey(),
    campaignId: integer('campaign_id').notNull(),
    userId: integer('user_id').notNull(),
    platform: text('platform', { enum: PLATFORMS }).notNull(),
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    status: text('status', { enum: AD_RECORD_JOB_STATUSES }).notNull().default('queued'),
    result: text('result'),
    error: text('error'),
    createdAt: createdAt(),
    finishedAt: integer('finished_at'),
  },
  (t) => [index('ad_record_jobs_created_idx').on(t.createdAt)],
);
