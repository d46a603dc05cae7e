import { fromMicros, MAX_MONEY_MICROS } from '../../../schema/money';
import {
  type BalanceAnswer,
  type BalanceLog,
  type BalanceValues,
  CREDIT_LIMIT_MICROS,
  CREDIT_WINDOW_MS,
  MONEY_MESSAGES as M,
  type UpdateBalanceInput,
  WALLETS,
  type Wallet,
} from '../../../schema/money-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { ApiError, fieldError, validationError } from '../../lib/errors';
import { disabledWallets, walletConfig } from './wallet-settings';

// The wallet ledger (docs/decisions/050): every change is an inserted row, a balance is a SUM.
// Nothing reads a balance to write a new one, so concurrent adjustments cannot lose each other.

type LedgerRow = {
  id: number;
  user_id: number;
  wallet: string;
  offer_id: number | null;
  amount_micros: number;
  note: string;
  cause: BalanceLog['cause'];
  added_by_name: string;
  role: string;
  ref_campaign_id: number | null;
  day: string | null;
  idempotency_key: string;
  created_at: number;
};

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** '$1,234.50', '-$12.50': cents, half away from zero (only for display; sums stay in micros). */
export function formatUsd(micros: number): string {
  const cents = Math.sign(micros) * Math.round(Math.abs(micros) / 10_000);
  return usd.format(cents / 100);
}

function toLog(row: LedgerRow): BalanceLog {
  return {
    id: row.id,
    platform: row.wallet as BalanceLog['platform'],
    amount: fromMicros(row.amount_micros),
    amountFormatted: formatUsd(row.amount_micros),
    note: row.note,
    cause: row.cause,
    addedByName: row.added_by_name,
    role: row.role,
    campaignId: row.ref_campaign_id,
    offerId: row.offer_id,
    day: row.day,
    created_at: row.created_at,
  };
}

/** Every wallet's balance of `userId` in micros: one SUM per wallet over the ledger. */
export async function walletMicros(env: Pick<Env, 'DB'>, userId: number): Promise<Record<Wallet, number>> {
  const { results } = await env.DB.prepare(
    `SELECT wallet, SUM(amount_micros) AS micros FROM wallet_ledger
     WHERE user_id = ?1 AND offer_id IS NULL GROUP BY wallet`,
  )
    .bind(userId)
    .all<{ wallet: string; micros: number }>();
  const sums = Object.fromEntries(WALLETS.map((w) => [w, 0])) as Record<Wallet, number>;
  for (const row of results) if (row.wallet in sums) sums[row.wallet as Wallet] = row.micros;
  return sums;
}

export function balanceValues(micros: Record<Wallet, number>): BalanceValues {
  const out: Record<string, number | string> = {};
  for (const w of WALLETS) {
    out[w] = fromMicros(micros[w]);
    out[`${w}Formatted`] = formatUsd(micros[w]);
  }
  return out as BalanceValues;
}

export type WalletOwner = {
  id: number;
  username: string;
  name: string;
  role: string;
  coach_id: number | null;
};

/**
 * The user whose wallets `caller` asks for: its own, or the one named (docs/decisions/124): an
 * admin names anyone, a coach their own students, a student nobody else (403).
 */
export async function walletOwner(
  env: Pick<Env, 'DB'>,
  caller: AuthUser,
  userId: number | undefined,
): Promise<WalletOwner> {
  const id = userId ?? caller.id;
  if (id !== caller.id && caller.role === 'student') throw new ApiError(403, M.unauthorized);
  const row = await env.DB.prepare('SELECT id, username, name, role, coach_id FROM users WHERE id = ?1')
    .bind(id)
    .first<WalletOwner>();
  if (!row) throw fieldError('userId', M.userInvalid);
  if (caller.role === 'coach' && id !== caller.id && !coachesStudent(caller, row)) {
    throw new ApiError(403, M.notYourStudent);
  }
  return row;
}

const coachesStudent = (caller: AuthUser, owner: WalletOwner) =>
  caller.role === 'coach' && owner.role === 'student' && owner.coach_id === caller.id;

/**
 * Who may adjust whose wallets (docs/decisions/124): nobody their own; an admin anyone else; a
 * coach only their own students; a student nobody. Each refusal is a 403 before anything is read
 * from the ledger or written.
 */
function assertMayAdjust(caller: AuthUser, owner: WalletOwner) {
  if (caller.role !== 'admin' && caller.role !== 'coach') throw new ApiError(403, M.unauthorized);
  if (owner.id === caller.id) throw new ApiError(403, M.notOwnWallets);
  if (caller.role === 'coach' && !coachesStudent(caller, owner)) throw new ApiError(403, M.notYourStudent);
}

export async function balanceAnswer(
  env: Pick<Env, 'DB'>,
  owner: WalletOwner,
  page: number,
  perPage: number,
): Promise<BalanceAnswer> {
  const [micros, logs, count, disabled, config] = await Promise.all([
    walletMicros(env, owner.id),
    // The log of the six wallets: a rotator funding's credit belongs to the offer (its "funded so
    // far"), so the log shows the wallet it came from, typed "Rotator funding" (issue 27).
    env.DB.prepare(
      `SELECT * FROM wallet_ledger WHERE user_id = ?1 AND offer_id IS NULL ORDER BY id DESC LIMIT ?2 OFFSET ?3`,
    )
      .bind(owner.id, perPage, (page - 1) * perPage)
      .all<LedgerRow>(),
    env.DB.prepare('SELECT COUNT(*) AS n FROM wallet_ledger WHERE user_id = ?1 AND offer_id IS NULL')
      .bind(owner.id)
      .first<{ n: number }>(),
    disabledWallets(env, owner.id),
    walletConfig(env),
  ]);
  const total = count?.n ?? 0;
  return {
    user: { id: owner.id, username: owner.username, name: owner.name },
    balance: balanceValues(micros),
    balanceLogs: logs.results.map(toLog),
    pagination: { currentPage: page, perPage, total, lastPage: Math.max(1, Math.ceil(total / perPage)) },
    disabled,
    headerBalance: config.headerBalance,
    minimumBalance: fromMicros(config.minimumMicros),
  };
}

