import { addDays, dayInZone } from '../../schema/dates';
import { adCtr, cpa, cpc, cr, epc, lpCtr, roi, round, safeDiv } from '../../schema/metrics';
import { formatMicros, fromMicros } from '../../schema/money';
import { EVENT_COLUMNS, type StatisticsRequest } from '../../schema/stats-api';
import type { Env } from '../env';
import { twoProportionTest } from './significance';

// The numbers of the statistics screen, read from the daily rollups (docs/statistics.md).
// Money is summed in integer micro-units and turned into dollars only in the rows answered.

export type StatsCampaign = {
  id: number;
  name: string;
  campaignType: string;
  trafficSource: string;
  offerPromotion: string;
  cpcMicros: number;
  goal: string;
  optimizationGoal: string;
  minVisits: number;
};

/** Inclusive day bounds; an open end is the whole history. */
export type DayBounds = { from: string; to: string };

export function dayBounds(start: string, end: string): DayBounds {
  return { from: start || '0000-01-01', to: end || '9999-12-31' };
}

type Counters = { visits: number; lpClicks: number; conversions: number; revenue: number };
export type TargetAgg = Counters & {
  target: string;
  tokens: Record<string, string>;
  impressions: number;
  adClicks: number;
  spend: number;
  events: Record<string, number>;
};

// target_daily carries each key's effective cost (worker/services/costs.ts); without one, spend is
// the campaign's CPC (?4) times the visits. A report is then one grouped range scan.
const SPEND = 'CASE WHEN has_cost = 1 THEN spend_micros ELSE visits * ?4 END';
const TD = 'FROM target_daily WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3';

type Row = Record<string, number | string | null>;
const n = (v: unknown) => Number(v ?? 0);

async function all<T = Row>(env: Pick<Env, 'DB'>, query: string, ...params: unknown[]): Promise<T[]> {
  const { results } = await env.DB.prepare(query)
    .bind(...params)
    .all<T>();
  return results;
}

function emptyTarget(target: string, tokens: Record<string, string> = {}): TargetAgg {
  return {
    target,
    tokens,
    visits: 0,
    lpClicks: 0,
    conversions: 0,
    revenue: 0,
    impressions: 0,
    adClicks: 0,
    spend: 0,
    events: {},
  };
}

/** Per-target sums over the days, with costs and event counts. */
/** The whole weeks (Monday to Sunday) inside a range, as [first Monday, last Monday], or null. */
export function wholeWeeks(b: DayBounds): { first: string; last: string } | null {
  // Open ends are clamped to real dates; days outside the clamp are read day by day.
  const from = b.from < '2000-01-03' ? '2000-01-03' : b.from;
  const to = b.to > '2099-12-27' ? '2099-12-27' : b.to;
  const weekday = (day: string) => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const first = weekday(from) === 0 ? from : addDays(from, 7 - weekday(from));
  const lastSunday = weekday(to) === 6 ? to : addDays(to, -(weekday(to) + 1));
  if (first > lastSunday) return null;
  return { first, last: addDays(lastSunday, -6) };
}

/**
 * Per-target sums over the range: whole weeks from target_weekly, the days before and after
 * them from target_daily (migration 0006 keeps the weekly table by triggers).
 */
async function targetSums(env: Pick<Env, 'DB'>, c: StatsCampaign, b: DayBounds) {
  const weeks = wholeWeeks(b);
  if (!weeks) {
    return all(
      env,
      `SELECT target, sum(visits) v, sum(lp_clicks) l, sum(conversions) c, sum(revenue_micros) r,
        sum(impressions) i, sum(ad_clicks) a, sum(${SPEND}) s ${TD} GROUP BY target`,
      c.id,
      b.from,
      b.to,
      c.cpcMicros,
    );
  }
  return all(
    env,
    `SELECT target, sum(v) v, sum(l) l, sum(c) c, sum(r) r, sum(i) i, sum(a) a, sum(cs) + sum(uv) * ?4 s FROM (
       SELECT target, visits v, lp_clicks l, conversions c, revenue_micros r, impressions i, ad_clicks a,
         cost_spend_micros cs, uncosted_visits uv
       FROM target_weekly WHERE campaign_id = ?1 AND week BETWEEN ?5 AND ?6
       UNION ALL
       SELECT target, visits, lp_clicks, conversions, revenue_micros, impressions, ad_clicks,
         has_cost * spend_micros, (1 - has_cost) * visits
       FROM target_daily WHERE campaign_id = ?1 AND day BETWEEN ?7 AND ?8
       UNION ALL
       SELECT target, visits, lp_clicks, conversions, revenue_micros, impressions, ad_clicks,
         has_cost * spend_micros, (1 - has_cost) * visits
       FROM target_daily WHERE campaign_id = ?1 AND day BETWEEN ?9 AND ?10
     ) GROUP BY target`,
    c.id,
    b.from,
    b.to,
    c.cpcMicros,
    weeks.first,
    weeks.last,
    b.from,
    addDays(weeks.first, -1),
    addDays(weeks.last, 7),
    b.to,
  );
}

