import { cr } from '../../../schema/metrics';
import type { Env } from '../../env';
import { all, type Counters, type DayBounds, dollars, n, SPEND, type StatsCampaign, TD } from './common';

// The placement tables: sums per (path, landing page, offer) from placement_daily, and the offer
// and path tables built from them. The landing table is in landings.ts.

export type PlacementAgg = Counters & { pathId: number; landingId: number; offerId: number; spend: number };

/**
 * Sums per (path, landing, offer). Ad spend is known per day and target, not per page, so each
 * day's spend is shared out by visits: a page with 30 % of a day's visits carries 30 % of it.
 */
export async function placementAggregates(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  b: DayBounds,
): Promise<PlacementAgg[]> {
  // Each day's cost per visit (a few dozen rows) applied to that day's placement rows, summed in SQL.
  const rows = await all(
    env,
    `WITH d AS (SELECT day, sum(${SPEND}) s, sum(visits) v ${TD} GROUP BY day)
     SELECT p.path_id, p.landing_id, p.offer_id, sum(p.visits) v, sum(p.lp_clicks) l, sum(p.conversions) c,
       sum(p.revenue_micros) r, sum(round(p.visits * coalesce(d.s * 1.0 / nullif(d.v, 0), 0))) s
     FROM placement_daily p LEFT JOIN d ON d.day = p.day
     WHERE p.campaign_id = ?1 AND p.day BETWEEN ?2 AND ?3 GROUP BY p.path_id, p.landing_id, p.offer_id`,
    c.id,
    b.from,
    b.to,
    c.cpcMicros,
  );
  return rows.map((r) => ({
    pathId: n(r.path_id),
    landingId: n(r.landing_id),
    offerId: n(r.offer_id),
    visits: n(r.v),
    lpClicks: n(r.l),
    conversions: n(r.c),
    revenue: n(r.r),
    spend: n(r.s),
  }));
}

export type Item = {
  id: number;
  name: string;
  url?: string;
  active: number;
  deleted: number;
  liConversionName?: string;
};

/** The campaign's landing pages, offers or paths, deleted ones only when asked. */
export async function items(
  env: Pick<Env, 'DB'>,
  table: 'landing_pages' | 'offer_pages' | 'paths',
  campaignId: number,
  withDeleted: boolean,
) {
  const extra =
    table === 'paths'
      ? ''
      : table === 'offer_pages'
        ? ', url, li_conversion_name AS liConversionName'
        : ', url';
  return all<Item>(
    env,
    `SELECT id, name, active, deleted${extra} FROM ${table} WHERE campaign_id = ?1 ${withDeleted ? '' : 'AND deleted = 0'} ORDER BY id`,
    campaignId,
  );
}

export type PlacementSums = Counters & { spend: number };

export function sumBy<K>(aggs: PlacementAgg[], key: (a: PlacementAgg) => K) {
  const out = new Map<K, PlacementSums>();
  for (const a of aggs) {
    const k = key(a);
    const s = out.get(k) ?? { visits: 0, lpClicks: 0, conversions: 0, revenue: 0, spend: 0 };
    s.visits += a.visits;
    s.lpClicks += a.lpClicks;
    s.conversions += a.conversions;
    s.revenue += a.revenue;
    s.spend += a.spend;
    out.set(k, s);
  }
  return out;
}

/** Offer rows: visits at the offer are LP clicks to it (landing-page types) or visits sent straight to it. */
export async function offerTable(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  aggs: PlacementAgg[],
  withDeleted: boolean,
) {
  const byOffer = sumBy(aggs, (a) => a.offerId);
  const rows = (await items(env, 'offer_pages', c.id, withDeleted)).map((o) => {
    const s = byOffer.get(o.id);
    const visits = s ? s.visits + s.lpClicks : 0;
    return {
      offer_id: o.id,
      offer_name: o.name,
      visits,
      liConversionName: o.liConversionName ?? '',
      conversion: s?.conversions ?? 0,
      revenue: dollars(s?.revenue ?? 0),
      cr: cr(s?.conversions ?? 0, visits),
      active: o.active,
      deleted: o.deleted,
    };
  });
  const total = {
    visitsTotal: rows.reduce((a, r) => a + r.visits, 0),
    conversionsTotal: rows.reduce((a, r) => a + r.conversion, 0),
    revenue: dollars([...byOffer.values()].reduce((a, s) => a + s.revenue, 0)),
  };
  return {
    offerRecords: rows,
    offerTotal: { ...total, crTotal: cr(total.conversionsTotal, total.visitsTotal) },
  };
}

export async function pathTable(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  aggs: PlacementAgg[],
  withDeleted: boolean,
) {
  const byPath = sumBy(aggs, (a) => a.pathId);
  const rows = (await items(env, 'paths', c.id, withDeleted)).map((p) => {
    const s = byPath.get(p.id);
    return {
      path_id: p.id,
      path_name: p.name,
      visits: s?.visits ?? 0,
      conversion: s?.conversions ?? 0,
      cr: cr(s?.conversions ?? 0, s?.visits ?? 0),
      active: p.active,
      deleted: p.deleted,
    };
  });
  const visitsTotal = rows.reduce((a, r) => a + r.visits, 0);
  const conversionsTotal = rows.reduce((a, r) => a + r.conversion, 0);
  return {
    pathRecords: rows,
    pathTotal: { visitsTotal, conversionsTotal, crTotal: cr(conversionsTotal, visitsTotal) },
  };
}
