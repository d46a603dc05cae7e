import { lt, sql } from 'drizzle-orm';
import { loginFailures } from '../../../schema/auth';
import { MESSAGES, tooManyAttemptsWait } from '../../../schema/auth-api';
import type { Env } from '../../env';
import { getDb } from '../../lib/db';
import { ApiError } from '../../lib/errors';

// Login throttling that nobody else can turn into a lockout (docs/decisions/041). Failures
// are counted per (username, address) pair and per username, over the last 15 minutes:
// - the pair gets a growing delay after PAIR_DELAY_FROM failures, then a short lock at
//   PAIR_LOCK_AT: the address that keeps guessing is the one that waits;
// - the username gets a growing, capped delay once USER_DELAY_FROM failures came from any
//   addresses, never a lock, and it applies only to addresses that have themselves failed for
//   that username: an address without recent failures is always heard, so the owner's right
//   password signs in however many strangers failed; a distributed guesser gets one guess per
//   address, then waits like everyone else;
// - nothing is counted per address alone, so one office address with many users behind it
//   never locks its colleagues out.

const FAILURE_WINDOW_MS = 15 * 60 * 1000;
const PAIR_DELAY_FROM = 3;
export const PAIR_LOCK_AT = 10;
const PAIR_LOCK_MS = 15 * 60 * 1000;
const USER_DELAY_FROM = 10;
const USER_DELAY_CAP_MS = 60 * 1000;

/** 1 s at the first failure past the threshold, doubling each further failure, up to the cap. */
export function growingDelayMs(failures: number, from: number, capMs: number): number {
  if (failures < from) return 0;
  return Math.min(1000 * 2 ** Math.min(failures - from, 30), capMs);
}

type Counts = { pair: number; pairLast: number; user: number; userLast: number };

async function counts(env: Env, key: string, ip: string, now: number): Promise<Counts> {
  const row = await getDb(env)
    .select({
      pair: sql<number>`coalesce(sum(${loginFailures.ip} = ${ip}), 0)`,
      pairLast: sql<number>`coalesce(max(case when ${loginFailures.ip} = ${ip} then ${loginFailures.createdAt} end), 0)`,
      user: sql<number>`count(*)`,
      userLast: sql<number>`coalesce(max(${loginFailures.createdAt}), 0)`,
    })
    .from(loginFailures)
    .where(
      sql`${loginFailures.username} = ${key} and ${loginFailures.createdAt} > ${now - FAILURE_WINDOW_MS}`,
    )
    .get();
  return row ?? { pair: 0, pairLast: 0, user: 0, userLast: 0 };
}

/** The thresholds of a throttle keyed by (key, address) and by key (login's are the constants above). */
export type ThrottleRules = {
  pairDelayFrom: number;
  pairLockAt: number;
  pairLockMs: number;
  userDelayFrom: number;
  userDelayCapMs: number;
};

const LOGIN_RULES: ThrottleRules = {
  pairDelayFrom: PAIR_DELAY_FROM,
  pairLockAt: PAIR_LOCK_AT,
  pairLockMs: PAIR_LOCK_MS,
  userDelayFrom: USER_DELAY_FROM,
  userDelayCapMs: USER_DELAY_CAP_MS,
};

/**
 * How long this (key, address) must still wait (0: it may try now), and whether that is the
 * pair's lock. The login and the public rotator report (docs/decisions/125) share it.
 */
export async function throttleWait(
  env: Env,
  key: string,
  ip: string,
  rules: ThrottleRules = LOGIN_RULES,
  now = Date.now(),
): Promise<{ ms: number; locked: boolean }> {
  const c = await counts(env, key, ip, now);
  if (c.pair >= rules.pairLockAt)
    return { ms: Math.max(0, c.pairLast + rules.pairLockMs - now), locked: true };
  let until = c.pairLast + growingDelayMs(c.pair, rules.pairDelayFrom, rules.pairLockMs);
  // The key's delay never stops an address that has not failed for it.
  if (c.pair > 0)
    until = Math.max(until, c.userLast + growingDelayMs(c.user, rules.userDelayFrom, rules.userDelayCapMs));
  return { ms: Math.max(0, until - now), locked: false };
}

/**
 * Throws 429 when this (username, address) must wait; otherwise the attempt may be checked.
 * `key` is the lower-cased username (or `token:<id>` for one-time login links).
 */
export async function assertMayAttempt(env: Env, key: string, ip: string, now = Date.now()): Promise<void> {
  const wait = await throttleWait(env, key, ip, LOGIN_RULES, now);
  if (wait.ms <= 0) return;
  if (wait.locked) throw new ApiError(429, MESSAGES.tooManyAttempts);
  throw new ApiError(429, tooManyAttemptsWait(Math.ceil(wait.ms / 1000)));
}

export async function recordFailure(env: Env, key: string, ip: string, now = Date.now()): Promise<void> {
  const db = getDb(env);
  await db.batch([
    db.insert(loginFailures).values({ username: key, ip, createdAt: now }),
    db.delete(loginFailures).where(lt(loginFailures.createdAt, now - FAILURE_WINDOW_MS)),
  ]);
}

/**
 * A success clears only this pair's failures: a stranger's failures keep slowing the stranger
 * even after the owner signed in.
 */
export async function clearPair(env: Env, key: string, ip: string): Promise<void> {
  await getDb(env)
    .delete(loginFailures)
    .where(sql`${loginFailures.username} = ${key} and ${loginFailures.ip} = ${ip}`);
}