export async function targetAggregates(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  b: DayBounds,
): Promise<TargetAgg[]> {
  const [rows, events] = await Promise.all([
    targetSums(env, c, b),
    all(
      env,
      `SELECT target, event, sum(events) e FROM target_event_daily
       WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3 GROUP BY target, event`,
      c.id,
      b.from,
      b.to,
    ),
  ]);
  const byTarget = new Map<string, TargetAgg>();
  for (const r of rows) {
    const t = emptyTarget(String(r.target));
    Object.assign(t, {
      visits: n(r.v),
      lpClicks: n(r.l),
      conversions: n(r.c),
      revenue: n(r.r),
      impressions: n(r.i),
      adClicks: n(r.a),
      spend: n(r.s),
    });
    byTarget.set(t.target, t);
  }
  for (const e of events) {
    const t = byTarget.get(String(e.target));
    if (t) t.events[String(e.event)] = n(e.e);
  }
  return [...byTarget.values()];
}

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
  const groups = new Map<string, TargetAgg>();
  const group = (r: Row) => {
    const values = slots.map((_, i) => String(r[`k${i}`] ?? ''));
    const key = [r.target, ...values].join('\u0000');
    let g = groups.get(key);
    if (!g) {
      g = emptyTarget(String(r.target), Object.fromEntries(slots.map((s, i) => [s.parameter, values[i]])));
      groups.set(key, g);
    }
    return g;
  };
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

const dollars = (micros: number) => round(fromMicros(micros), 2);

/**
 * A target row as the spec's table shows it (spec 3 §3). `goal` is the campaign's conversion
 * event: it is the conversions column, so it is not repeated among the custom events.
 */
export function targetRow(t: TargetAgg, campaignId: number, goal = '') {
  const ev = (name: string) => t.events[name] ?? 0;
  const row: Record<string, unknown> = {
    target: t.target,
    CAMPAIGNID: campaignId,
    impressions: t.impressions,
    clicks: t.adClicks,
    visits: t.visits,
    ad_cpc: dollars(cpc(t.spend, t.visits)),
    ctr: adCtr(t.adClicks, t.impressions),
    conversions: t.conversions,
    ad_spent: dollars(t.spend),
    revenue: dollars(t.revenue),
    net: dollars(t.revenue - t.spend),
    cpa: dollars(cpa(t.spend, t.conversions)),
    cr: cr(t.conversions, t.visits),
    roi: roi(t.revenue, t.spend),
    epc: dollars(epc(t.revenue, t.visits)),
    lpclicks: t.lpClicks,
    lpctr: lpCtr(t.lpClicks, t.visits),
    lp_cpc: dollars(safeDiv(t.spend, t.lpClicks)),
    ...t.tokens,
  };
  for (const [event, column] of Object.entries(EVENT_COLUMNS)) row[column] = ev(event);
  row.event_lp_visits_cpc = dollars(safeDiv(t.spend, ev('lp')));
  row.event_lp_visits_ctr = round(safeDiv(ev('lp'), t.visits) * 100, 2);
  row.event_atc1_visits_cpc = dollars(safeDiv(t.spend, ev('atc1')));
  row.event_atc2_visits_cpc = dollars(safeDiv(t.spend, ev('atc2')));
  const custom: Record<string, number> = {};
  for (const [event, count] of Object.entries(t.events))
    if (!(event in EVENT_COLUMNS) && event !== goal) custom[event] = count;
  row.custom_events = custom;
  return row;
}

