import type { z } from 'zod';
import { fromMicros } from '../../../schema/money';
import {
  type FundRotatorAnswer,
  type fundRotatorSchema,
  MONEY_MESSAGES as M,
  type RotatorCampaign,
  type RotatorOffer,
} from '../../../schema/money-api';
import { ROTATOR_WALLET } from '../../../schema/wallets';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { ApiError, fieldError } from '../../lib/errors';
import { campaignForUser, canSeeEveryCampaign } from '../campaigns';
import { balanceValues, formatUsd, walletMicros } from './ledger';
import { disabledWallets } from './wallet-settings';

// Rotator funding (spec 4 "Rotator funding"): money moves from one of the caller's ad wallets to
// an offer page of one of its rotator campaigns as two ledger entries in one batch.

type FundInput = z.output<typeof fundRotatorSchema>;

/** spec 4 §6: rotator funding requires the user's rotator_is_enabled flag, whatever the role. */
export function requireRotatorEnabled(user: AuthUser): void {
  if (!user.rotatorIsEnabled) throw new ApiError(403, M.rotatorDisabled);
}

export async function listRotators(env: Env, user: AuthUser): Promise<RotatorCampaign[]> {
  const everyone = canSeeEveryCampaign(user);
  const { results } = await env.DB.prepare(
    `SELECT id, name, active FROM campaigns
     WHERE campaign_type = 'rotator' AND deleted = 0 AND is_dir = 0 AND (?1 = 1 OR created_by = ?2)
     ORDER BY name COLLATE NOCASE, id`,
  )
    .bind(everyone ? 1 : 0, user.id)
    .all<{ id: number; name: string; active: number }>();
  return results.map((r) => ({ campaignId: r.id, name: r.name, active: r.active, campaignType: 'rotator' }));
}

async function rotatorFor(env: Env, user: AuthUser, campaignId: number) {
  const row = await campaignForUser(env, user, campaignId).catch(() => null);
  if (row?.campaignType !== 'rotator') throw new ApiError(404, M.rotatorNotFound);
  return row;
}

const FUNDING_SUM = `COALESCE((SELECT SUM(l.amount_micros) FROM wallet_ledger l
  WHERE l.offer_id = o.id AND l.wallet = '${ROTATOR_WALLET}'), 0)`;

export async function rotatorOffers(env: Env, user: AuthUser, campaignId: number): Promise<RotatorOffer[]> {
  const rotator = await rotatorFor(env, user, campaignId);
  const { results } = await env.DB.prepare(
    `SELECT o.id, o.name, o.url, o.active, o.rotator_participant_email, ${FUNDING_SUM} AS funding
     FROM offer_pages o WHERE o.campaign_id = ?1 AND o.deleted = 0 ORDER BY o.id`,
  )
    .bind(rotator.id)
    .all<{
      id: number;
      name: string;
      url: string;
      active: number;
      rotator_participant_email: string;
      funding: number;
    }>();
  return results.map((r) => ({
    offerPageId: r.id,
    name: r.name,
    url: r.url,
    active: r.active,
    rotator_participant_email: r.rotator_participant_email,
    rotator_funding: { id: r.id, amount: fromMicros(r.funding), amountFormatted: formatUsd(r.funding) },
  }));
}

type EntryRow = {
  user_id: number;
  wallet: string;
  amount_micros: number;
  offer_id: number | null;
};

const DEBIT = `INSERT INTO wallet_ledger
  (user_id, wallet, amount_micros, note, cause, added_by, added_by_name, role, ref_campaign_id, idempotency_key, created_at)
  SELECT ?1, ?2, -?3, ?4, 'rotator_funding', ?1, ?5, ?6, ?7, ?8, ?9
  WHERE (SELECT COALESCE(SUM(amount_micros), 0) FROM wallet_ledger
         WHERE user_id = ?1 AND wallet = ?2 AND offer_id IS NULL) >= ?3`;

// The credit exists only if the debit does: the balance check lives in the debit alone.
const CREDIT = `INSERT INTO wallet_ledger
  (user_id, wallet, offer_id, amount_micros, note, cause, added_by, added_by_name, role, ref_campaign_id, idempotency_key, created_at)
  SELECT ?1, '${ROTATOR_WALLET}', ?2, ?3, ?4, 'rotator_funding', ?1, ?5, ?6, ?7, ?8, ?9
  WHERE EXISTS (SELECT 1 FROM wallet_ledger WHERE idempotency_key = ?10)`;

