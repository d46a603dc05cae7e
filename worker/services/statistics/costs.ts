import type { CostRow as CostAnswerRow } from '../../../schema/costs-api';
import { fromMicros } from '../../../schema/money';
import { COST_PRIORITY, type CostSource } from '../../../schema/stats';
import type { Env } from '../../env';
import { bumpStatsVersion } from './ingest-extras';

// Costs per (campaign, day, target) and source; the winning row of each key (highest priority,
// then the newest) is copied into target_daily so that reports read one table
// (docs/statistics.md, "Costs: which source wins").

export type CostRow = { date: string; target: string; impressions: number; ad_clicks: number; spend: number };

const ROWS_PER_STATEMENT = 400;

const UPSERT_JSON = `INSERT INTO costs (campaign_id, day, target, source, priority, impressions, ad_clicks, spend_micros, updated_by, updated_at)
  SELECT ?1, value ->> 0, value ->> 1, ?2, ?3, value ->> 2, value ->> 3, value ->> 4, ?4, ?5 FROM json_each(?6) WHERE true
  ON CONFLICT (campaign_id, day, target, source) DO UPDATE SET impressions = excluded.impressions,
    ad_clicks = excluded.ad_clicks, spend_micros = excluded.spend_micros, updated_by = excluded.updated_by,
    updated_at = excluded.updated_at`;

/** Statements that copy the winning cost of every key of the campaign in [from, to] into target_daily. */
export function refreshEffectiveCosts(
  db: D1Database,
  campaignId: number,
  from: string,
  to: string,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE target_daily SET has_cost = 0, impressions = 0, ad_clicks = 0, spend_micros = 0
         WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3 AND has_cost = 1 AND NOT EXISTS (
           SELECT 1 FROM costs c WHERE c.campaign_id = ?1 AND c.day = target_daily.day AND c.target = target_daily.target)`,
      )
      .bind(campaignId, from, to),
    db
      .prepare(
        `INSERT INTO target_daily (campaign_id, day, target, has_cost, impressions, ad_clicks, spend_micros)
         SELECT ?1, day, target, 1, impressions, ad_clicks, spend_micros FROM (
           SELECT day, target, impressions, ad_clicks, spend_micros,
             row_number() OVER (PARTITION BY day, target ORDER BY priority DESC, updated_at DESC) AS rn
           FROM costs WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3) WHERE rn = 1
         ON CONFLICT (campaign_id, day, target) DO UPDATE SET has_cost = 1, impressions = excluded.impressions,
           ad_clicks = excluded.ad_clicks, spend_micros = excluded.spend_micros`,
      )
      .bind(campaignId, from, to),
    bumpStatsVersion(db, campaignId),
  ];
}

/** Writes cost rows of one source, all or nothing (one D1 batch), and refreshes the effective costs. */
export async function writeCosts(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  source: CostSource,
  rows: CostRow[],
  userId: number | null,
): Promise<void> {
  if (rows.length === 0) return;
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows
      .slice(i, i + ROWS_PER_STATEMENT)
      .map((r) => [r.date, r.target, r.impressions, r.ad_clicks, r.spend]);
    statements.push(
      env.DB.prepare(UPSERT_JSON).bind(
        campaignId,
        source,
        COST_PRIORITY[source],
        userId,
        now,
        JSON.stringify(chunk),
      ),
    );
  }
  const days = rows.map((r) => r.date).sort();
  statements.push(...refreshEffectiveCosts(env.DB, campaignId, days[0], days[days.length - 1]));
  await env.DB.batch(statements);
}

/** Removes one cost row and brings the next source of its key (or the CPC) back. */
export async function deleteCost(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  day: string,
  target: string,
  source: CostSource,
) {
  const [deleted] = await env.DB.batch([
    env.DB.prepare(
      'DELETE FROM costs WHERE campaign_id = ?1 AND day = ?2 AND target = ?3 AND source = ?4',
    ).bind(campaignId, day, target, source),
    ...refreshEffectiveCosts(env.DB, campaignId, day, day),
  ]);
  return deleted.meta.changes ?? 0;
}

/** The cost rows of a range as GET /api/costs and the export show them (newest first, 1000 at most). */
export async function listCosts(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  from: string,
  to: string,
): Promise<CostAnswerRow[]> {
  const { results } = await env.DB.prepare(
    `SELECT day, target, source, impressions, ad_clicks, spend_micros, updated_at FROM costs
     WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day DESC, target LIMIT 1000`,
  )
    .bind(campaignId, from, to)
    .all<{
      day: string;
      target: string;
      source: string;
      impressions: number;
      ad_clicks: number;
      spend_micros: number;
      updated_at: number;
    }>();
  return results.map((r) => ({
    date: r.day,
    target: r.target,
    source: r.source,
    impressions: r.impressions,
    ad_clicks: r.ad_clicks,
    spend: fromMicros(r.spend_micros),
    updated_at: r.updated_at,
  }));
}
