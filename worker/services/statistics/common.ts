import { round } from '../../../schema/metrics';
import { fromMicros } from '../../../schema/money';
import type { Env } from '../../env';

// What every part of the statistics shares: the campaign fields a report needs, day bounds, the
// raw-query helper and money as dollar numbers (docs/statistics.md; the landing table's money
// text is schema/money.ts formatMicrosAsDollars).

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

export type Counters = { visits: number; lpClicks: number; conversions: number; revenue: number };

// target_daily carries each key's effective cost (worker/services/statistics/costs.ts); without one, spend is
// the campaign's CPC (?4) times the visits. A report is then one grouped range scan.
export const SPEND = 'CASE WHEN has_cost = 1 THEN spend_micros ELSE visits * ?4 END';
export const TD = 'FROM target_daily WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3';

export type Row = Record<string, number | string | null>;
export const n = (v: unknown) => Number(v ?? 0);

export async function all<T = Row>(env: Pick<Env, 'DB'>, query: string, ...params: unknown[]): Promise<T[]> {
  const { results } = await env.DB.prepare(query)
    .bind(...params)
    .all<T>();
  return results;
}

/** Micro-units as dollars rounded to cents, for the numeric columns. */
export const dollars = (micros: number) => round(fromMicros(micros), 2);

/**
 * The groups of a by-token report, keyed by `keyColumn` and the token values (columns k0, k1…
 * of the row, one a slot): `group(row)` finds the row's group, or makes it with `make` from
 * the row and its token values by parameter.
 */
export function tokenGroups<G>(
  slots: { parameter: string }[],
  keyColumn: string,
  make: (r: Row, tokens: Record<string, string>) => G,
) {
  const groups = new Map<string, G>();
  const group = (r: Row) => {
    const values = slots.map((_, i) => String(r[`k${i}`] ?? ''));
    const key = [r[keyColumn], ...values].join('\u0000');
    let g = groups.get(key);
    if (!g) {
      g = make(r, Object.fromEntries(slots.map((s, i) => [s.parameter, values[i]])));
      groups.set(key, g);
    }
    return g;
  };
  return { groups, group };
}

/** The counters and ad figures of a row summed as v, l, c, r (counters) and i, a, s (impressions, ad clicks, spend). */
export const rowTotals = (r: Row) => ({
  visits: n(r.v),
  lpClicks: n(r.l),
  conversions: n(r.c),
  revenue: n(r.r),
  impressions: n(r.i),
  adClicks: n(r.a),
  spend: n(r.s),
});
