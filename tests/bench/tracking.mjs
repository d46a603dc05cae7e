#!/usr/bin/env node
// Tracking benchmark (npm run bench:tracking), one run, numbers relative to a baseline measured
// in the same run (docs/performance.md):
//   1. tracked clicks against the real Worker vs the same number against a bare redirect Worker,
//      both on Miniflare directly (not behind the wrangler dev proxy), autocannon on 127.0.0.1;
//   2. the queue drained: persisted visits against successful responses (must be equal);
//   3. ingest throughput: events persisted per second, sent as queue messages of 100 events.
// The two Workers are driven in alternating rounds (5 x 10,000 requests each by default), so
// that a busy machine slows both alike; the workerd CPU time per request is printed as well,
// which stays meaningful when other processes compete for the cores.
// Traffic is realistic (issue 16): each request takes the next of ~300 user agents shipped in
// tests/bench/user-agents.txt and the next of several campaigns, one request in five is a
// landing-page click (/click/{id}); the bare Worker gets the same mix. A cold phase restarts the
// tracked Worker's isolate and prints single-click latencies: a new isolate's first click, a
// campaign with no copy anywhere (one D1 read), one with the data centre's copy (Cache API), and
// the warm click, plus the tracked-minus-bare CPU per click.
// Environment: BENCH_REQUESTS (default 50000), BENCH_ROUNDS (5), BENCH_CONNECTIONS (32),
// BENCH_INGEST_MESSAGES (400), BENCH_DURABLE_REQUESTS (half of BENCH_REQUESTS: the durable-mode
// run), BENCH_PROFILE=1 (after the report, one more round of each Worker under V8's sampling
// profiler: CPU per click by isolate, stage and function, tests/bench/profile.mjs), BENCH_PERF=1
// (after the report, one more round of each Worker under Linux perf: instructions and cycles per
// request and the cycles of each part of the process, tests/bench/native-profile.mjs). BENCH_NO_CONSUMER=1 runs the tracked Worker without its ingest consumer (events pile up in
// the local queue): for diagnosis only, it measures the redirect alone, without the queue and D1 work that Miniflare runs on the same thread; drain and ingest are skipped.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import {
  applyMigrations,
  trackerOptions as benchTrackerOptions,
  bundleWorker,
  cpuOf,
  fmt,
  freePort,
  INGEST_CONSUMER,
  loadRun,
  loadSettings,
  log,
  root,
  runAndExit,
  sleep,
  startBare,
  summarize,
  verdict,
  workerdProcesses,
} from './harness.mjs';
import { perfMissing, printNativeProfile, startNativeProfile } from './native-profile.mjs';
import { bundleFiles, printProfile, startProfiles, summarizeProfiles } from './profile.mjs';

const { REQUESTS, CONNECTIONS, ROUNDS } = loadSettings(50_000);
const NO_CONSUMER = Boolean(process.env.BENCH_NO_CONSUMER);
const INGEST_MESSAGES = Number(process.env.BENCH_INGEST_MESSAGES ?? 400);
const DURABLE_REQUESTS = Number(process.env.BENCH_DURABLE_REQUESTS ?? Math.ceil(REQUESTS / 2));
const EVENTS_PER_MESSAGE = 100;
const WARMUP = 3_000;
const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const USER_AGENTS = readFileSync(new URL('./user-agents.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#'));
/** Campaigns the rounds spread their clicks over; COLD_CAMPAIGNS more are first clicked in the cold phase. */
const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 5);
const COLD_CAMPAIGNS = 10;
const PROFILE = Boolean(process.env.BENCH_PROFILE);
/** BENCH_PERF=1: one more round of each Worker under Linux perf (tests/bench/native-profile.mjs). */
const PERF = Boolean(process.env.BENCH_PERF);
/** Inspector ports of the profiled run: the tracked Worker's and the bare Worker's. */
const INSPECTOR = PROFILE ? { tracked: await freePort(), bare: await freePort() } : null;

// ---- 1. bundle the Worker exactly as a deploy would -------------------------------------------
const { work, out, script } = bundleWorker('bench');

// On tmpfs where there is one: the cold phase restarts the isolate, D1 and the Cache API stay.
const persistRoot = existsSync('/dev/shm')
  ? mkdtempSync('/dev/shm/edge-tracker-bench-')
  : join(work, 'persist');
