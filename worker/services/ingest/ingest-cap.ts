import type { Env } from '../../env';
import { rejectionAlert } from '../postbacks/postback-secret';

// The per-click conversion cap, held where conversions are written (docs/decisions/121). The
// request's guard (worker/tracking/conversion-guard.ts) counts only rows already written, so
// postbacks sent in parallel all pass it while their events wait in the batch and the queue.
// Here the cap is decided inside the ingest transaction, set-wise over the batch's rows: a
// conversion is written only while the click's stored conversions plus the earlier new ones of
// the batch stay within `conversion_cap_per_click`. D1 runs one transaction at a time, so two
// consumers (or the hot path's direct write) cannot both take the last place.
//
// What is over the cap is not dropped: it is kept in refused_conversions (by dedupe key, so a
// redelivered message neither stores nor counts it again), counted in conversion_rejections
// with reason click_limit, and raised as the campaign's alert, like a refusal at the door.
// Chargebacks (a negative payout) and resends of a stored conversion are never capped.

/** The conversion rows of the batch, judged. ?1 the rows as JSON, ?2 the cap (0: none). */
function judged(payoutAt: number) {
  return `WITH sent AS (
    SELECT key AS k, value, value ->> 0 AS dk, value ->> 1 AS cid, value ->> 2 AS campaign,
      value ->> ${payoutAt} AS pay, coalesce(value ->> ${payoutAt}, 0) >= 0 AS counted
    FROM json_each(?1)),
  fresh AS (
    SELECT *, row_number() OVER (PARTITION BY dk ORDER BY k) AS nth FROM sent s
    WHERE NOT EXISTS (SELECT 1 FROM conversions c WHERE c.dedupe_key = s.dk)
      AND NOT EXISTS (SELECT 1 FROM refused_conversions r WHERE r.dedupe_key = s.dk)),
  judged AS (
    SELECT *, (NOT counted OR ?2 <= 0 OR (SELECT count(*) FROM conversions c
        WHERE c.click_id = f.cid AND coalesce(c.payout_micros, 0) >= 0)
      + sum(counted) OVER (PARTITION BY cid ORDER BY k ROWS UNBOUNDED PRECEDING) <= ?2) AS ok
    FROM fresh f WHERE nth = 1)`;
}

/** Three statements, run in this order in place of the plain conversions insert. */
export type CappedInsert = {
  /** Counts what is over the cap; its rows are the campaigns' refusal totals of the day. */
  refusals: D1PreparedStatement;
  /** Keeps what is over the cap in refused_conversions. */
  keep: D1PreparedStatement;
  /** Inserts the rest. */
  insert: D1PreparedStatement;
};

/**
 * The conversions insert of an ingest transaction with the cap applied. `names` are the columns
 * of the JSON rows (dedupe_key, click_id and campaign_id first; payout_micros among them).
 */
export function cappedConversionInsert(
  db: D1Database,
  names: string[],
  json: string,
  cap: number,
  now: number,
): CappedInsert {
  const payoutAt = names.indexOf('payout_micros');
  if (names[0] !== 'dedupe_key' || names[1] !== 'click_id' || names[2] !== 'campaign_id' || payoutAt < 0) {
    throw new Error('conversion rows out of the expected column order');
  }
  const cte = judged(payoutAt);
  const day = new Date(now).toISOString().slice(0, 10);
  const values = names.map((_, i) => `value ->> ${i}`).join(', ');
  // Counted first, then kept, then the rest inserted: each statement sees the state the first
  // one judged (the kept rows drop out of the insert's judgement, and were over the cap anyway).
  return {
    refusals: db
      .prepare(
        `${cte} INSERT INTO conversion_rejections (campaign_id, day, reason, count)
          SELECT campaign, ?3, 'click_limit', count(*) FROM judged WHERE NOT ok GROUP BY campaign
          ON CONFLICT (campaign_id, day, reason) DO UPDATE SET count = count + excluded.count
          RETURNING campaign_id, count`,
      )
      .bind(json, cap, day),
    keep: db
      .prepare(
        `${cte} INSERT INTO refused_conversions (dedupe_key, click_id, campaign_id, reason, payout_micros, created_at)
          SELECT dk, cid, campaign, 'click_limit', pay, ?3 FROM judged WHERE NOT ok
          ON CONFLICT (dedupe_key) DO NOTHING`,
      )
      .bind(json, cap, now),
    insert: db
      .prepare(
        `${cte} INSERT INTO conversions (${names.join(', ')}) SELECT ${values} FROM judged WHERE ok
          ORDER BY k ON CONFLICT (dedupe_key) DO NOTHING`,
      )
      .bind(json, cap),
  };
}

/** After the transaction: each campaign's click_limit alert follows its day's refusal total. */
export async function alertCapRefusals(
  env: Pick<Env, 'DB'>,
  rows: { campaign_id: number; count: number }[],
  now: number,
): Promise<number> {
  const day = new Date(now).toISOString().slice(0, 10);
  for (const row of rows) {
    await rejectionAlert(env, row.campaign_id, 'click_limit', day, row.count, now).catch((err) =>
      console.error('click limit alert failed', err),
    );
  }
  return rows.length;
}
