import { cpa, cr, lpCtr, round } from '../../../schema/metrics';
import { formatMicrosAsDollars } from '../../../schema/money';
import type { TestResult, TestSummary } from '../../../schema/stats-api';
import type { Env } from '../../env';
import { dollars, type StatsCampaign } from './common';
import { items, type PlacementAgg, sumBy } from './placements';
import { twoProportionTest } from './significance';
import type { LandingTokenGroup } from './tokens';
import { totals } from './totals';

// The landing table: per-page sums, money as the spec's text, and the pairwise significance tests
// of the campaign's active pages (docs/statistics.md "Landing-page tests").

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
export function testSummary(tests: TestResult[]): TestSummary {
  const better = tests.filter((t) => t.is_significant && t.best_variant === 1).length;
  const worst = tests.filter((t) => t.is_significant && t.best_variant === 2).length;
  return { better, worst, insignificants: tests.length - better - worst, total_tests: tests.length };
}

/**
 * The landing table. With `grouping`, a page gives one row per combination of the grouped
 * extra tokens' values (its spend shared out by visits, its tests those of the whole page); a page
 * without visits keeps one row with empty values. `keep` leaves rows out (noInputTokens); the
 * totals are those of the rows kept.
 */
export async function landingTable(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  aggs: PlacementAgg[],
  withDeleted: boolean,
  grouping?: {
    parameters: string[];
    groups: Map<number, LandingTokenGroup[]>;
    keep: (tokens: Record<string, string>) => boolean;
  },
) {
  const byLanding = sumBy(aggs, (a) => a.landingId);
  const pages = (await items(env, 'landing_pages', c.id, withDeleted)).map((l) => ({
    ...l,
    ...(byLanding.get(l.id) ?? { visits: 0, lpClicks: 0, conversions: 0, revenue: 0, spend: 0 }),
  }));
  const tests = landingTests(pages, c.optimizationGoal || 'conversion_rate', c.minVisits);
  const units = grouping
    ? pages.flatMap((p) => {
        const groups = grouping.groups.get(p.id) ?? [];
        const list = groups.length
          ? groups.map((g) => ({
              ...g,
              spend: p.visits > 0 ? Math.round((p.spend * g.visits) / p.visits) : 0,
            }))
          : [
              {
                tokens: Object.fromEntries(grouping.parameters.map((k) => [k, ''])),
                visits: 0,
                lpClicks: 0,
                conversions: 0,
                revenue: 0,
                spend: 0,
              },
            ];
        return list.filter((u) => grouping.keep(u.tokens)).map((u) => ({ page: p, ...u }));
      })
    : pages.map((p) => ({ page: p, ...p, tokens: {} as Record<string, string> }));
  const rows = units.map((u) => {
    const p = u.page;
    const testData = tests.get(p.id) ?? [];
    return {
      page_id: p.id,
      landing_page: p.name,
      url: p.url ?? '',
      ...u.tokens,
      visits: u.visits,
      conversions: u.conversions,
      lpclicks: u.lpClicks,
      lpctr: lpCtr(u.lpClicks, u.visits),
      cr: cr(u.conversions, u.visits),
      cpa: formatMicrosAsDollars(cpa(u.spend, u.conversions)),
      ad_spent: formatMicrosAsDollars(u.spend),
      revenue: formatMicrosAsDollars(u.revenue),
      net: formatMicrosAsDollars(u.revenue - u.spend),
      cpa_value: dollars(cpa(u.spend, u.conversions)),
      ad_spent_value: dollars(u.spend),
      revenue_value: dollars(u.revenue),
      active: p.active,
      deleted: p.deleted,
      test_data: testData,
      test_summary: testSummary(testData),
    };
  });
  return { rows, total: totals(units.map((u) => ({ ...u, impressions: 0, adClicks: 0 }))) };
}
