import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, serialId, timestamps, updatedAt } from './columns';

import { ROLES } from './roles';

export { ROLES, type Role } from './roles';

export const users = sqliteTable(
  'users',
  {
    id: serialId(),
    username: text('username').notNull(),
    name: text('name').notNull().default(''),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ROLES }).notNull().default('student'),
    /** Bumped on logout and password change: every token minted before is refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    rotatorIsEnabled: integer('rotator_is_enabled').notNull().default(0),
    /** When an admin disabled the account (migration 0019); null while it may sign in. */
    disabledAt: integer('disabled_at'),
    /** A student's coach (migration 0021, docs/decisions/124): the one coach who may adjust their wallets. */
    coachId: integer('coach_id'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    index('users_email_idx').on(sql`lower(${t.email})`),
    index('users_coach_idx').on(t.coachId),
  ],
);

/** Installation settings as key/value rows; typed access lives in worker/services/settings/settings.ts. */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

/** One-time login links issued by an admin: the secret half is stored hashed. */
export const loginTokens = sqliteTable('login_tokens', {
  id: text('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretHash: text('secret_hash').notNull(),
  expiresAt: integer('expires_at').notNull(),
  usedAt: integer('used_at'),
  createdBy: integer('created_by'),
  createdAt: createdAt(),
});

export const passwordResets = sqliteTable(
  'password_resets',
  {
    id: serialId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_resets_token_unique').on(t.tokenHash)],
);

export const loginFailures = sqliteTable(
  'login_failures',
  {
    id: serialId(),
    username: text('username').notNull(),
    ip: text('ip').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_failures_username_idx').on(t.username, t.createdAt),
    index('login_failures_ip_idx').on(t.ip, t.createdAt),
  ],
);

/** Every mail the product sends is kept here; the HTTP adapter, when configured, also delivers it. */
export const mailOutbox = sqliteTable('mail_outbox', {
  id: serialId(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  status: text('status', { enum: ['stored', 'sent', 'failed'] })
    .notNull()
    .default('stored'),
  error: text('error'),
  createdAt: createdAt(),
});

/** OAuth states of a platform login (migration 0021, docs/decisions/123): one user, used once, expiring. */
export const oauthStates = sqliteTable(
  'oauth_states',
  {
    /** SHA-256 (hex) of the state: the state itself is never stored. */
    stateHash: text('state_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('oauth_states_user_idx').on(t.userId)],
);