/** The totals object of spec 3 §3 over any set of aggregates, with the spec's rounding (§9). */
export function totals(
  rows: Pick<
    TargetAgg,
    'visits' | 'lpClicks' | 'conversions' | 'revenue' | 'impressions' | 'adClicks' | 'spend'
  >[],
) {
  const s = rows.reduce(
    (a, r) => ({
      visits: a.visits + r.visits,
      lpClicks: a.lpClicks + r.lpClicks,
      conversions: a.conversions + r.conversions,
      revenue: a.revenue + r.revenue,
      impressions: a.impressions + r.impressions,
      adClicks: a.adClicks + r.adClicks,
      spend: a.spend + r.spend,
    }),
    { visits: 0, lpClicks: 0, conversions: 0, revenue: 0, impressions: 0, adClicks: 0, spend: 0 },
  );
  return {
    visitsTotal: s.visits,
    clicksTotal: s.adClicks,
    impressionsTotal: s.impressions,
    conversionsTotal: s.conversions,
    crTotal: round(safeDiv(s.conversions, s.visits) * 100, 2),
    ctrTotal: round(safeDiv(s.adClicks, s.impressions) * 100, 3),
    lpclicksTotal: s.lpClicks,
    lpctrTotal: round(safeDiv(s.lpClicks, s.visits) * 100, 2),
    ad_cpc_total: dollars(cpc(s.spend, s.visits)),
    lp_cpc_total: dollars(safeDiv(s.spend, s.lpClicks)),
    roi_total: roi(s.revenue, s.spend),
    ad_spent: dollars(s.spend),
    revenue: dollars(s.revenue),
    net: dollars(s.revenue - s.spend),
    cpa: dollars(cpa(s.spend, s.conversions)),
    epc_total: dollars(epc(s.revenue, s.visits)),
  };
}

/** Compares rows by a column: numbers numerically, anything else as text. */
export function compareBy(sortKey: string, sortOrder: 'asc' | 'desc') {
  const dir = sortOrder === 'asc' ? 1 : -1;
  return (a: Record<string, unknown>, b: Record<string, unknown>) => {
    const x = a[sortKey];
    const y = b[sortKey];
    const cmp =
      typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''));
    return cmp * dir;
  };
}

/** Sorts rows by a column (numbers numerically, text by locale), then pages them. */
export function sortAndPage<T extends Record<string, unknown>>(
  rows: T[],
  {
    sortKey,
    sortOrder,
    page,
    perPage,
    search,
    searchKeys,
  }: {
    sortKey: string;
    sortOrder: 'asc' | 'desc';
    page: number;
    perPage: number;
    search: string;
    searchKeys: string[];
  },
) {
  const needle = search.toLowerCase();
  const filtered = needle
    ? rows.filter((r) =>
        searchKeys.some((k) =>
          String(r[k] ?? '')
            .toLowerCase()
            .includes(needle),
        ),
      )
    : rows;
  const sorted = [...filtered].sort(compareBy(sortKey, sortOrder));
  const lastPage = Math.max(1, Math.ceil(sorted.length / perPage));
  const current = Math.min(page, lastPage);
  return {
    records: sorted.slice((current - 1) * perPage, current * perPage),
    currentPage: current,
    totalCount: filtered.length,
  };
}

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

type Item = {
  id: number;
  name: string;
  url?: string;
  active: number;
  deleted: number;
  liConversionName?: string;
};

