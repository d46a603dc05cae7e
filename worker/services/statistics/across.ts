import type { CampaignMetricsRow, ListMetrics } from '../../../schema/across-campaigns-api';
import { cr, epc, roi } from '../../../schema/metrics';
import type { QuickStats } from '../../../schema/stats-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { canSeeEveryCampaign } from '../campaigns/access';
import { all, type DayBounds, dollars, n } from './common';

// Numbers across campaigns (docs/decisions/115-numbers-across-campaigns.md): one grouped query
// over target_daily joined to the campaigns the user may see, with the same spend rule as a
// campaign's own report (a key's effective cost, else the campaign's CPC times its visits), so
// the list and the all-campaigns dashboard add up to the per-campaign reports exactly.

type Sums = { visits: number; conversions: number; revenue: number; spend: number };

const SPEND = 'CASE WHEN td.has_cost = 1 THEN td.spend_micros ELSE td.visits * c.cpc_micros END';

function owner(user: Pick<AuthUser, 'id' | 'role'>) {
  return canSeeEveryCampaign(user)
    ? { sql: '', binds: [] }
    : { sql: 'AND c.created_by = ?3', binds: [user.id] };
}

/** Micro-unit sums as the list shows them: dollars rounded to cents, rates in percent. */
function listMetrics(s: Sums): ListMetrics {
  return {
    visits: s.visits,
    conversions: s.conversions,
    revenue: dollars(s.revenue),
    spend: dollars(s.spend),
    profit: dollars(s.revenue - s.spend),
    roi: roi(s.revenue, s.spend),
    cr: cr(s.conversions, s.visits),
    epc: dollars(epc(s.revenue, s.visits)),
  };
}

const zero = (): Sums => ({ visits: 0, conversions: 0, revenue: 0, spend: 0 });
const add = (a: Sums, b: Sums) => {
  a.visits += b.visits;
  a.conversions += b.conversions;
  a.revenue += b.revenue;
  a.spend += b.spend;
};

/** Every live campaign and folder the user may see, with its sums over the days. */
export async function campaignMetrics(
  env: Pick<Env, 'DB'>,
  user: Pick<AuthUser, 'id' | 'role'>,
  b: DayBounds,
): Promise<{ rows: CampaignMetricsRow[]; totals: ListMetrics }> {
  const own = owner(user);
  const rows = await all(
    env,
    `SELECT c.id, c.name, c.is_dir, c.parent_id, c.campaign_type, c.traffic_source, c.active,
       sum(td.visits) v, sum(td.conversions) cv, sum(td.revenue_micros) r, sum(${SPEND}) s
     FROM campaigns c
     LEFT JOIN target_daily td ON td.campaign_id = c.id AND td.day BETWEEN ?1 AND ?2
     WHERE c.deleted = 0 ${own.sql}
     GROUP BY c.id`,
    b.from,
    b.to,
    ...own.binds,
  );
  const byId = new Map(rows.map((r) => [n(r.id), r]));
  const sums = new Map<number, Sums>();
  const total = zero();
  for (const r of rows) sums.set(n(r.id), zero());
  for (const r of rows) {
    if (n(r.is_dir) === 1) continue;
    const own: Sums = { visits: n(r.v), conversions: n(r.cv), revenue: n(r.r), spend: n(r.s) };
    add(total, own);
    // A campaign counts in its own row and in every folder above it.
    const seen = new Set<number>();
    for (
      let id: number | null = n(r.id);
      id && byId.has(id) && !seen.has(id);
      id = n(byId.get(id)?.parent_id)
    ) {
      seen.add(id);
      const s = sums.get(id);
      if (s) add(s, own);
    }
  }
  const folderPath = (parent: number) => {
    const names: string[] = [];
    const seen = new Set<number>();
    for (let id = parent; id && byId.has(id) && !seen.has(id); id = n(byId.get(id)?.parent_id)) {
      seen.add(id);
      names.unshift(String(byId.get(id)?.name ?? ''));
    }
    return names.join(' / ');
  };
  return {
    rows: rows.map((r) => ({
      campaignId: n(r.id),
      name: String(r.name),
      is_dir: n(r.is_dir) === 1 ? 1 : 0,
      dir: n(r.parent_id),
      folder: folderPath(n(r.parent_id)),
      campaignType: String(r.campaign_type ?? ''),
      trafficSource: String(r.traffic_source ?? ''),
      active: n(r.active),
      metrics: listMetrics(sums.get(n(r.id)) ?? zero()),
    })),
    totals: listMetrics(total),
  };
}

/** The dashboard's daily series summed over every live campaign the user may see. */
export async function allCampaignsSeries(
  env: Pick<Env, 'DB'>,
  user: Pick<AuthUser, 'id' | 'role'>,
  b: DayBounds,
): Promise<QuickStats> {
  const own = owner(user);
  const days = await all(
    env,
    `SELECT td.day, sum(td.visits) v, sum(td.lp_clicks) l, sum(td.conversions) cv,
       sum(td.revenue_micros) r, sum(td.impressions) i, sum(td.ad_clicks) a, sum(${SPEND}) s
     FROM campaigns c
     JOIN target_daily td ON td.campaign_id = c.id AND td.day BETWEEN ?1 AND ?2
     WHERE c.deleted = 0 AND c.is_dir = 0 ${own.sql}
     GROUP BY td.day ORDER BY td.day`,
    b.from,
    b.to,
    ...own.binds,
  );
  return {
    liveintent: {
      reports: days.map((d) => ({
        date: String(d.day),
        advertiserSpent: dollars(n(d.s)),
        clicks: n(d.a),
        impressions: n(d.i),
      })),
    },
    visitors: days.map((d) => ({
      date: String(d.day),
      visitors: n(d.v),
      lpclicks: n(d.l),
      revenue: dollars(n(d.r)),
    })),
    conversions: days.map((d) => ({ date: String(d.day), conversions: n(d.cv) })),
  };
}
