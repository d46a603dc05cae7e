import type { Env } from '../env';
import {
  matchSecret,
  recordLegacyUse,
  recordRejection,
  SECRET_PARAM,
} from '../services/postbacks/postback-secret';
import { getSettings } from '../services/settings/settings';

// The checks a conversion passes before it is tracked (docs/tracking.md "Postback secret",
// "Chargebacks", "Per-click limits"; docs/decisions/042). A refused conversion is never stored
// and never forwarded; it is counted against the campaign (alerts), after the answer.

const GUARD_MESSAGES = {
  secret: 'The postback secret is missing or wrong.',
  negativePayout:
    'A negative payout must reverse an earlier conversion of the same click and transaction id.',
  clickLimit: 'This click has reached its limit of conversions.',
} as const;

const CHARGEBACK_EVENT = 'chargeback';

type Refusal = { status: 403 | 422 | 429; message: string; field: string };
export type GuardResult = Refusal | { event: string | null };

/** Same rule as the ingest dedupe key: transaction ids compare without case. */
const dedupeKey = (clickId: string, tx: string) => `${clickId}|t|${tx.toLowerCase()}`;

export async function guardConversion(
  env: Env,
  ctx: ExecutionContext,
  click: { campaignId: number; clickId: string },
  params: Record<string, string>,
  conversion: { payout: number | null; tx: string; event: string | null },
): Promise<GuardResult> {
  const c = { ...click, ...conversion, params };
  const refuse = (refusal: Refusal, reason: 'secret' | 'negative_payout' | 'click_limit'): GuardResult => {
    ctx.waitUntil(
      recordRejection(env, c.campaignId, reason).catch((err) => console.error('rejection count failed', err)),
    );
    return refusal;
  };
  // Only the campaign's own secret converts its clicks (decision 120); the installation's only
  // in the grace period, and each such use is counted for the admin.
  const matched = await matchSecret(env, c.campaignId, c.params[SECRET_PARAM]?.trim() ?? '');
  if (!matched) {
    return refuse({ status: 403, message: GUARD_MESSAGES.secret, field: SECRET_PARAM }, 'secret');
  }
  if (matched === 'legacy') {
    ctx.waitUntil(
      recordLegacyUse(env, c.campaignId).catch((err) => console.error('legacy secret count failed', err)),
    );
  }

  if (c.payout !== null && c.payout < 0) {
    // A chargeback: it must name a stored conversion of this click and txid that it can reverse.
    const reversed = c.tx
      ? await env.DB.prepare(
          `UPDATE conversions SET reversed_at = ?3
           WHERE dedupe_key = ?1 AND reversed_at IS NULL AND coalesce(payout_micros, 0) >= ?2 RETURNING id`,
        )
          .bind(dedupeKey(c.clickId, c.tx), -c.payout, Date.now())
          .first<{ id: number }>()
      : null;
    if (!reversed) {
      return refuse(
        { status: 422, message: GUARD_MESSAGES.negativePayout, field: 'payout' },
        'negative_payout',
      );
    }
    return { event: CHARGEBACK_EVENT };
  }

  // An early answer only: conversions still in the batch or the queue are not counted here, so
  // the ingest enforces the cap where it writes (worker/services/ingest/ingest.ts, decision 121).
  const cap = Number((await getSettings(env)).conversion_cap_per_click) || 0;
  if (cap > 0) {
    const row = await env.DB.prepare(
      `SELECT count(*) AS n, coalesce(max(dedupe_key = ?2), 0) AS same FROM conversions
       WHERE click_id = ?1 AND coalesce(payout_micros, 0) >= 0`,
    )
      .bind(c.clickId, c.tx ? dedupeKey(c.clickId, c.tx) : '')
      .first<{ n: number; same: number }>();
    // A resend of a conversion already stored is let through: the ingest dedupe counts it once.
    if (row && row.n >= cap && !row.same) {
      return refuse({ status: 429, message: GUARD_MESSAGES.clickLimit, field: 'clickid' }, 'click_limit');
    }
  }
  return { event: c.event };
}
