import { addDays } from '../../../schema/dates';
import { adClickBase, adCtr, cpa, cpc, cr, epc, lpCtr, roi, round, safeDiv } from '../../../schema/metrics';
import { EVENT_COLUMNS, type TargetRecord } from '../../../schema/stats-api';
import { undefinedRatios } from '../../../schema/undefined-ratios';
import type { Env } from '../../env';
import {
  all,
  type Counters,
  type DayBounds,
  dollars,
  n,
  rowTotals,
  SPEND,
  type StatsCampaign,
  TD,
} from './common';

// The target table: per-target sums from the daily and weekly rollups, and the row the spec's
// table shows. Money is summed in integer micro-units and turned into dollars only in the rows.

export type TargetAgg = Counters & {
  target: string;
  tokens: Record<string, string>;
  impressions: number;
  adClicks: number;
  spend: number;
  events: Record<string, number>;
};

export function emptyTarget(target: string, tokens: Record<string, string> = {}): TargetAgg {
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

/** Per-target sums over the days, with costs and event counts. */
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
    Object.assign(t, rowTotals(r));
    byTarget.set(t.target, t);
  }
  for (const e of events) {
    const t = byTarget.get(String(e.target));
    if (t) t.events[String(e.event)] = n(e.e);
  }
  return [...byTarget.values()];
}

/**
 * A target row as the spec's table shows it (spec 3 §3). `goal` is the campaign's conversion
 * event: it is the conversions column, so it is not repeated among the custom events.
 */
export function targetRow(t: TargetAgg, campaignId: number, goal = '') {
  const ev = (name: string) => t.events[name] ?? 0;
  const custom: Record<string, number> = {};
  for (const [event, count] of Object.entries(t.events))
    if (!(event in EVENT_COLUMNS) && event !== goal) custom[event] = count;
  const base = adClickBase(t.adClicks, t.visits);
  const row: TargetRecord = {
    target: t.target,
    CAMPAIGNID: campaignId,
    impressions: t.impressions,
    clicks: t.adClicks,
    visits: t.visits,
    ad_cpc: dollars(cpc(t.spend, base.clicks)),
    ctr: adCtr(base.clicks, t.impressions),
    ad_clicks_from: base.from,
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
    custom_events: custom,
    ...t.tokens,
  };
  for (const [event, column] of Object.entries(EVENT_COLUMNS)) row[column] = ev(event);
  row.event_lp_visits_cpc = dollars(safeDiv(t.spend, ev('lp')));
  row.event_lp_visits_ctr = round(safeDiv(ev('lp'), t.visits) * 100, 2);
  row.event_atc1_visits_cpc = dollars(safeDiv(t.spend, ev('atc1')));
  row.event_atc2_visits_cpc = dollars(safeDiv(t.spend, ev('atc2')));
  row.no_value = undefinedRatios({
    spend: t.spend,
    visits: t.visits,
    conversions: t.conversions,
    impressions: t.impressions,
    adClicks: base.clicks,
    lpClicks: t.lpClicks,
    events: { lp: ev('lp'), atc1: ev('atc1'), atc2: ev('atc2') },
  });
  return row;
}
