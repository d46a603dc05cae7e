import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { loginTokens, passwordResets, type Role, users } from '../../../schema/auth';
import { MESSAGES } from '../../../schema/auth-api';
import type { Env } from '../../env';
import { roleString, signToken } from '../../lib/auth';
import { randomToken, sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { getDb } from '../../lib/db';
import { ApiError, fieldError } from '../../lib/errors';
import { verifyLicense } from '../../lib/license';
import { hashPassword, verifyPassword } from '../../lib/password';
import { assertMayAttempt, clearPair, recordFailure } from '../auth/login-throttle';
import { spendResetLinks } from '../auth/password-resets';
import { sendMail } from '../mail/mailer';
import { getSettings } from '../settings/settings';

const LOGIN_TOKEN_TTL_MS = 5 * 60 * 1000;
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

type UserRow = typeof users.$inferSelect;

export function publicUser(user: UserRow) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    role: roleString(user.role),
    rotator_is_enabled: user.rotatorIsEnabled === 1,
    disabled: user.disabledAt !== null,
    // Only a student has a coach (docs/decisions/124): a user whose role changed keeps the column
    // but answers none, as the relation then gives nobody anything.
    coach_id: user.role === 'student' ? (user.coachId ?? null) : null,
    created_at: user.createdAt,
  };
}

async function findUserByUsername(env: Env, username: string) {
  return getDb(env)
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .get();
}

export async function createUser(
  env: Env,
  input: { username: string; email: string; password: string; role: Role; name?: string },
): Promise<UserRow> {
  if (await findUserByUsername(env, input.username)) throw fieldError('username', MESSAGES.usernameTaken);
  const passwordHash = await hashPassword(input.password, env.PASSWORD_PEPPER);
  try {
    return await getDb(env)
      .insert(users)
      .values({
        username: input.username,
        name: input.name ?? input.username,
        email: input.email.toLowerCase(),
        passwordHash,
        role: input.role,
      })
      .returning()
      .get();
  } catch (err) {
    // Two creations racing for one name: the unique index decides.
    if (String(err).includes('UNIQUE')) throw fieldError('username', MESSAGES.usernameTaken);
    throw err;
  }
}

/** 'active' when the stored license verifies and has not expired, else 'inactive'. */
async function licenseStatus(env: Env): Promise<'active' | 'inactive'> {
  const s = await getSettings(env);
  const claims = await verifyLicense(env.LICENSE_PUBLIC_KEY, s.license_key, s.license_email || undefined);
  return claims ? 'active' : 'inactive';
}

/** The login answer of spec 1 §3; no token is issued while the license is inactive. */
export async function loginAnswer(env: Env, user: UserRow) {
  const license = await licenseStatus(env);
  const base = { user: { username: user.username, id: user.id }, role: roleString(user.role), license };
  if (license === 'inactive') return { ...base, token: null };
  return { ...base, token: await signToken(env, user) };
}

/**
 * Password login, throttled per (username, address) and per username without a lockout that
 * strangers could cause (services/auth/login-throttle.ts, docs/decisions/041).
 */
export async function loginWithPassword(env: Env, username: string, password: string, ip: string) {
  const key = username.toLowerCase();
  await assertMayAttempt(env, key, ip);
  const user = username ? await findUserByUsername(env, username) : undefined;
  const ok =
    user && password ? await verifyPassword(password, user.passwordHash, env.PASSWORD_PEPPER) : false;
  if (!user || !ok) {
    await recordFailure(env, key, ip);
    throw new ApiError(401, MESSAGES.loginFailed);
  }
  await clearPair(env, key, ip);
  return user;
}

/** A one-time login link for `userId`: single use, valid for 5 minutes. */
export async function issueLoginToken(env: Env, userId: number, createdBy: number) {
  const user = await getDb(env).select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw fieldError('userId', 'User not found.');
  const id = randomToken(16);
  const secret = randomToken(32);
  const expiresAt = Date.now() + LOGIN_TOKEN_TTL_MS;
  await getDb(env)
    .insert(loginTokens)
    .values({ id, userId, secretHash: await sha256Hex(secret), expiresAt, createdBy });
  const base = (await getSettings(env)).base_url.replace(/\/+$/, '');
  const query = new URLSearchParams({ loginToken: id, hash: secret });
  return { loginToken: id, hash: secret, expiresAt, url: `${base}/login#${query}` };
}

