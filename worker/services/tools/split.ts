import type { SplitAnswer, SplitPool, SplitRow } from '../../../schema/tools-api';
import {
  type CompiledCampaign,
  type Device,
  eligible,
  type Rng,
  type RoutedOffer,
  routeOffer,
  routeVisit,
} from '../hot-path/routing';

// N dry runs of the routing and the observed split against the configured shares. Each item is
// compared within its pool (the set it is picked from: the campaign, a path, an option), since
// that is the share the marketer typed. Tolerance: ±4 percentage points at 1,000 runs of a pool,
// scaled by 1/√n (about 2.5 standard errors for a 50% share), and a chi-square test per pool
// at p = 0.001 (docs/decisions/060-link-tester-dry-run.md).

const TOLERANCE_PCT_AT_1000 = 4;

/** Chi-square critical values at p = 0.001 for 1..30 degrees of freedom. */
const CRITICAL_001 = [
  10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124, 27.877, 29.588, 31.264, 32.909, 34.528,
  36.123, 37.697, 39.252, 40.79, 42.312, 43.82, 45.315, 46.797, 48.268, 49.728, 51.179, 52.62, 54.052, 55.476,
  56.892, 58.301, 59.703,
];

export function chiSquareCritical(df: number): number {
  if (df <= 0) return 0;
  if (df <= CRITICAL_001.length) return CRITICAL_001[df - 1];
  // Wilson–Hilferty beyond the table: a little high (under 0.5%), so a split is never called off too soon.
  const z = 3.0902;
  const a = 2 / (9 * df);
  return df * (1 - a + z * Math.sqrt(a)) ** 3;
}

export function tolerancePct(runs: number): number {
  return runs > 0 ? Math.round(TOLERANCE_PCT_AT_1000 * Math.sqrt(1000 / runs) * 100) / 100 : 0;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export type NameOf = (level: SplitRow['level'], id: number) => string;

/** The pool of an offer as routeOffer picks it: the path's, the option's, else the campaign's. */
export function offerPoolKey(campaign: CompiledCampaign, offer: Pick<RoutedOffer, 'pathId' | 'optionId'>) {
  if (campaign.type === 'multiple_path_type') return `path:${offer.pathId}`;
  if (campaign.type === 'multiple_option_type') return `option:${offer.optionId}`;
  return 'campaign';
}

export function landingPoolKey(campaign: CompiledCampaign, pathId: number) {
  return campaign.type === 'multiple_path_type' ? `path:${pathId}` : 'campaign';
}

/**
 * Runs the routing `runs` times for a visitor on `device` and answers each chosen item's count
 * against its configured share within its pool.
 */
export function simulateSplit(
  campaign: CompiledCampaign,
  device: Device,
  optionId: number,
  runs: number,
  rng: Rng,
  names: { name: NameOf; poolName: (pool: string) => string },
): SplitAnswer {
  const counts = new Map<string, number>();
  const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const landingCampaign = campaign.type !== 'direct_link' && campaign.type !== 'rotator';
  for (let i = 0; i < runs; i++) {
    const route = routeVisit(campaign, device, rng);
    if (route.kind === 'none') continue;
    if (campaign.type === 'multiple_path_type') bump(`path|${route.pathId}`);
    if (route.kind === 'offer') {
      bump(`offer|${route.offer.id}`);
      continue;
    }
    bump(`landing|${route.landing.id}`);
    if (landingCampaign) {
      const routed = routeOffer(campaign, { pathId: route.pathId, optionId }, device, rng);
      if (routed) bump(`offer|${routed.offer.id}`);
    }
  }

  // Configured shares: each eligible item's share within its pool.
  type Item = { level: SplitRow['level']; id: number; share: number; pool: string };
  const items: Item[] = [];
  const landings = eligible(campaign.landings, device);
  if (campaign.type === 'multiple_path_type') {
    for (const p of eligible(campaign.paths, device).filter((p) => landings.some((l) => l.pathId === p.id)))
      items.push({ level: 'path', id: p.id, share: p.share, pool: 'paths' });
  }
  if (landingCampaign) {
    for (const l of landings)
      items.push({ level: 'landing', id: l.id, share: l.share, pool: landingPoolKey(campaign, l.pathId) });
  }
  for (const o of eligible(campaign.offers, device))
    items.push({ level: 'offer', id: o.id, share: o.share, pool: offerPoolKey(campaign, o) });

  const poolShare = new Map<string, number>();
  const poolRuns = new Map<string, number>();
  const poolKey = (item: Item) => `${item.level}|${item.pool}`;
  for (const item of items) {
    poolShare.set(poolKey(item), (poolShare.get(poolKey(item)) ?? 0) + item.share);
    poolRuns.set(
      poolKey(item),
      (poolRuns.get(poolKey(item)) ?? 0) + (counts.get(`${item.level}|${item.id}`) ?? 0),
    );
  }
  const rows: SplitRow[] = [];
  const pools = new Map<string, SplitPool>();
  for (const item of items) {
    const key = poolKey(item);
    const n = poolRuns.get(key) ?? 0;
    if (n === 0) continue;
    const count = counts.get(`${item.level}|${item.id}`) ?? 0;
    const expected = item.share / (poolShare.get(key) ?? 1);
    const tolerance = tolerancePct(n);
    const observedPct = round2((count / n) * 100);
    const configuredPct = round2(expected * 100);
    rows.push({
      level: item.level,
      id: item.id,
      name: names.name(item.level, item.id),
      pool: item.pool,
      poolName: names.poolName(item.pool),
      poolRuns: n,
      count,
      configuredPct,
      observedPct,
      withinTolerance: Math.abs(observedPct - configuredPct) <= tolerance,
    });
    let pool = pools.get(key);
    if (!pool) {
      pool = {
        level: item.level,
        pool: item.pool,
        poolName: names.poolName(item.pool),
        runs: n,
        tolerancePct: tolerance,
        chiSquare: 0,
        degreesOfFreedom: -1,
        critical: 0,
        consistent: true,
      };
      pools.set(key, pool);
    }
    pool.chiSquare += (count - n * expected) ** 2 / (n * expected);
    pool.degreesOfFreedom += 1;
  }
  for (const pool of pools.values()) {
    pool.chiSquare = round2(pool.chiSquare);
    pool.critical = round2(chiSquareCritical(pool.degreesOfFreedom));
    pool.consistent = pool.degreesOfFreedom === 0 || pool.chiSquare <= pool.critical;
  }
  return { runs, rows, pools: [...pools.values()] };
}