// An entry is inserted only while the credits booked to the owner by adjustments in the window
// (this request's own entries left out) plus this request's credits stay within the limit. Every
// entry of a request tests the same figure, so within the batch's transaction they are booked all
// or none, and two requests at once cannot pass the limit together (D1 runs batches one at a time).
const INSERT_ENTRY = `INSERT OR IGNORE INTO wallet_ledger
  (user_id, wallet, amount_micros, note, cause, added_by, added_by_name, role, idempotency_key, created_at)
  SELECT ?1, ?2, ?3, ?4, 'adjustment', ?5, ?6, ?7, ?8, ?9
  WHERE ?10 = 0 OR ?10 + (
    SELECT COALESCE(SUM(amount_micros), 0) FROM wallet_ledger
    WHERE user_id = ?1 AND cause = 'adjustment' AND amount_micros > 0 AND created_at > ?9 - ?11
      AND substr(idempotency_key, 1, length(?12)) <> ?12
  ) <= ?13`;

/**
 * Books an admin's or coach's adjustment: one entry per wallet with a non-zero amount, all in
 * one batch (one transaction). Each entry's key is the request's key plus the wallet, inserted
 * with OR IGNORE: a retried request books nothing new and answers the entries already booked.
 * Who may adjust whom and the credit limit: docs/decisions/124.
 */
export async function adjustBalances(
  env: Pick<Env, 'DB'>,
  caller: AuthUser & { name?: string },
  owner: WalletOwner,
  input: UpdateBalanceInput,
): Promise<{ applied: boolean; entries: BalanceLog[] }> {
  assertMayAdjust(caller, owner);
  const changes = WALLETS.filter((w) => input[w] !== 0);
  if (!changes.length) throw validationError({ message: [M.nothingToUpdate] });
  const disabled = await disabledWallets(env, owner.id);
  const refused = changes.filter((w) => disabled[w]);
  if (refused.length) throw validationError(Object.fromEntries(refused.map((w) => [w, [M.walletDisabled]])));
  const credits = changes.filter((w) => input[w] > 0);
  const creditMicros = credits.reduce((sum, w) => sum + input[w], 0);
  const overLimit = () => validationError(Object.fromEntries(credits.map((w) => [w, [M.creditLimit]])));
  if (creditMicros > CREDIT_LIMIT_MICROS) throw overLimit();

  const key = input.idempotencyKey ?? crypto.randomUUID();
  const prefix = `adjust:${key}:`;
  const keys = changes.map((w) => `${prefix}${w}`);
  const existing = await entriesByKeys(env, keys);
  if (existing.length) return { applied: false, entries: sameRequest(existing, owner.id, changes, input) };
  await assertWithinBounds(env, owner.id, changes, input);

  const now = Date.now();
  // The role is the caller's as the server knows it: whatever the client sends is ignored.
  const name = input.addedByName || caller.name || caller.username;
  const results = await env.DB.batch(
    changes.map((w, i) =>
      env.DB.prepare(INSERT_ENTRY).bind(
        owner.id,
        w,
        input[w],
        input[`${w}Note`],
        caller.id,
        name,
        caller.role,
        keys[i],
        now,
        creditMicros,
        CREDIT_WINDOW_MS,
        prefix,
        CREDIT_LIMIT_MICROS,
      ),
    ),
  );
  const entries = await entriesByKeys(env, keys);
  const applied = results.some((r) => (r.meta.changes ?? 0) > 0);
  // Nothing booked and nothing under this key: the window's earlier credits leave no room.
  if (!entries.length) throw overLimit();
  return { applied, entries: applied ? entries.map(toLog) : sameRequest(entries, owner.id, changes, input) };
}

/**
 * A balance stays within MAX_MONEY_MICROS either way, so its number in every answer is exact
 * (docs/decisions/125): an adjustment that would leave the range is refused on its wallet.
 */
async function assertWithinBounds(
  env: Pick<Env, 'DB'>,
  ownerId: number,
  changes: Wallet[],
  input: UpdateBalanceInput,
): Promise<void> {
  const now = await walletMicros(env, ownerId);
  const over = changes.filter((w) => Math.abs(now[w] + input[w]) > MAX_MONEY_MICROS);
  if (over.length) throw validationError(Object.fromEntries(over.map((w) => [w, [M.balanceTooLarge]])));
}

async function entriesByKeys(env: Pick<Env, 'DB'>, keys: string[]): Promise<LedgerRow[]> {
  const { results } = await env.DB.prepare(
    `SELECT * FROM wallet_ledger WHERE idempotency_key IN (SELECT value FROM json_each(?1)) ORDER BY id`,
  )
    .bind(JSON.stringify(keys))
    .all<LedgerRow>();
  return results;
}

/** A retry must be the same request: a key reused for other amounts is a client bug, answered 400. */
function sameRequest(
  rows: LedgerRow[],
  ownerId: number,
  changes: Wallet[],
  input: UpdateBalanceInput,
): BalanceLog[] {
  const same =
    rows.length === changes.length &&
    rows.every((r) => r.user_id === ownerId && r.amount_micros === input[r.wallet as Wallet]);
  if (!same) throw new ApiError(400, M.keyReused);
  return rows.map(toLog);
}
