import type { CorrectionRecord } from '../../../schema/masterdashboard-api';
import type { MetricBase } from '../../../schema/metrics';
import type { CorrectionField } from '../../../schema/operator';
import type { Env } from '../../env';

// Operator corrections (docs/decisions/081): rows of their own, never an edit of tracked events
// or costs. The newest live row of a (campaign, day, field) replaces that day's tracked number
// in the master dashboard's reports; a reverted row stops counting but stays visible.

export type NewCorrection = { day: string; field: CorrectionField; value: number };

type Row = {
  id: number;
  campaign_id: number;
  day: string;
  field: CorrectionField;
  value: number;
  verb: string;
  target: string;
  source: string;
  created_by: string;
  created_at: number;
  reverted_at: number | null;
  reverted_by: string | null;
};

function correctionRecord(r: Row): CorrectionRecord {
  return {
    id: r.id,
    campaign_id: r.campaign_id,
    date: r.day,
    field: r.field,
    value: r.value,
    verb: r.verb,
    sid_token: r.target,
    source: r.source,
    created_by: r.created_by,
    created_at: r.created_at,
    reverted_at: r.reverted_at,
    reverted_by: r.reverted_by,
  };
}

/** Writes the corrections of one modify call in one batch (all or nothing). */
export async function writeCorrections(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  verb: string,
  who: string,
  rows: NewCorrection[],
  target = '',
): Promise<CorrectionRecord[]> {
  if (rows.length === 0) return [];
  const now = Date.now();
  const results = await env.DB.batch<Row>(
    rows.map((r) =>
      env.DB.prepare(
        `INSERT INTO operator_corrections (campaign_id, day, field, value, verb, target, created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING *`,
      ).bind(campaignId, r.day, r.field, Math.round(r.value), verb, target, who, now),
    ),
  );
  return results.map((r) => correctionRecord(r.results[0]));
}

export async function listCorrections(env: Pick<Env, 'DB'>, campaignId: number, from: string, to: string) {
  const { results } = await env.DB.prepare(
    'SELECT * FROM operator_corrections WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY id DESC LIMIT 1000',
  )
    .bind(campaignId, from, to)
    .all<Row>();
  return results.map(correctionRecord);
}

/** Marks a correction reverted; answers its record, or null when there is no live one. */
export async function revertCorrection(env: Pick<Env, 'DB'>, id: number, who: string) {
  const row = await env.DB.prepare(
    'UPDATE operator_corrections SET reverted_at = ?2, reverted_by = ?3 WHERE id = ?1 AND reverted_at IS NULL RETURNING *',
  )
    .bind(id, Date.now(), who)
    .first<Row>();
  return row ? correctionRecord(row) : null;
}

/** The live value of each (campaign, day, field) in range: campaign id -> day -> field -> value. */
export async function liveCorrections(env: Pick<Env, 'DB'>, campaignIds: number[], from: string, to: string) {
  const out = new Map<number, Map<string, Partial<Record<CorrectionField, number>>>>();
  if (campaignIds.length === 0) return out;
  const { results } = await env.DB.prepare(
    `SELECT campaign_id, day, field, value FROM (
       SELECT campaign_id, day, field, value,
         row_number() OVER (PARTITION BY campaign_id, day, field ORDER BY id DESC) rn
       FROM operator_corrections
       WHERE reverted_at IS NULL AND day BETWEEN ?1 AND ?2
         AND campaign_id IN (SELECT value FROM json_each(?3))) WHERE rn = 1`,
  )
    .bind(from, to, JSON.stringify(campaignIds))
    .all<{ campaign_id: number; day: string; field: CorrectionField; value: number }>();
  for (const r of results) {
    const days = out.get(r.campaign_id) ?? new Map();
    out.set(r.campaign_id, days);
    days.set(r.day, { ...days.get(r.day), [r.field]: r.value });
  }
  return out;
}

/** A tracked day with its corrections applied. */
export function applyCorrections(base: MetricBase, c: Partial<Record<CorrectionField, number>> | undefined) {
  if (!c) return base;
  return {
    ...base,
    spend: c.spend ?? base.spend,
    adClicks: c.ad_clicks ?? base.adClicks,
    impressions: c.impressions ?? base.impressions,
    conversions: c.conversions ?? base.conversions,
    revenue: c.revenue ?? base.revenue,
  };
}