export async function loginWithToken(env: Env, loginToken: string, hash: string, ip: string) {
  await assertMayAttempt(env, `token:${loginToken}`, ip);
  const db = getDb(env);
  const row = await db.select().from(loginTokens).where(eq(loginTokens.id, loginToken)).get();
  const valid =
    row &&
    row.usedAt === null &&
    row.expiresAt > Date.now() &&
    timingSafeEqual(await sha256Hex(hash), row.secretHash);
  if (!row || !valid) {
    await recordFailure(env, `token:${loginToken}`, ip);
    throw new ApiError(401, 'This login link is invalid or has expired.');
  }
  // Single use even when two requests race: only the update that flips used_at wins.
  const claimed = await db
    .update(loginTokens)
    .set({ usedAt: Date.now() })
    .where(and(eq(loginTokens.id, loginToken), isNull(loginTokens.usedAt)))
    .returning({ id: loginTokens.id })
    .all();
  if (claimed.length !== 1) throw new ApiError(401, 'This login link is invalid or has expired.');
  const user = await db.select().from(users).where(eq(users.id, row.userId)).get();
  if (!user) throw new ApiError(401, 'This login link is invalid or has expired.');
  return user;
}

export async function revokeTokens(env: Env, userId: number): Promise<void> {
  await getDb(env)
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: Date.now() })
    .where(eq(users.id, userId));
}

/**
 * Mails a reset link when the address belongs to a user and the request is within its limits;
 * silent otherwise. Called after the answer was sent (services/auth/password-resets.ts).
 */
export async function requestPasswordReset(env: Env, email: string, withinLimits = true): Promise<void> {
  if (!withinLimits) return;
  const db = getDb(env);
  const user = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .orderBy(desc(users.id))
    .get();
  if (!user) return;
  const token = randomToken(32);
  await db.insert(passwordResets).values({
    userId: user.id,
    tokenHash: await sha256Hex(token),
    expiresAt: Date.now() + RESET_TOKEN_TTL_MS,
  });
  const s = await getSettings(env);
  const base = s.base_url.replace(/\/+$/, '');
  const link = `${base}/reset-password/${encodeURIComponent(user.email)}/${token}`;
  await sendMail(env, {
    to: user.email,
    subject: `Reset your ${s.title} password`,
    text: `Hello ${user.username},\n\nSomeone asked to reset the password of your account. To choose a new password, open this link within 60 minutes:\n\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
  });
}

async function findReset(env: Env, email: string, token: string) {
  const row = await getDb(env)
    .select({ reset: passwordResets, user: users })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.tokenHash, await sha256Hex(token)))
    .get();
  if (!row || row.reset.usedAt !== null || row.reset.expiresAt <= Date.now()) return null;
  if (row.user.email.toLowerCase() !== email.toLowerCase()) return null;
  return row;
}

export async function verifyPasswordReset(env: Env, email: string, token: string): Promise<boolean> {
  return (await findReset(env, email, token)) !== null;
}

/** Sets the new password, spends the token and revokes every session of the user. */
export async function resetPassword(env: Env, email: string, token: string, password: string): Promise<void> {
  const found = await findReset(env, email, token);
  if (!found) throw new ApiError(400, MESSAGES.resetLinkInvalid);
  const db = getDb(env);
  const passwordHash = await hashPassword(password, env.PASSWORD_PEPPER);
  // One transaction: the token is spent only if still unspent, and the password changes only
  // with the spending that this call made (its own stamp), so a replayed link changes nothing.
  const stamp = Date.now() * 1000 + Math.floor(Math.random() * 1000);
  const [spent] = await db.batch([
    db
      .update(passwordResets)
      .set({ usedAt: stamp })
      .where(and(eq(passwordResets.id, found.reset.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id }),
    db
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: Date.now() })
      .where(
        and(
          eq(users.id, found.user.id),
          sql`exists (select 1 from password_resets where id = ${found.reset.id} and used_at = ${stamp})`,
        ),
      ),
    // Every other link of the user is spent with it: an older mail cannot set the password again.
    spendResetLinks(db, found.user.id, stamp),
  ]);
  if (spent.length !== 1) throw new ApiError(400, MESSAGES.resetLinkInvalid);
}
