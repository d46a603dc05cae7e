import type { Env } from '../../env';
import type { DayBounds, StatsCampaign } from '../statistics/common';
import { emptyTarget, type TargetAgg, targetAggregates } from '../statistics/targets';
import { type LandingTokenGroup, landingTokenAggregates, targetTokenAggregates } from '../statistics/tokens';
import { type ArchivedRow, readArchive } from './raw-archive';

// Drill-downs that need raw rows (the CSV export grouped by extra tokens, the landing table grouped
// by tokens) read D1 and, for the
// days moved to R2, the archive, so archiving changes where rows are, never the numbers.

/** The archived rows of a campaign's days within the bounds, oldest day first. */
export async function archivedRows(
  env: Pick<Env, 'DB' | 'BUCKET'>,
  campaignId: number,
  b: DayBounds,
): Promise<ArchivedRow[]> {
  const { results } = await env.DB.prepare(
    'SELECT object_key FROM raw_archives WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day',
  )
    .bind(campaignId, b.from, b.to)
    .all<{ object_key: string }>();
  const rows: ArchivedRow[] = [];
  for (const { object_key } of results) rows.push(...(await readArchive(env, object_key)));
  return rows;
}

type Slots = { slot: number; parameter: string }[];
type TokenGroup = {
  tokens: Record<string, string>;
  visits: number;
  lpClicks: number;
  conversions: number;
  revenue: number;
};

const groupKey = (id: string | number, tokens: Record<string, string>, slots: Slots) =>
  [id, ...slots.map((s) => tokens[s.parameter])].join('\u0000');

/**
 * Adds the archived rows that count (visits and landing clicks that passed the filter, landing
 * clicks and conversions of a known visit) to `groups`, keyed by `idOf(row)` and the row's tokens;
 * a group not there yet is made by `empty`, and `onConversion` adds what a kind of group counts
 * beside the sums.
 */
function addArchived<G extends TokenGroup>(
  groups: Map<string, G>,
  archived: ArchivedRow[],
  slots: Slots,
  idOf: (r: ArchivedRow) => string | number,
  empty: (id: string | number, tokens: Record<string, string>) => G,
  onConversion?: (g: G, r: ArchivedRow) => void,
) {
  for (const r of archived) {
    const counted =
      r.kind === 'visit'
        ? r.filter == null
        : r.kind === 'lp_click'
          ? r.filter == null && !r.orphan
          : !r.orphan;
    if (!counted) continue;
    const id = idOf(r);
    const tokens = Object.fromEntries(slots.map((s) => [s.parameter, String(r[`t${s.slot}`] ?? '')]));
    const key = groupKey(id, tokens, slots);
    let g = groups.get(key);
    if (!g) {
      g = empty(id, tokens);
      groups.set(key, g);
    }
    if (r.kind === 'visit') g.visits += 1;
    else if (r.kind === 'lp_click') g.lpClicks += 1;
    else {
      g.conversions += Number(r.is_goal ?? 0);
      g.revenue += Number(r.payout_micros ?? 0);
      onConversion?.(g, r);
    }
  }
}

/**
 * targetTokenAggregates over D1 and the archive together: the same groups, sums and shared-out
 * costs as if no day had been archived.
 */
export async function targetTokenAggregatesWithArchive(
  env: Pick<Env, 'DB' | 'BUCKET'>,
  c: StatsCampaign,
  b: DayBounds,
  slots: Slots,
): Promise<TargetAgg[]> {
  const [live, archived, targets] = await Promise.all([
    targetTokenAggregates(env, c, b, slots),
    archivedRows(env, c.id, b),
    targetAggregates(env, c, b),
  ]);
  if (archived.length === 0) return live;
  const groups = new Map<string, TargetAgg>();
  for (const g of live) groups.set(groupKey(g.target, g.tokens, slots), g);
  addArchived(
    groups,
    archived,
    slots,
    (r) => String(r.target ?? ''),
    (target, tokens) => emptyTarget(String(target), tokens),
    (g, r) => {
      const event = String(r.event);
      g.events[event] = (g.events[event] ?? 0) + 1;
    },
  );
  // Costs shared by visits, as targetTokenAggregates does, now over both halves.
  const byTarget = new Map(targets.map((t) => [t.target, t]));
  for (const g of groups.values()) {
    const t = byTarget.get(g.target);
    const share = t && t.visits > 0 && g.visits > 0 ? g.visits / t.visits : 0;
    g.spend = t ? Math.round(t.spend * share) : 0;
    g.impressions = t ? Math.round(t.impressions * share) : 0;
    g.adClicks = t ? Math.round(t.adClicks * share) : 0;
  }
  return [...groups.values()];
}

/** landingTokenAggregates over D1 and the archive together (the landing table grouped by tokens). */
export async function landingTokenAggregatesWithArchive(
  env: Pick<Env, 'DB' | 'BUCKET'>,
  c: StatsCampaign,
  b: DayBounds,
  slots: Slots,
): Promise<Map<number, LandingTokenGroup[]>> {
  const [live, archived] = await Promise.all([
    landingTokenAggregates(env, c, b, slots),
    archivedRows(env, c.id, b),
  ]);
  if (archived.length === 0) return live;
  const groups = new Map<string, LandingTokenGroup>();
  for (const list of live.values())
    for (const g of list) groups.set(groupKey(g.landingId, g.tokens, slots), g);
  addArchived(
    groups,
    archived,
    slots,
    (r) => Number(r.landing_id ?? 0),
    (landingId, tokens) => ({
      landingId: Number(landingId),
      tokens,
      visits: 0,
      lpClicks: 0,
      conversions: 0,
      revenue: 0,
    }),
  );
  const byLanding = new Map<number, LandingTokenGroup[]>();
  for (const g of groups.values()) byLanding.set(g.landingId, [...(byLanding.get(g.landingId) ?? []), g]);
  return byLanding;
}
