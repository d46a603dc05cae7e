// The seeded benchmarks' integer hash (tests/bench/stats-worker.ts, ui-worker.ts).

/** A 32-bit integer hash (lowbias32), so targets and token values do not follow the day. */
export function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}
