import {
  FILTER_CATEGORY,
  FILTERED_CATEGORIES,
  type FilteredCounts,
  type FilteredTrafficAnswer,
} from '../../../schema/stats-reports-api';
import type { Env } from '../../env';
import { all, type DayBounds, dollars } from './common';

// Filtered traffic per campaign and day (docs/decisions/111-filtered-traffic.md), read from the
// filtered_daily rollup the ingest transaction keeps (ingest-extras.ts).

const zero = (): FilteredCounts & { revenueMicros: number } => ({
  bot: 0,
  prefetch: 0,
  duplicate: 0,
  other: 0,
  clicks: 0,
  conversions: 0,
  revenue: 0,
  revenueMicros: 0,
});

export async function filteredTraffic(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  bounds: DayBounds,
): Promise<FilteredTrafficAnswer> {
  const rows = await all<{
    day: string;
    reason: string;
    clicks: number;
    conversions: number;
    revenue_micros: number;
  }>(
    env,
    `SELECT day, reason, clicks, conversions, revenue_micros FROM filtered_daily
     WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day DESC`,
    campaignId,
    bounds.from,
    bounds.to,
  );
  const byDay = new Map<string, ReturnType<typeof zero>>();
  const total = zero();
  for (const r of rows) {
    let day = byDay.get(r.day);
    if (!day) {
      day = zero();
      byDay.set(r.day, day);
    }
    const category = FILTER_CATEGORY[r.reason] ?? 'other';
    for (const into of [day, total]) {
      into[category] += r.clicks;
      into.clicks += r.clicks;
      into.conversions += r.conversions;
      into.revenueMicros += r.revenue_micros;
    }
  }
  const out = ({ revenueMicros, ...c }: ReturnType<typeof zero>): FilteredCounts => ({
    ...c,
    revenue: dollars(revenueMicros),
  });
  return {
    days: [...byDay].map(([day, c]) => ({ day, ...out(c) })),
    total: out(total),
  };
}

/** The categories in table order, for the screen and the export. */
export const FILTERED_COLUMNS = ['clicks', ...FILTERED_CATEGORIES, 'conversions', 'revenue'] as const;