const trackerOptions = benchTrackerOptions(
  { out, script },
  {
    d1Persist: join(persistRoot, 'd1'),
    cachePersist: join(persistRoot, 'cache'),
    queueConsumers: NO_CONSUMER ? {} : INGEST_CONSUMER,
    ...(INSPECTOR ? { inspectorPort: INSPECTOR.tracked } : {}),
  },
);
const tracker = new Miniflare(trackerOptions);

// The baseline: a Worker that answers the same redirect and does nothing else. Started once
// the tracker runs, so that each workerd process is known by its pid (for CPU times).
let bare = null;
const BARE_REDIRECT = `export default { fetch() { return new Response(null, { status: 302, headers: {
    location: 'https://lp.example/1?clickid=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'cache-control': 'no-store' } }); } };`;

async function main() {
  let trackerUrl = await tracker.ready;
  let trackerPid = [...workerdProcesses().keys()][0];
  bare = startBare(BARE_REDIRECT, INSPECTOR ? { inspectorPort: INSPECTOR.bare } : {});
  const bareUrl = await bare.ready;
  const barePid = [...workerdProcesses().keys()].find((pid) => pid !== trackerPid);
  let db = await tracker.getD1Database('DB');

  // ---- 2. schema and a seeded campaign: 5 landing pages, 5 offers ---------------------------
  await applyMigrations(db);
  const seed = [];
  for (let c = 1; c <= CAMPAIGNS + COLD_CAMPAIGNS; c++) {
    seed.push(
      db
        .prepare(
          "INSERT INTO campaigns (id, name, campaign_type, affiliate_network, op_target_param) VALUES (?1, ?2, 'landing_page', 'clickbank', 'tid')",
        )
        .bind(c, `Bench ${c}`),
      db
        .prepare(
          "INSERT INTO extra_tokens (campaign_id, slot, token_name, parameter, landing_page_enabled) VALUES (?1, 1, 'Sub 1', 'sub1', 1)",
        )
        .bind(c),
    );
    for (let i = 1; i <= 5; i++) {
      seed.push(
        db
          .prepare('INSERT INTO landing_pages (campaign_id, name, url, share) VALUES (?1, ?2, ?3, 20)')
          .bind(c, `Landing ${i}`, `https://lp.example/${c}/${i}?v=1`),
        db
          .prepare(
            'INSERT INTO offer_pages (campaign_id, name, url, share, payout_micros) VALUES (?1, ?2, ?3, 20, 10000000)',
          )
          .bind(c, `Offer ${i}`, `https://offer.example/${c}/${i}`),
      );
    }
  }
  await db.batch(seed);

  const count = async (table) => (await db.prepare(`SELECT count(*) n FROM ${table}`).first()).n;
  const trackedPath = '/go/1?tid=creative-42&keyword=running+shoes&sub1=feed-7';
  /** The n-th request of a run: the next user agent, the next campaign, one in five a landing-page click. */
  const pathFor = (n) => {
    const c = 1 + (n % CAMPAIGNS);
    return n % 5 === 4
      ? `/click/${c}?sub1=feed-${n % 7}`
      : `/go/${c}?tid=creative-${n % 50}&keyword=running+shoes&sub1=feed-${n % 7}`;
  };

  let sent = 0;
  // One request in ten carries a user agent seen nowhere else (in-app browsers' long tail of
  // device models and app builds): the classification's cache misses are part of the cost.
  const userAgentFor = (n) =>
    n % 10 === 9
      ? `Mozilla/5.0 (Linux; Android 13; SM-A${100 + (n % 900)}F Build/TP1A.${n}; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.${n % 200} Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/${n};]`
      : USER_AGENTS[n % USER_AGENTS.length];
  /** One autocannon run of the mix; answers its counts, duration to the last response and every latency. */
  const run = (url, amount) => {
    sent = 0;
    return loadRun({
      url: new URL(trackedPath, url).toString(),
      connections: CONNECTIONS,
      amount,
      okStatus: 302,
      // CF-IPCountry is what Cloudflare's edge adds in production (IP geolocation is on by default).
      headers: { 'user-agent': UA, accept: 'text/html', 'cf-ipcountry': 'US' },
      requests: [
        {
          setupRequest: (req) => {
            const n = sent++;
            req.path = pathFor(n);
            req.headers = { ...req.headers, 'user-agent': userAgentFor(n) };
            return req;
          },
        },
      ],
    });
  };
  const total = (runs, pid, cpuMs) => {
    const summary = summarize(runs);
    return { ...summary, cpuMicrosPerRequest: (cpuMs * 1000) / summary.requests, pid };
  };

  // ---- 3. warm up both, then measure in alternating rounds ------------------------------------
  log(`Warming up (${WARMUP} requests each)...`);
  await run(bareUrl, WARMUP);
  await run(trackerUrl, WARMUP);
  if (!NO_CONSUMER) await waitForVisits(WARMUP, 60_000);
  const warmVisits = await count('visits');

  const perRound = Math.ceil(REQUESTS / ROUNDS);
  const bareRuns = [];
  const trackedRuns = [];
  let bareCpu = 0;
  let trackedCpu = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    log(
      `Round ${round}/${ROUNDS}: ${fmt(perRound)} requests to each Worker at ${CONNECTIONS} connections...`,
    );
    let cpu = cpuOf(barePid);
    bareRuns.push(await run(bareUrl, perRound));
    bareCpu += cpuOf(barePid) - cpu;
    cpu = cpuOf(trackerPid);
    trackedRuns.push(await run(trackerUrl, perRound));
    trackedCpu += cpuOf(trackerPid) - cpu;
  }
  const baseline = total(bareRuns, barePid, bareCpu);
  const tracked = total(trackedRuns, trackerPid, trackedCpu);
  log(
    `  rounds: bare ${fmt(baseline.rps)} req/s ${fmt(baseline.cpuMicrosPerRequest)} us/req; tracked ${fmt(tracked.rps)} req/s ${fmt(tracked.cpuMicrosPerRequest)} us/req`,
  );
  if (NO_CONSUMER) {
    log('');
    log('Diagnosis run without the ingest consumer (the redirect alone; nothing is persisted):');
    for (const [name, r] of [
      ['bare redirect', baseline],
      ['tracked click', tracked],
    ]) {
      log(
        `${name.padEnd(16)} ${fmt(r.rps)} req/s  p50 ${fmt(r.p50, 1)} ms  p99 ${fmt(r.p99, 1)} ms  workerd CPU ${fmt(r.cpuMicrosPerRequest)} us/req`,
      );
    }
    log(
      `throughput ratio ${fmt(tracked.rps / baseline.rps, 2)}, p99 ratio ${fmt(tracked.p99 / baseline.p99, 2)}, CPU ratio ${fmt(baseline.cpuMicrosPerRequest / tracked.cpuMicrosPerRequest, 2)}`,
    );
    return 0;
  }

  // ---- 4. drain the queue: every successful click must be a stored visit --------------------
  log('Draining the ingest queue...');
  const drainStart = Date.now();
  const cpuBeforeDrain = cpuOf(trackerPid);
  const persisted = (await waitForVisits(warmVisits + tracked.ok, 180_000)) - warmVisits;
  const drainSeconds = (Date.now() - drainStart) / 1000;
  // The tracked Worker's CPU including the ingest of its clicks that finished after the rounds.
  const trackedCpuWithIngest = ((trackedCpu + cpuOf(trackerPid) - cpuBeforeDrain) * 1000) / tracked.requests;
  const rolled =
    (await db.prepare('SELECT coalesce(sum(visits + filtered_visits), 0) n FROM daily_stats').first()).n -
    warmVisits;

  async function waitForVisits(target, timeoutMs) {
    const started = Date.now();
    let last = -1;
    let stableSince = Date.now();
    for (;;) {
      const n = await count('visits');
      if (n >= target) return n;
      if (n !== last) {
        last = n;
        stableSince = Date.now();
      }
      // Nothing new for 20 s, or out of time: report what arrived.
      if (Date.now() - stableSince > 20_000 || Date.now() - started > timeoutMs) return n;
      await sleep(100);
    }
  }

  // The profiled round (BENCH_PROFILE) comes after the measured ones and their drain.
  const profile = PROFILE ? await profileRound() : null;
  const nativeProfile = PERF ? await nativeRound() : null;
  const profiledVisits = (profile?.visits ?? 0) + (nativeProfile?.visits ?? 0);

  // ---- 4a. cold phase: a new isolate; single sequential clicks, their latency ----------------
  log('Cold phase: restarting the tracked Worker (a new isolate), single clicks...');
  await tracker.setOptions(trackerOptions);
  const coldUrl = await tracker.ready;
  trackerUrl = coldUrl;
  db = await tracker.getD1Database('DB'); // stubs die with the old runtime
  trackerPid = [...workerdProcesses().keys()].find((pid) => pid !== barePid) ?? trackerPid;
  const once = async (path) => {
    const started = performance.now();
    const res = await fetch(new URL(path, coldUrl), {
      redirect: 'manual',
      headers: { 'user-agent': UA, accept: 'text/html', 'cf-ipcountry': 'US' },
    });
    await res.arrayBuffer();
    if (res.status !== 302) throw new Error(`cold phase: ${path} answered ${res.status}`);
    return performance.now() - started;
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cold = {
    firstOfIsolate: await once(`/go/${CAMPAIGNS + 1}?tid=cold`),
    noCopy: [],
    sharedCopy: [],
    warm: [],
  };
  for (let c = CAMPAIGNS + 2; c <= CAMPAIGNS + COLD_CAMPAIGNS; c++)
    cold.noCopy.push(await once(`/go/${c}?tid=cold`));
  for (let c = 1; c <= CAMPAIGNS; c++) cold.sharedCopy.push(await once(`/go/${c}?tid=cold`));
  for (let i = 0; i < 10 * CAMPAIGNS; i++) cold.warm.push(await once(`/go/${1 + (i % CAMPAIGNS)}?tid=warm`));
  const coldClicks = 1 + cold.noCopy.length + cold.sharedCopy.length + cold.warm.length;
  await waitForVisits(warmVisits + persisted + profiledVisits + coldClicks, 60_000);

  // ---- 4b. durable mode (docs/decisions/043): the same clicks, answered after the queue took them
  log(`Durable mode: ${fmt(DURABLE_REQUESTS)} tracked clicks in ${ROUNDS} rounds...`);
  await db
    .prepare(
      "INSERT INTO settings (key, value) VALUES ('tracking_mode', 'durable') ON CONFLICT(key) DO UPDATE SET value = 'durable'",
    )
    .run();
  // The click's settings copy is checked in the background at most every second (decision 100);
  // 5.5 s also covers the 5-second copy of earlier versions, for before-and-after runs.
  for (let i = 0; i < 5; i++) {
    await sleep(1_100);
    await once('/go/1?tid=mode');
  }
  await waitForVisits((await count('visits')) + 1, 2_000); // those clicks' batch, before counting
  const durableBefore = await count('visits');
  const durableRuns = [];
  let durableCpu = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const cpu = cpuOf(trackerPid);
    durableRuns.push(await run(trackerUrl, Math.ceil(DURABLE_REQUESTS / ROUNDS)));
    durableCpu += cpuOf(trackerPid) - cpu;
  }
  const durable = total(durableRuns, trackerPid, durableCpu);
  const durablePersisted = (await waitForVisits(durableBefore + durable.ok, 180_000)) - durableBefore;
  const durableLost = durable.ok - durablePersisted;
  await db.prepare("UPDATE settings SET value = 'batched' WHERE key = 'tracking_mode'").run();

  // ---- 5. ingest throughput: messages of 100 events through the real queue consumer ---------
  log(`Ingest: ${fmt(INGEST_MESSAGES)} messages of ${EVENTS_PER_MESSAGE} events...`);
  const producer = await tracker.getQueueProducer('INGEST_QUEUE');
  const before = (await count('visits')) + (await count('lp_clicks')) + (await count('conversions'));
  const now = Date.now();
  const messages = [];
  for (let m = 0; m < INGEST_MESSAGES; m++) {
    const events = [];
    // A realistic mix: each click's visit, landing-page click and conversion; the rest visits.
    for (let i = 0; events.length < EVENTS_PER_MESSAGE; i++) {
      const id = `bench${m}x${i}`;
      // What the visit, its landing-page click and its conversion share: the click id and where it went.
      const click = { id, c: 1, p: 0, l: 1 + (i % 5), at: now };
      events.push({
        k: 'v',
        ...click,
        o: 0,
        tgt: `t${i % 50}`,
        kw: 'kw',
        dev: 'desktop',
        cc: 'US',
        ref: '',
        ua: UA,
        f: null,
        d: 0,
        tok: { 1: 'feed' },
      });
      if (i % 4 === 0 && events.length < EVENTS_PER_MESSAGE) {
        events.push({ k: 'l', ...click, o: 1 + (i % 5), opt: 0, f: null });
      }
      if (i % 12 === 0 && events.length < EVENTS_PER_MESSAGE) {
        events.push({
          k: 'c',
          ...click,
          o: 0,
          ev: null,
          tx: `tx${m}-${i}`,
          pay: null,
          src: 'postback',
        });
      }
    }
    messages.push({ v: 1, events });
  }
  const expected = INGEST_MESSAGES * EVENTS_PER_MESSAGE;
  const ingestStart = Date.now();
  // A send the local queue's proxy drops ('other side closed', seen under heavy load) is sent
  // again: the consumer ignores a click id it already stored, so nothing counts twice.
  const send = async (body, tries = 3) => {
    try {
      await producer.send(body, { contentType: 'json' });
    } catch (err) {
      if (tries <= 1) throw err;
      await sleep(200);
      await send(body, tries - 1);
    }
  };
  for (let i = 0; i < messages.length; i += 20) {
    await Promise.all(messages.slice(i, i + 20).map((body) => send(body)));
  }
  let stored = 0;
  for (;;) {
    stored = (await count('visits')) + (await count('lp_clicks')) + (await count('conversions')) - before;
    if (stored >= expected || Date.now() - ingestStart > 180_000) break;
    await sleep(50);
  }
  const ingestSeconds = (Date.now() - ingestStart) / 1000;

  // ---- 6. report ----------------------------------------------------------------------------
  const throughputRatio = tracked.rps / baseline.rps;
  const p99Ratio = tracked.p99 / Math.max(baseline.p99, 1);
  const lost = tracked.ok - persisted;
  const ingestRate = stored / ingestSeconds;
  const line = (name, s) =>
    `${name.padEnd(16)} ${fmt(s.requests).padStart(7)} req  ${fmt(s.rps).padStart(6)} req/s  p50 ${fmt(s.p50, 1).padStart(5)} ms  p99 ${fmt(s.p99, 1).padStart(5)} ms  workerd CPU ${fmt(s.cpuMicrosPerRequest).padStart(4)} us/req  errors ${s.errors}`;
  log('');
  log(
    `Edge Tracker tracking benchmark  (node ${process.version}, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds, Miniflare direct, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')})`,
  );
  log(line('bare redirect', baseline));
  log(line('tracked click', tracked));
  log(line('tracked durable', durable));
  const cpuDifference = tracked.cpuMicrosPerRequest - baseline.cpuMicrosPerRequest;
  log(
    `throughput ratio tracked/bare  ${fmt(throughputRatio, 2)}   (target >= 0.90: ${verdict(throughputRatio >= 0.9)})`,
  );
  log(
    `CPU per click tracked - bare   ${cpuDifference >= 0 ? '+' : ''}${fmt(cpuDifference)} us   (target <= +50: ${verdict(cpuDifference <= 50)})`,
  );
  log(
    `click latency, single clicks   warm median ${fmt(median(cold.warm), 2)} ms; new isolate's first click ${fmt(cold.firstOfIsolate, 2)} ms; no copy anywhere (one local D1 read) median ${fmt(median(cold.noCopy), 2)} ms; data centre's copy (Cache API) median ${fmt(median(cold.sharedCopy), 2)} ms`,
  );
  log(`p99 ratio tracked/bare         ${fmt(p99Ratio, 2)}   (target <= 2.00: ${verdict(p99Ratio <= 2)})`);
  log(
    `CPU per request bare/tracked   ${fmt(baseline.cpuMicrosPerRequest / tracked.cpuMicrosPerRequest, 2)} in the rounds, ${fmt(baseline.cpuMicrosPerRequest / trackedCpuWithIngest, 2)} with all of the ingest (${fmt(trackedCpuWithIngest)} us per tracked click)`,
  );
  log(
    `persisted visits               ${fmt(persisted)} of ${fmt(tracked.ok)} successful responses, lost ${lost}, rolled up ${fmt(rolled)}; drained ${fmt(drainSeconds, 1)} s after the last round   (target 0 lost: ${verdict(lost === 0 && rolled === persisted)})`,
  );
  log(
    `durable mode                   throughput ratio durable/bare ${fmt(durable.rps / baseline.rps, 2)}, p99 ${fmt(durable.p99, 1)} ms (batched ${fmt(tracked.p99, 1)} ms); persisted ${fmt(durablePersisted)} of ${fmt(durable.ok)}, lost ${durableLost}   (target 0 lost: ${verdict(durableLost === 0)})`,
  );
  log(
    `ingest                         ${fmt(stored)} events in ${fmt(ingestSeconds, 2)} s = ${fmt(ingestRate)} events/s, messages of ${EVENTS_PER_MESSAGE}   (target >= 10,000: ${verdict(ingestRate >= 10_000)})`,
  );
  const { pid: _barePid, ...baselineFigures } = baseline;
  const { pid: _trackerPid, ...trackedFigures } = tracked;
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    loadAverage: loadavg(),
    connections: CONNECTIONS,
    rounds: ROUNDS,
    baseline: baselineFigures,
    tracked: trackedFigures,
    durable: (({ pid: _p, ...rest }) => rest)(durable),
    durableLost,
    trackedCpuWithIngest,
    cpuDifference,
    cold: {
      firstOfIsolate: cold.firstOfIsolate,
      noCopyMedian: median(cold.noCopy),
      sharedCopyMedian: median(cold.sharedCopy),
      warmMedian: median(cold.warm),
    },
    userAgents: USER_AGENTS.length,
    campaigns: CAMPAIGNS,
    throughputRatio,
    p99Ratio,
    persisted,
    lost,
    rolled,
    drainSeconds,
    ingest: { events: stored, seconds: ingestSeconds, rate: ingestRate },
  };
  if (profile) results.profile = profile;
  if (nativeProfile) results.nativeProfile = nativeProfile;
  mkdirSync(join(root, '.bench'), { recursive: true });
  writeFileSync(join(root, '.bench/tracking.json'), `${JSON.stringify(results, null, 2)}\n`);
  return lost === 0 && durableLost === 0 && stored === expected ? 0 : 1;

  /** One more round of each Worker under Linux perf; the tracked one until its clicks are stored. */
  async function nativeRound() {
    log('');
    const missing = perfMissing();
    if (missing) {
      log(`BENCH_PERF: no native profile: ${missing}`);
      return null;
    }
    log(
      `Native profile: one more round of ${fmt(perRound)} requests to each Worker under perf (BENCH_PERF)...`,
    );
    let perf = startNativeProfile(barePid);
    await run(bareUrl, perRound);
    const bareProfile = await perf.stop();
    const visitsBefore = await count('visits');
    perf = startNativeProfile(trackerPid);
    const round = await run(trackerUrl, perRound);
    await waitForVisits(visitsBefore + round.ok, 60_000);
    const trackedProfile = await perf.stop();
    log('');
    return { visits: round.ok, ...printNativeProfile(bareProfile, trackedProfile, perRound, log) };
  }

  /** One more round of each Worker under the sampling profiler; the tracked one until its clicks are stored. */
  async function profileRound() {
    log('');
    log(`Profiling: one more round of ${fmt(perRound)} requests to each Worker (BENCH_PROFILE)...`);
    const fileOf = bundleFiles(script);
    let profiler = await startProfiles(INSPECTOR.bare);
    let cpu = cpuOf(barePid);
    await run(bareUrl, perRound);
    const bareCpuUs = ((cpuOf(barePid) - cpu) * 1000) / perRound;
    const bareSummary = summarizeProfiles(await profiler.stop(), { workerId: 'core:user:', fileOf });
    const visitsBefore = await count('visits');
    profiler = await startProfiles(INSPECTOR.tracked);
    cpu = cpuOf(trackerPid);
    const round = await run(trackerUrl, perRound);
    await waitForVisits(visitsBefore + round.ok, 60_000);
    const trackedCpuUs = ((cpuOf(trackerPid) - cpu) * 1000) / perRound;
    const trackedSummary = summarizeProfiles(await profiler.stop(), { workerId: 'core:user:', fileOf });
    log('');
    printProfile(`bare redirect (workerd CPU ${fmt(bareCpuUs)} us/req)`, bareSummary, perRound, log);
    log('');
    printProfile(
      `tracked click, until its visits are stored (workerd CPU ${fmt(trackedCpuUs)} us/req)`,
      trackedSummary,
      perRound,
      log,
      { top: 25 },
    );
    const perRequest = (map) => Object.fromEntries([...map].map(([k, us]) => [k, us / perRound]));
    return {
      requests: perRound,
      visits: round.ok,
      bare: { isolates: perRequest(bareSummary.isolates) },
      tracked: {
        isolates: perRequest(trackedSummary.isolates),
        stages: perRequest(trackedSummary.stages),
        functions: perRequest(trackedSummary.functions),
      },
    };
  }
}

await runAndExit(main, { instances: () => [tracker, bare], folders: [work, persistRoot] });
