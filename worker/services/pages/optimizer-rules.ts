import { cr, epc, lpCtr, roi, round } from '../../../schema/metrics';
import { fromMicros } from '../../../schema/money';
import { twoProportionTest } from '../statistics/significance';

// The landing-page auto-optimiser's decisions, free of I/O so they can be tested exhaustively.

export const OPTIMIZATION_METRICS = ['cr', 'lpctr', 'epc', 'roi'] as const;
export type OptimizationMetric = (typeof OPTIMIZATION_METRICS)[number];
const OPTIMIZATION_GOALS = ['conversion_rate', 'lp_ctr'] as const;
export type OptimizationGoal = (typeof OPTIMIZATION_GOALS)[number];

export type PageNumbers = {
  id: number;
  name: string;
  active: boolean;
  visits: number;
  lpClicks: number;
  conversions: number;
  /** minor units */
  revenue: number;
  /** minor units */
  spend: number;
};

export type OptimizerSettings = {
  metric: OptimizationMetric;
  threshold: number;
  minVisits: number;
  goal: OptimizationGoal;
};

export type Decision = { id: number; name: string; reason: string; value: number };

/**
 * The page's value of the optimisation metric, in the unit the statistics show it and the editor's
 * threshold is typed in: percent for cr, lpctr and roi; dollars for epc.
 */
function metricValue(metric: OptimizationMetric, p: PageNumbers): number {
  switch (metric) {
    case 'cr':
      return cr(p.conversions, p.visits);
    case 'lpctr':
      return lpCtr(p.lpClicks, p.visits, 2);
    case 'epc':
      return round(fromMicros(epc(p.revenue, p.visits)), 4);
    case 'roi':
      return roi(p.revenue, p.spend);
  }
}

function goalSuccesses(goal: OptimizationGoal, p: PageNumbers) {
  return goal === 'lp_ctr' ? p.lpClicks : p.conversions;
}

/** True when some other active page beats `page` significantly on the goal (95 %). */
function losesSignificantly(
  page: PageNumbers,
  others: PageNumbers[],
  s: OptimizerSettings,
): PageNumbers | null {
  for (const other of others) {
    if (other.id === page.id || other.visits < s.minVisits) continue;
    const t = twoProportionTest(
      { successes: goalSuccesses(s.goal, page), trials: page.visits },
      { successes: goalSuccesses(s.goal, other), trials: other.visits },
      { minTrials: Math.max(1, s.minVisits) },
    );
    if (t.isSignificant && t.bestVariant === 2) return other;
  }
  return null;
}

/**
 * Which active pages to switch off: those with at least the minimum visits whose metric is
 * below the threshold (for ROI: only pages with spend), or that lose significantly to another
 * active page. Worst first, and never the last active page.
 */
export function pagesToDeactivate(pages: PageNumbers[], s: OptimizerSettings): Decision[] {
  const active = pages.filter((p) => p.active);
  const candidates: Decision[] = [];
  for (const page of active) {
    if (page.visits < s.minVisits) continue;
    const value = metricValue(s.metric, page);
    // ROI is undefined without spend (the formula answers 0): such a page, earning or not, is
    // never judged below an ROI threshold; only a significant loss can switch it off.
    const measurable = s.metric !== 'roi' || page.spend > 0;
    if (measurable && value < s.threshold) {
      candidates.push({
        id: page.id,
        name: page.name,
        value,
        reason: `${s.metric} ${value} below threshold ${s.threshold}`,
      });
      continue;
    }
    const winner = losesSignificantly(page, active, s);
    if (winner) {
      candidates.push({
        id: page.id,
        name: page.name,
        value,
        reason: `loses significantly to ${winner.name} on ${s.goal === 'lp_ctr' ? 'LP CTR' : 'conversion rate'}`,
      });
    }
  }
  candidates.sort((a, b) => a.value - b.value || a.id - b.id);
  const keep = active.length - 1;
  return candidates.slice(0, Math.max(0, Math.min(candidates.length, keep)));
}