/**
 * Moves `amount` from the caller's wallet to the offer's rotator funding. Both entries are one
 * D1 batch, which is one transaction: if either statement fails, neither is written. The debit
 * books only while the wallet holds enough, checked inside the same statement, so two fundings
 * at once cannot overdraw it. A retried key answers the funding it already booked.
 */
export async function fundRotatorOffer(
  env: Env,
  user: AuthUser & { name?: string },
  campaignId: number,
  input: FundInput,
): Promise<FundRotatorAnswer> {
  requireRotatorEnabled(user);
  const rotator = await rotatorFor(env, user, campaignId);
  const offer = await env.DB.prepare(
    'SELECT id, name FROM offer_pages WHERE id = ?1 AND campaign_id = ?2 AND deleted = 0',
  )
    .bind(input.offerId, rotator.id)
    .first<{ id: number; name: string }>();
  if (!offer) throw fieldError('offerId', M.offerRequired);
  const offerId = offer.id;
  if ((await disabledWallets(env, user.id))[input.wallet]) throw fieldError('wallet', M.walletDisabled);

  const key = input.idempotencyKey ?? crypto.randomUUID();
  const debitKey = `fund:${key}:debit`;
  const creditKey = `fund:${key}:credit`;
  const earlier = await bookedFunding(env, debitKey, creditKey);
  if (earlier) {
    sameFunding(earlier, user.id, input);
    return answer(env, user.id, offerId, false);
  }

  const note = input.note || `Rotator funding: ${rotator.name} / ${offer.name}`;
  const name = user.name || user.username;
  const now = Date.now();
  let debited = 0;
  try {
    const [debit] = await env.DB.batch([
      env.DB.prepare(DEBIT).bind(
        user.id,
        input.wallet,
        input.amount,
        note,
        name,
        user.role,
        rotator.id,
        debitKey,
        now,
      ),
      env.DB.prepare(CREDIT).bind(
        user.id,
        offerId,
        input.amount,
        note,
        name,
        user.role,
        rotator.id,
        creditKey,
        now,
        debitKey,
      ),
    ]);
    debited = debit.meta.changes ?? 0;
  } catch (err) {
    // A concurrent retry of the same key won the race: answer what it booked.
    const booked = await bookedFunding(env, debitKey, creditKey);
    if (booked) {
      sameFunding(booked, user.id, input);
      return answer(env, user.id, offerId, false);
    }
    console.error('rotator funding failed', err);
    throw new ApiError(409, M.fundingFailed);
  }
  if (!debited) throw fieldError('amount', M.insufficient);
  return answer(env, user.id, offerId, true);
}

async function bookedFunding(env: Env, debitKey: string, creditKey: string) {
  const { results } = await env.DB.prepare(
    `SELECT user_id, wallet, amount_micros, offer_id FROM wallet_ledger
     WHERE idempotency_key IN (?1, ?2)`,
  )
    .bind(debitKey, creditKey)
    .all<EntryRow>();
  const debit = results.find((r) => r.offer_id === null);
  const credit = results.find((r) => r.offer_id !== null);
  return debit && credit ? { debit, credit } : null;
}

function sameFunding(booked: { debit: EntryRow; credit: EntryRow }, userId: number, input: FundInput): void {
  const same =
    booked.debit.user_id === userId &&
    booked.debit.wallet === input.wallet &&
    booked.credit.offer_id === input.offerId &&
    booked.credit.amount_micros === input.amount;
  if (!same) throw new ApiError(400, M.keyReused);
}

async function answer(
  env: Env,
  userId: number,
  offerId: number,
  applied: boolean,
): Promise<FundRotatorAnswer> {
  const [wallets, funding] = await Promise.all([
    walletMicros(env, userId),
    env.DB.prepare(
      `SELECT COALESCE(SUM(amount_micros), 0) AS micros FROM wallet_ledger WHERE offer_id = ?1 AND wallet = ?2`,
    )
      .bind(offerId, ROTATOR_WALLET)
      .first<{ micros: number }>(),
  ]);
  const micros = funding?.micros ?? 0;
  return {
    message: M.funded,
    applied,
    funding: { id: offerId, amount: fromMicros(micros), amountFormatted: formatUsd(micros) },
    balance: balanceValues(wallets),
  };
}
