import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// Tables of the hardening work (migrations/0008_hardening.sql, docs/decisions/041-044).

const now = sql`(unixepoch() * 1000)`;

/**
 * Every password-reset request, known address or not, so both are limited alike: the address
 * is kept only as a SHA-256 of its lower-cased form.
 */
export const passwordResetRequests = sqliteTable(
  'password_reset_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ip: text('ip').notNull(),
    emailHash: text('email_hash').notNull(),
    createdAt: integer('created_at').notNull().default(now),
  },
  (t) => [
    index('password_reset_requests_ip_idx').on(t.ip, t.createdAt),
    index('password_reset_requests_email_idx').on(t.emailHash, t.createdAt),
  ],
);