async function items(
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

function sumBy<K>(aggs: PlacementAgg[], key: (a: PlacementAgg) => K) {
  const out = new Map<K, Counters & { spend: number }>();
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

const money = (micros: number) => {
  const [whole, fraction] = formatMicros(Math.round(micros / 10_000) * 10_000).split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  return `${sign}$${Number(whole.replace('-', '')).toLocaleString('en-US')}.${fraction.slice(0, 2).padEnd(2, '0')}`;
};

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

export type TestResult = {
  against: number | string;
  is_significant: boolean;
  best_variant: 0 | 1 | 2;
  p_value: number;
};

/** Pairwise tests of each active landing page against every other on the campaign's goal. */
export function landingTests(
  pages: {
    id: number;
    active: number;
    deleted: number;
    visits: number;
    lpClicks: number;
    conversions: number;
  }[],
  goal: string,
  minVisits: number,
): Map<number, TestResult[]> {
  const eligible = pages.filter((p) => p.active === 1 && p.deleted === 0);
  const successes = (p: (typeof pages)[number]) => (goal === 'lp_ctr' ? p.lpClicks : p.conversions);
  const out = new Map<number, TestResult[]>();
  for (const a of eligible) {
    const results: TestResult[] = [];
    for (const b of eligible) {
      if (a.id === b.id) continue;
      const t = twoProportionTest(
        { successes: successes(a), trials: a.visits },
        { successes: successes(b), trials: b.visits },
        { minTrials: Math.max(1, minVisits) },
      );
      results.push({
        against: b.id,
        is_significant: t.isSignificant,
        best_variant: t.bestVariant,
        p_value: round(t.pValue, 4),
      });
    }
    out.set(a.id, results);
  }
  return out;
}

/** better: significant wins; worst: significant losses; insignificants: the rest. */
export function testSummary(tests: TestResult[]) {
  const better = tests.filter((t) => t.is_significant && t.best_variant === 1).length;
  const worst = tests.filter((t) => t.is_significant && t.best_variant === 2).length;
  return { better, worst, insignificants: tests.length - better - worst, total_tests: tests.length };
}

export async function landingTable(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  aggs: PlacementAgg[],
  withDeleted: boolean,
) {
  const byLanding = sumBy(aggs, (a) => a.landingId);
  const pages = (await items(env, 'landing_pages', c.id, withDeleted)).map((l) => ({
    ...l,
    ...(byLanding.get(l.id) ?? { visits: 0, lpClicks: 0, conversions: 0, revenue: 0, spend: 0 }),
  }));
  const tests = landingTests(pages, c.optimizationGoal || 'conversion_rate', c.minVisits);
  const rows = pages.map((p) => {
    const testData = tests.get(p.id) ?? [];
    return {
      page_id: p.id,
      landing_page: p.name,
      url: p.url ?? '',
      visits: p.visits,
      conversions: p.conversions,
      lpclicks: p.lpClicks,
      lpctr: lpCtr(p.lpClicks, p.visits),
      cr: cr(p.conversions, p.visits),
      cpa: money(cpa(p.spend, p.conversions)),
      ad_spent: money(p.spend),
      revenue: money(p.revenue),
      net: money(p.revenue - p.spend),
      cpa_value: dollars(cpa(p.spend, p.conversions)),
      ad_spent_value: dollars(p.spend),
      revenue_value: dollars(p.revenue),
      active: p.active,
      deleted: p.deleted,
      test_data: testData,
      test_summary: testSummary(testData),
    };
  });
  return { rows, total: totals(pages.map((p) => ({ ...p, impressions: 0, adClicks: 0 }))) };
}

/** Daily visitors for the activity chart, every day of the range present (0 when none). */
export async function activity(env: Pick<Env, 'DB'>, campaignId: number, b: DayBounds, timeZone: string) {
  const rows = await all(
    env,
    'SELECT day, sum(visits) v FROM target_daily WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3 GROUP BY day ORDER BY day',
    campaignId,
    b.from,
    b.to,
  );
  if (rows.length === 0) return [];
  const byDay = new Map(rows.map((r) => [String(r.day), n(r.v)]));
  const first = b.from === '0000-01-01' ? String(rows[0].day) : b.from;
  const today = dayInZone(Date.now(), timeZone);
  const last =
    b.to === '9999-12-31'
      ? String(rows[rows.length - 1].day) > today
        ? String(rows[rows.length - 1].day)
        : today
      : b.to;
  const out: { date: string; visitors: number }[] = [];
  for (let d = first; d <= last && out.length < 3700; d = addDays(d, 1))
    out.push({ date: d, visitors: byDay.get(d) ?? 0 });
  return out;
}

export async function campaignVisits(env: Pick<Env, 'DB'>, campaignId: number): Promise<number> {
  const row = await env.DB.prepare(
    'SELECT coalesce(sum(visits), 0) v FROM target_daily WHERE campaign_id = ?1',
  )
    .bind(campaignId)
    .first<{ v: number }>();
  return n(row?.v);
}

export type { StatisticsRequest };

/** Per-day totals for the dashboard (spec 1 §3 quick-stats): costs, visitors, LP clicks, revenue, conversions. */
export async function dailySeries(env: Pick<Env, 'DB'>, c: StatsCampaign, b: DayBounds) {
  const rows = await all(
    env,
    `SELECT day, sum(visits) v, sum(lp_clicks) l, sum(conversions) c, sum(revenue_micros) r,
      sum(impressions) i, sum(ad_clicks) a, sum(${SPEND}) s ${TD} GROUP BY day ORDER BY day`,
    c.id,
    b.from,
    b.to,
    c.cpcMicros,
  );
  return rows.map((r) => ({
    day: String(r.day),
    visits: n(r.v),
    lpClicks: n(r.l),
    conversions: n(r.c),
    revenue: n(r.r),
    impressions: n(r.i),
    adClicks: n(r.a),
    spend: n(r.s),
  }));
}
