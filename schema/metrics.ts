// The metric formulas of spec 1 §9, spec 3 §9 and spec 4 §9, defined once for the worker and
// the SPA. Money goes in as integer minor units (whatever the caller stores) and comes out in
// the same unit; a zero denominator gives 0; rounding follows the spec where it names one.

/** a / b, or 0 when b is 0 (or either is not a finite number). */
export function safeDiv(a: number, b: number): number {
  if (!b || !Number.isFinite(a) || !Number.isFinite(b)) return 0;
  return a / b;
}

/** Rounds half away from zero to `decimals`, without the binary drift of toFixed. */
export function round(value: number, decimals = 2): number {
  if (!Number.isFinite(value)) return 0;
  const factor = 10 ** decimals;
  const scaled = Math.abs(value) * factor;
  const rounded = Math.round(Number(scaled.toPrecision(15))) / factor;
  return value < 0 ? -rounded : rounded;
}

/** Ad CTR = ad clicks / impressions x 100, 2 decimals. */
export const adCtr = (clicks: number, impressions: number) => round(safeDiv(clicks, impressions) * 100, 2);
/** Landing-page CTR = LP clicks / visits x 100, 1 decimal on screens (totals: 2). */
export const lpCtr = (lpClicks: number, visits: number, decimals = 1) =>
  round(safeDiv(lpClicks, visits) * 100, decimals);
/** Conversion rate = conversions / visits x 100, 2 decimals. */
export const cr = (conversions: number, visits: number) => round(safeDiv(conversions, visits) * 100, 2);
/** Net profit = revenue - ad spend (minor units, exact). */
export const netProfit = (revenue: number, spend: number) => revenue - spend;
/** ROI = net profit / ad spend x 100, 2 decimals; 0 without spend. */
export const roi = (revenue: number, spend: number) => round(safeDiv(revenue - spend, spend) * 100, 2);
/** CPA = spend / conversions (minor units, unrounded: format at the edge). */
export const cpa = (spend: number, conversions: number) => safeDiv(spend, conversions);
/** CPC = spend / visitors. */
export const cpc = (spend: number, visitors: number) => safeDiv(spend, visitors);
/** EPC = revenue / visitors. */
export const epc = (revenue: number, visitors: number) => safeDiv(revenue, visitors);
/**
 * The clicks an ad's CPC and CTR divide by (docs/decisions/158): the platform's clicks where its
 * import brought some, the tracked visits otherwise; `from` says which, for the screens to show.
 */
export function adClickBase(
  adClicks: number,
  visits: number,
): { clicks: number; from: 'platform' | 'visits' } {
  return adClicks > 0 ? { clicks: adClicks, from: 'platform' } : { clicks: visits, from: 'visits' };
}
/** CPLPC = spend / landing-page clicks. */
export const cplpc = (spend: number, lpClicks: number) => safeDiv(spend, lpClicks);

/** The base counts every metric above derives from. */
export type MetricBase = {
  impressions: number;
  adClicks: number;
  visits: number;
  lpClicks: number;
  conversions: number;
  /** minor units */
  revenue: number;
  /** minor units */
  spend: number;
};

/** No counts: what a sum of bases starts from. */
export const emptyBase = (): MetricBase => ({
  impressions: 0,
  adClicks: 0,
  visits: 0,
  lpClicks: 0,
  conversions: 0,
  revenue: 0,
  spend: 0,
});

/** Two bases added count by count. */
export function addBase(a: MetricBase, b: MetricBase): MetricBase {
  return {
    impressions: a.impressions + b.impressions,
    adClicks: a.adClicks + b.adClicks,
    visits: a.visits + b.visits,
    lpClicks: a.lpClicks + b.lpClicks,
    conversions: a.conversions + b.conversions,
    revenue: a.revenue + b.revenue,
    spend: a.spend + b.spend,
  };
}

export type DerivedMetrics = {
  adCtr: number;
  lpCtr: number;
  cr: number;
  net: number;
  roi: number;
  cpa: number;
  cpc: number;
  epc: number;
  cplpc: number;
};

export function deriveMetrics(m: MetricBase): DerivedMetrics {
  return {
    adCtr: adCtr(m.adClicks, m.impressions),
    lpCtr: lpCtr(m.lpClicks, m.visits),
    cr: cr(m.conversions, m.visits),
    net: netProfit(m.revenue, m.spend),
    roi: roi(m.revenue, m.spend),
    cpa: cpa(m.spend, m.conversions),
    cpc: cpc(m.spend, m.visits),
    epc: epc(m.revenue, m.visits),
    cplpc: cplpc(m.spend, m.lpClicks),
  };
}

/** The dashboard graph series of spec 1 §2 / spec 4 §9. */
export const GRAPH_METRICS = [
  'ad_spent',
  'ad_ctr',
  'revenue',
  'roi',
  'net_profit',
  'cpc',
  'cplpc',
  'cpa',
  'epc',
] as const;
export type GraphMetric = (typeof GRAPH_METRICS)[number];

/** The derived metric each graph series reads, but for the two base counts it shows as they are. */
const GRAPH_DERIVED: Record<Exclude<GraphMetric, 'ad_spent' | 'revenue'>, keyof DerivedMetrics> = {
  ad_ctr: 'adCtr',
  roi: 'roi',
  net_profit: 'net',
  cpc: 'cpc',
  cplpc: 'cplpc',
  cpa: 'cpa',
  epc: 'epc',
};

/** One day's value of a graph series; money series in minor units. */
export function graphValue(metric: GraphMetric, m: MetricBase): number {
  if (metric === 'ad_spent') return m.spend;
  if (metric === 'revenue') return m.revenue;
  return deriveMetrics(m)[GRAPH_DERIVED[metric]];
}
