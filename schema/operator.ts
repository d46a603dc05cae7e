import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { adCounters, campaignDay, counters, createdAt, serialId, timestamps } from './columns';

// The master dashboard (migration 0013, docs/decisions/080-083). On every installation: the
// credentials that open /api/masterdashboard/ and the operator's corrections. On the operator's
// installation: the registry of student installations and their cached per-day totals.

/** A credential of /api/masterdashboard/: only its SHA-256 is kept; several may be live while rotating. */
export const operatorCredentials = sqliteTable(
  'operator_credentials',
  {
    id: serialId(),
    label: text('label').notNull().default(''),
    secretHash: text('secret_hash').notNull(),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('operator_credentials_hash_idx').on(t.secretHash)],
);

/** The base numbers a correction can set for one campaign day. */
export const CORRECTION_FIELDS = ['spend', 'ad_clicks', 'impressions', 'conversions', 'revenue'] as const;
export type CorrectionField = (typeof CORRECTION_FIELDS)[number];

/**
 * One operator correction: the value of one base number of a campaign day, set by a modify call.
 * The newest live row of a (campaign, day, field) replaces the tracked number in the master
 * dashboard's reports; reverting it (reverted_at) brings the tracked number back.
 */
export const operatorCorrections = sqliteTable(
  'operator_corrections',
  {
    id: serialId(),
    ...campaignDay(),
    field: text('field', { enum: CORRECTION_FIELDS }).notNull(),
    /** Micro-units for spend and revenue, a count otherwise. */
    value: integer('value').notNull(),
    /** The modify call that wrote it (modify-adspend, modify-row...). */
    verb: text('verb').notNull(),
    /** modify-row's sid_token, kept for the record. */
    target: text('target').notNull().default(''),
    source: text('source').notNull().default('operator'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    revertedAt: integer('reverted_at'),
    revertedBy: text('reverted_by'),
  },
  (t) => [index('operator_corrections_campaign_day_idx').on(t.campaignId, t.day)],
);

/** A student installation the operator reads (operator installation only). */
export const studentInstallations = sqliteTable(
  'student_installations',
  {
    id: serialId(),
    name: text('name').notNull(),
    /** Base URL of the installation, e.g. https://student.example.com. */
    domain: text('domain').notNull(),
    server: text('server').notNull().default(''),
    studentIdHash: text('student_id_hash').notNull(),
    /** The installation's /api/masterdashboard/ credential, AES-GCM encrypted (worker/lib/secrets.ts). */
    credential: text('credential').notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('student_installations_domain_idx').on(t.domain),
    uniqueIndex('student_installations_hash_idx').on(t.studentIdHash),
  ],
);

/** Per installation and day: the totals the cron refresh copied (the general mode reads these). */
export const studentDaily = sqliteTable(
  'student_daily',
  {
    installationId: integer('installation_id').notNull(),
    day: text('day').notNull(),
    ...counters(),
    ...adCounters(),
  },
  (t) => [primaryKey({ columns: [t.installationId, t.day] })],
);

/** When each installation's cache was last refreshed, and the last error. */
export const studentRefresh = sqliteTable('student_refresh', {
  installationId: integer('installation_id').primaryKey(),
  refreshedAt: integer('refreshed_at'),
  fromDay: text('from_day'),
  toDay: text('to_day'),
  error: text('error'),
});
