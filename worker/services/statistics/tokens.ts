import type { Env } from '../../env';
import { all, type DayBounds, n, type StatsCampaign, tokenGroups } from './common';
import { emptyTarget, type TargetAgg, targetAggregates } from './targets';

// Grouping by extra tokens: their values are only in the raw rows (columns t1..t20, one per token
// slot, docs/decisions/012-extra-token-slots.md), so these sums read visits, lp_clicks and
// conversions rather than the rollups.

/**
 * Per (target, extra-token values) sums from the raw rows, for grouping by extra tokens. Costs
 * are known per target, so each target's spend, impressions and ad clicks over the range are
 * shared out by visits: the groups of a target add up to the target.
 */
export async function targetTokenAggregates(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  b: DayBounds,
  slots: { slot: number; parameter: string }[],
): Promise<TargetAgg[]> {
  const groupCols = slots.map((s, i) => `coalesce(t${s.slot}, '') AS k${i}`).join(', ');
  const keyList = slots.map((_, i) => `k${i}`).join(', ');
  const where = 'campaign_id = ?1 AND day BETWEEN ?2 AND ?3';
  const [visits, lps, convs, targets] = await Promise.all([
    all(
      env,
      `SELECT target, ${groupCols}, count(*) n FROM visits WHERE ${where} AND filter IS NULL GROUP BY target, ${keyList}`,
      c.id,
      b.from,
      b.to,
    ),
    all(
      env,
      `SELECT target, ${groupCols}, count(*) n FROM lp_clicks WHERE ${where} AND filter IS NULL AND orphan = 0 GROUP BY target, ${keyList}`,
      c.id,
      b.from,
      b.to,
    ),
    all(
      env,
      `SELECT target, ${groupCols}, event, sum(is_goal) g, count(*) n, sum(coalesce(payout_micros, 0)) r FROM conversions
       WHERE ${where} AND orphan = 0 GROUP BY target, ${keyList}, event`,
      c.id,
      b.from,
      b.to,
    ),
    targetAggregates(env, c, b),
  ]);
  const byTarget = new Map(targets.map((t) => [t.target, t]));
  const { groups, group } = tokenGroups(slots, 'target', (r, tokens) =>
    emptyTarget(String(r.target), tokens),
  );
  for (const r of visits) {
    const g = group(r);
    g.visits += n(r.n);
    const t = byTarget.get(g.target);
    if (t && t.visits > 0) {
      const share = g.visits / t.visits;
      g.spend = Math.round(t.spend * share);
      g.impressions = Math.round(t.impressions * share);
      g.adClicks = Math.round(t.adClicks * share);
    }
  }
  for (const r of lps) group(r).lpClicks += n(r.n);
  for (const r of convs) {
    const g = group(r);
    g.conversions += n(r.g);
    g.revenue += n(r.r);
    g.events[String(r.event)] = (g.events[String(r.event)] ?? 0) + n(r.n);
  }
  return [...groups.values()];
}

/** One landing page's sums for one combination of extra-token values. */
export type LandingTokenGroup = {
  landingId: number;
  tokens: Record<string, string>;
  visits: number;
  lpClicks: number;
  conversions: number;
  revenue: number;
};

/** Per (landing page, extra-token values) sums from the raw rows, for grouping the landing table. */
export async function landingTokenAggregates(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  b: DayBounds,
  slots: { slot: number; parameter: string }[],
): Promise<Map<number, LandingTokenGroup[]>> {
  const groupCols = slots.map((s, i) => `coalesce(t${s.slot}, '') AS k${i}`).join(', ');
  const keyList = slots.map((_, i) => `k${i}`).join(', ');
  const where = 'campaign_id = ?1 AND day BETWEEN ?2 AND ?3';
  const [visits, lps, convs] = await Promise.all([
    all(
      env,
      `SELECT landing_id, ${groupCols}, count(*) n FROM visits WHERE ${where} AND filter IS NULL GROUP BY landing_id, ${keyList}`,
      c.id,
      b.from,
      b.to,
    ),
    all(
      env,
      `SELECT landing_id, ${groupCols}, count(*) n FROM lp_clicks WHERE ${where} AND filter IS NULL AND orphan = 0 GROUP BY landing_id, ${keyList}`,
      c.id,
      b.from,
      b.to,
    ),
    all(
      env,
      `SELECT landing_id, ${groupCols}, sum(is_goal) g, sum(coalesce(payout_micros, 0)) r FROM conversions
       WHERE ${where} AND orphan = 0 GROUP BY landing_id, ${keyList}`,
      c.id,
      b.from,
      b.to,
    ),
  ]);
  const { groups, group } = tokenGroups(
    slots,
    'landing_id',
    (r, tokens): LandingTokenGroup => ({
      landingId: n(r.landing_id),
      tokens,
      visits: 0,
      lpClicks: 0,
      conversions: 0,
      revenue: 0,
    }),
  );
  for (const r of visits) group(r).visits += n(r.n);
  for (const r of lps) group(r).lpClicks += n(r.n);
  for (const r of convs) {
    const g = group(r);
    g.conversions += n(r.g);
    g.revenue += n(r.r);
  }
  const byLanding = new Map<number, LandingTokenGroup[]>();
  for (const g of groups.values()) {
    const list = byLanding.get(g.landingId) ?? [];
    list.push(g);
    byLanding.set(g.landingId, list);
  }
  return byLanding;
}
