import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { passwordResets } from '../../../schema/auth';
import { passwordResetRequests } from '../../../schema/hardening';
import type { Env } from '../../env';
import { sha256Hex } from '../../lib/crypto';
import type { Db } from '../../lib/db';
import { getDb } from '../../lib/db';

// Password-reset requests (docs/decisions/041): the answer is the same whether the address is
// known, unknown or over a limit, and it is given before any of that is looked at: the request
// is recorded (the same write for every address), and the lookup, the limits and the mail run
// after the answer in waitUntil, so a known address takes as long to answer as an unknown one.

const RESET_WINDOW_MS = 60 * 60 * 1000;
/** Mails per hour that one client address can cause, whatever addresses it names. */
export const RESET_LIMIT_PER_ADDRESS = 10;
/** Mails per hour to one account, whoever asks. */
export const RESET_LIMIT_PER_ACCOUNT = 3;

const emailHash = (email: string) => sha256Hex(email.trim().toLowerCase());

/** Records the request and answers whether it is within both limits (this request included). */
export async function recordResetRequest(env: Env, email: string, ip: string, now = Date.now()) {
  const db = getDb(env);
  const hash = await emailHash(email);
  const since = now - RESET_WINDOW_MS;
  const [, counts] = await db.batch([
    db.insert(passwordResetRequests).values({ ip, emailHash: hash, createdAt: now }),
    db
      .select({
        byAddress: sql<number>`coalesce(sum(${passwordResetRequests.ip} = ${ip}), 0)`,
        byAccount: sql<number>`coalesce(sum(${passwordResetRequests.emailHash} = ${hash}), 0)`,
      })
      .from(passwordResetRequests)
      .where(sql`${passwordResetRequests.createdAt} > ${since}`),
    db.delete(passwordResetRequests).where(lt(passwordResetRequests.createdAt, since)),
  ]);
  const c = counts[0] ?? { byAddress: 0, byAccount: 0 };
  return c.byAddress <= RESET_LIMIT_PER_ADDRESS && c.byAccount <= RESET_LIMIT_PER_ACCOUNT;
}

/**
 * The statement that spends every outstanding reset link of a user; part of the same batch as
 * the password change, so a link mailed before the change can never undo it.
 */
export function spendResetLinks(db: Db, userId: number, stamp = Date.now()) {
  return db
    .update(passwordResets)
    .set({ usedAt: stamp })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
