#!/usr/bin/env node
// Public rotator report benchmark (npm run bench:rotator), one run, docs/performance.md:
//   1. a cached report answer (the edge cache, docs/decisions/053) against a bare Worker that
//      answers the same JSON, both on Miniflare directly, autocannon on 127.0.0.1, alternating
//      rounds so that a busy machine slows both alike;
//   2. uncached answers over a year of daily data for one offer: every request a new cache key,
//      so each reads D1 (the rollups of 365 days of a rotator with 5 offers and 20 targets).
// Environment: BENCH_REQUESTS (default 30000), BENCH_ROUNDS (5), BENCH_CONNECTIONS (32),
// BENCH_UNCACHED (200).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import {
  applyMigrations,
  bundleWorker,
  fmt,
  loadRun,
  loadSettings,
  log,
  percentile,
  root,
  runAndExit,
  startBare,
  summarize,
  trackerOptions,
  verdict,
} from './harness.mjs';

const { REQUESTS, CONNECTIONS, ROUNDS } = loadSettings(30_000);
const UNCACHED = Number(process.env.BENCH_UNCACHED ?? 200);
const WARMUP = 2_000;
const day = (offset) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

// ---- bundle the Worker exactly as a deploy would ------------------------------------------------
const { work, out, script } = bundleWorker('bench-rotator');
const tracker = new Miniflare(trackerOptions({ out, script }));

let bare = null;

