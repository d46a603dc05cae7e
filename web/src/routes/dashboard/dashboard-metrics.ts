// The dashboard's totals and graph series from quick-stats-v2's daily lists, with the shared
// formulas of schema/metrics.ts. Money is summed in cents (integers), never as floats.
import {
  adCtr,
  addBase,
  cpa,
  emptyBase,
  type GraphMetric,
  graphValue,
  lpCtr,
  type MetricBase,
  netProfit,
} from '../../../../schema/metrics';
import type { QuickStats } from '../../../../schema/stats-api';
import { undefinedRatios } from '../../../../schema/undefined-ratios';

const cents = (dollars: number) => Math.round((dollars || 0) * 100);

export type DayBase = MetricBase & { date: string };

/** One row per day present in any of the three lists, in date order; money in cents. */
export function dailyBases(q: QuickStats): DayBase[] {
  const days = new Map<string, DayBase>();
  const day = (date: string) => {
    let d = days.get(date);
    if (!d) {
      d = { date, impressions: 0, adClicks: 0, visits: 0, lpClicks: 0, conversions: 0, revenue: 0, spend: 0 };
      days.set(date, d);
    }
    return d;
  };
  for (const r of q.liveintent.reports) {
    const d = day(r.date);
    d.spend += cents(r.advertiserSpent);
    d.adClicks += r.clicks;
    d.impressions += r.impressions;
  }
  for (const v of q.visitors) {
    const d = day(v.date);
    d.visits += v.visitors;
    d.lpClicks += v.lpclicks;
    d.revenue += cents(v.revenue);
  }
  for (const c of q.conversions) day(c.date).conversions += c.conversions;
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

export type DashboardTotals = {
  /** dollars */
  adSpend: number;
  revenue: number;
  net: number;
  cpa: number;
  conversions: number;
  clicks: number;
  visitors: number;
  /** percent, 1 decimal */
  lpCtr: number;
  /** percent, 2 decimals */
  adCtr: number;
  /** The tiles' ratios without a value (a 0 denominator), by tile key, with why (issue 27). */
  none: Record<string, string>;
};

export function dashboardTotals(days: readonly DayBase[]): DashboardTotals {
  const s = days.reduce(addBase, emptyBase());
  return {
    adSpend: s.spend / 100,
    revenue: s.revenue / 100,
    net: netProfit(s.revenue, s.spend) / 100,
    cpa: Math.round(cpa(s.spend, s.conversions)) / 100,
    conversions: s.conversions,
    clicks: s.adClicks,
    visitors: s.visits,
    lpCtr: lpCtr(s.lpClicks, s.visits, 1),
    adCtr: adCtr(s.adClicks, s.impressions),
    none: tileNoValue(s),
  };
}

/** The dashboard tiles' keys of the ratios of schema/undefined-ratios.ts. */
function tileNoValue(s: MetricBase): Record<string, string> {
  const none = undefinedRatios(s);
  const out: Record<string, string> = {};
  if (none.cpa) out.cpa = none.cpa;
  if (none.lpctr) out.lp_ctr = none.lpctr;
  if (none.ctr) out.ad_ctr = none.ctr;
  return out;
}

export const GRAPH_LABELS: Record<GraphMetric, string> = {
  ad_spent: 'Ad spend',
  ad_ctr: 'Ad CTR',
  revenue: 'Revenue',
  roi: 'ROI',
  net_profit: 'Net profit',
  cpc: 'CPC',
  cplpc: 'CPLPC',
  cpa: 'CPA',
  epc: 'EPC',
};

export const PERCENT_METRICS: readonly GraphMetric[] = ['ad_ctr', 'roi'];
/** ROI and net-profit bars are green at or above 0 and red below (spec 1 §9). */
export const SIGNED_METRICS: readonly GraphMetric[] = ['roi', 'net_profit'];

/** A day's value: percents as they are (2 decimals), money in dollars rounded to cents. */
export function graphPoint(metric: GraphMetric, d: DayBase): number {
  const v = graphValue(metric, d);
  return PERCENT_METRICS.includes(metric) ? v : Math.round(v) / 100;
}