async function main() {
  const trackerUrl = await tracker.ready;
  const db = await tracker.getD1Database('DB');
  await applyMigrations(db);

  // ---- a rotator with 5 participant offers and a year of daily rollups ------------------------
  log('Seeding a rotator: 5 offers, 20 targets, 365 days...');
  const start = day(-364);
  await db.batch([
    db.prepare(
      "INSERT INTO campaigns (id, name, campaign_type, cpc_micros) VALUES (1, 'Bench rotator', 'rotator', 250000)",
    ),
    ...[1, 2, 3, 4, 5].map((i) =>
      db
        .prepare(
          'INSERT INTO offer_pages (id, campaign_id, name, url, share, payout_micros, rotator_participant_email, created_at) VALUES (?1, 1, ?2, ?3, 20, 20000000, ?4, 0)',
        )
        .bind(i, `Participant ${i}`, `https://offer.example/${i}`, `p${i}@example.com`),
    ),
    db
      .prepare(
        `WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < 364),
           o(id) AS (VALUES (1), (2), (3), (4), (5))
         INSERT INTO placement_daily (campaign_id, day, path_id, landing_id, offer_id, visits, lp_clicks, conversions, revenue_micros)
         SELECT 1, date(?1, '+' || n || ' days'), 0, 0, o.id, 100 + (n * 7 + o.id * 13) % 400, 0,
           (n + o.id) % 9, ((n + o.id) % 9) * 20000000 FROM d, o`,
      )
      .bind(start),
    db
      .prepare(
        `WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < 364),
           t(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM t WHERE i < 19)
         INSERT INTO target_daily (campaign_id, day, target, visits, has_cost, spend_micros)
         SELECT 1, date(?1, '+' || n || ' days'), 'creative-' || i, 60 + (n + i) % 50, (n % 3 > 0), (40 + (n * i) % 90) * 1000000
         FROM d, t`,
      )
      .bind(start),
  ]);
  const rows = await db.prepare('SELECT count(*) AS n FROM placement_daily').first();
  log(
    `  ${fmt(rows.n)} placement rows, ${fmt((await db.prepare('SELECT count(*) AS n FROM target_daily').first()).n)} target rows`,
  );

  const cachedPath = `/api/rotators/reports/3/data?group_by=month&start_date=${start}&email=p3%40example.com`;
  const first = await fetch(new URL(cachedPath, trackerUrl));
  const body = await first.text();
  if (first.status !== 200) throw new Error(`report answered ${first.status}: ${body}`);
  // The baseline answers the same bytes with the same headers and does nothing else.
  bare = startBare(`const body = ${JSON.stringify(body)};
export default { fetch() { return new Response(body, { headers: { 'content-type': 'application/json',
  'cache-control': 'private, max-age=60', etag: '"0123456789abcdef0123456789abcdef"' } }); } };`);
  const bareUrl = await bare.ready;

  const run = (url, amount) =>
    loadRun({ url: new URL(cachedPath, url).toString(), connections: CONNECTIONS, amount, okStatus: 200 });
  const total = summarize;

  // ---- 1. cached answer vs the bare Worker ---------------------------------------------------
  const hit = await fetch(new URL(cachedPath, trackerUrl));
  await hit.arrayBuffer();
  log(`Cache check: second answer x-report-cache=${hit.headers.get('x-report-cache')}`);
  log(`Warming up (${WARMUP} requests each)...`);
  await run(bareUrl, WARMUP);
  await run(trackerUrl, WARMUP);
  const perRound = Math.ceil(REQUESTS / ROUNDS);
  const bareRuns = [];
  const cachedRuns = [];
  for (let round = 1; round <= ROUNDS; round++) {
    log(
      `Round ${round}/${ROUNDS}: ${fmt(perRound)} requests to each Worker at ${CONNECTIONS} connections...`,
    );
    bareRuns.push(await run(bareUrl, perRound));
    cachedRuns.push(await run(trackerUrl, perRound));
  }
  const baseline = total(bareRuns);
  const cached = total(cachedRuns);

  // ---- 2. uncached answers over a year -----------------------------------------------------------
  log(`Uncached: ${UNCACHED} day reports and ${UNCACHED} month reports over a year, each a new cache key...`);
  const timed = async (path) => {
    const t = performance.now();
    const res = await fetch(new URL(path, trackerUrl));
    const text = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200 || res.headers.get('x-report-cache') !== 'miss')
      throw new Error(`expected a miss: ${res.status} ${text}`);
    return { ms, rows: JSON.parse(text).data.report.length };
  };
  const dayTimes = [];
  const monthTimes = [];
  let dayRows = 0;
  for (let i = 0; i < UNCACHED; i++) {
    // A year of days ending today, then ending one day earlier...: every key is new.
    const d = await timed(
      `/api/rotators/reports/3/data?group_by=day&start_date=${day(-364 - (i % 20))}&end_date=${day(-Math.floor(i / 20))}&email=p3%40example.com`,
    );
    dayTimes.push(d.ms);
    dayRows = Math.max(dayRows, d.rows);
    const m = await timed(
      `/api/rotators/reports/3/data?group_by=month&start_date=${day(-365 - i)}&email=p3%40example.com`,
    );
    monthTimes.push(m.ms);
  }
  dayTimes.sort((a, b) => a - b);
  monthTimes.sort((a, b) => a - b);

  // ---- report ------------------------------------------------------------------------------
  const ratio = cached.rps / baseline.rps;
  const dayP50 = percentile(dayTimes, 50);
  const monthP50 = percentile(monthTimes, 50);
  const line = (name, s) =>
    `${name.padEnd(18)} ${fmt(s.requests).padStart(7)} req  ${fmt(s.rps).padStart(6)} req/s  p50 ${fmt(s.p50, 1).padStart(5)} ms  p99 ${fmt(s.p99, 1).padStart(5)} ms  errors ${s.errors}`;
  log('');
  log(
    `Edge Tracker rotator report benchmark  (node ${process.version}, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds, Miniflare direct, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')})`,
  );
  log(line('bare Worker', baseline));
  log(line('cached report', cached));
  log(`throughput ratio cached/bare  ${fmt(ratio, 2)}   (target >= 0.80: ${verdict(ratio >= 0.8)})`);
  log(
    `uncached, a year by day      p50 ${fmt(dayP50, 1)} ms  p99 ${fmt(percentile(dayTimes, 99), 1)} ms  (${dayRows} rows, ${UNCACHED} requests)   (target p50 < 50 ms: ${verdict(dayP50 < 50)})`,
  );
  log(
    `uncached, a year by month    p50 ${fmt(monthP50, 1)} ms  p99 ${fmt(percentile(monthTimes, 99), 1)} ms  (${UNCACHED} requests)   (target p50 < 50 ms: ${verdict(monthP50 < 50)})`,
  );
  mkdirSync(join(root, '.bench'), { recursive: true });
  writeFileSync(
    join(root, '.bench/rotator.json'),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        loadAverage: loadavg(),
        baseline: { ...baseline },
        cached: { ...cached },
        ratio,
        uncachedDay: { p50: dayP50, p99: percentile(dayTimes, 99), rows: dayRows },
        uncachedMonth: { p50: monthP50, p99: percentile(monthTimes, 99) },
      },
      null,
      2,
    )}\n`,
  );
  return cached.errors === 0 ? 0 : 1;
}

await runAndExit(main, { instances: () => [tracker, bare], folders: [work] });
