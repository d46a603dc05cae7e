// What the benchmarks share (npm run bench:*; docs/performance.md): the Worker bundled as a deploy
// would bundle it, the Miniflare options it runs under, the bare Worker that is each figure's
// baseline, the migrations, autocannon rounds and their summary, and the CPU time of the workerd
// processes a script started.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Miniflare } from 'miniflare';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export const COMPATIBILITY_DATE = /compatibility_date\s*=\s*"([^"]+)"/.exec(
  readFileSync(join(root, 'wrangler.toml'), 'utf8'),
)[1];

/** The Worker's vars and secrets for a benchmark run; none of them is a real secret. */
const BENCH_BINDINGS = {
  ENVIRONMENT: 'bench',
  REGISTRATION_ENABLED: 'false',
  LICENSE_PUBLIC_KEY: '',
  MAIL_FROM: 'bench@localhost',
  JWT_SECRET: 'bench-jwt-secret-that-is-long-enough-for-hs256-0123456789',
  CLICK_ID_SECRET: 'bench-click-id-secret-0123456789abcdef',
  PASSWORD_PEPPER: 'bench-pepper',
  ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
};

export const log = (...args) => console.log(...args);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const fmt = (n, digits = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** The p-th percentile of an ascending list. */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
export const verdict = (ok) => (ok ? 'met' : 'NOT MET');

/**
 * The load of an alternating-rounds benchmark, from the environment: BENCH_REQUESTS (default
 * `requests`), BENCH_CONNECTIONS (32) and BENCH_ROUNDS (5).
 */
export const loadSettings = (requests) => ({
  REQUESTS: Number(process.env.BENCH_REQUESTS ?? requests),
  CONNECTIONS: Number(process.env.BENCH_CONNECTIONS ?? 32),
  ROUNDS: Number(process.env.BENCH_ROUNDS ?? 5),
});

/**
 * Runs a benchmark's `main`, which answers its exit code; then, after an error too, disposes of
 * the Miniflare instances `instances()` answers and removes `folders`, and exits with the code.
 */
export async function runAndExit(main, { instances, folders }) {
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    console.error(err);
  } finally {
    await Promise.allSettled(instances().map((mf) => mf?.dispose()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
  process.exit(code);
}

/** Runs a Miniflare script's `main`, then disposes of `mf` and removes `work`, after an error too. */
export function runThenDispose(main, mf, work) {
  return main()
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    })
    .finally(async () => {
      await mf.dispose();
      rmSync(work, { recursive: true, force: true });
    });
}

/**
 * Bundles the Worker exactly as a deploy would (wrangler deploy --dry-run) into a new temporary
 * folder; the SPA is not under test, so an empty assets folder keeps a fresh clone working.
 * `entry` and `name` bundle another entry point (a benchmark Worker over the product code).
 */
export function bundleWorker(prefix, { entry, name } = {}) {
  const work = mkdtempSync(join(tmpdir(), `edge-tracker-${prefix}-`));
  const out = join(work, 'dist');
  const assets = join(work, 'assets');
  mkdirSync(assets);
  log(`Bundling ${entry ?? 'the Worker'} (wrangler deploy --dry-run)...`);
  execFileSync(
    join(root, 'node_modules/.bin/wrangler'),
    [
      'deploy',
      ...(entry ? [entry] : []),
      '--dry-run',
      '--outdir',
      out,
      '--assets',
      assets,
      ...(name ? ['--name', name] : []),
    ],
    { cwd: root, stdio: 'pipe', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' } },
  );
  const file = readdirSync(out).find((f) => f.endsWith('.js'));
  if (!file) throw new Error(`no bundle in ${out}`);
  return { work, out, script: join(out, file) };
}

/** The ingest queue's consumer as wrangler.toml sets it, for runs that persist their clicks. */
export const INGEST_CONSUMER = {
  'tracker-ingest': {
    maxBatchSize: 100,
    maxBatchTimeout: 1,
    maxRetries: 5,
    deadLetterQueue: 'tracker-ingest-dlq',
  },
};

/** Miniflare options for the bundled tracker on a free loopback port; `extra` adds or overrides. */
export function trackerOptions({ out, script }, extra = {}) {
  return {
    host: '127.0.0.1',
    port: 0,
    cf: false,
    modules: true,
    modulesRoot: out,
    scriptPath: script,
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: ['nodejs_compat'],
    bindings: BENCH_BINDINGS,
    d1Databases: { DB: 'bench-db' },
    r2Buckets: { BUCKET: 'bench-bucket' },
    serviceBindings: { ASSETS: () => new Response('Not found', { status: 404 }) },
    queueProducers: {
      INGEST_QUEUE: 'tracker-ingest',
      STATS_QUEUE: 'tracker-stats',
      POSTBACK_QUEUE: 'tracker-postbacks',
    },
    ...extra,
  };
}

/** The baseline: a Worker of the given module source that does nothing but answer; `extra` adds options. */
export function startBare(source, extra = {}) {
  return new Miniflare({
    host: '127.0.0.1',
    port: 0,
    cf: false,
    modules: true,
    compatibilityDate: COMPATIBILITY_DATE,
    script: source,
    ...extra,
  });
}

/**
 * Applies the migrations in order to a D1 binding; `skip(file)` leaves out those a kept database
 * already has, and `applied(file)` is told of each one done.
 */
export async function applyMigrations(db, { skip = () => false, applied = () => {} } = {}) {
  const files = readdirSync(join(root, 'migrations'))
    .filter((f) => f.endsWith('.sql'))
    .sort();
  for (const file of files.filter((f) => !skip(f))) {
    const sql = readFileSync(join(root, 'migrations', file), 'utf8');
    for (const part of sql.split('--> statement-breakpoint')) {
      const statement = part.replace(/^--.*$/gm, '').trim();
      if (statement) await db.prepare(statement).run();
    }
    applied(file);
  }
}

/**
 * One autocannon run of `amount` requests; answers its counts (`ok` is the answers with
 * `okStatus`), the time to the last response and every latency.
 */
export function loadRun({ url, amount, connections, okStatus, ...options }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let last = started;
    const latencies = [];
    const instance = autocannon({ url, connections, amount, timeout: 20, ...options }, (err, result) =>
      err
        ? reject(err)
        : resolve({
            requests: result.requests.total,
            ok: Number(result.statusCodeStats?.[String(okStatus)]?.count ?? 0),
            errors: result.errors + result.timeouts,
            seconds: (last - started) / 1000,
            latencies,
          }),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      last = performance.now();
      latencies.push(responseTime);
    });
  });
}

/** Several runs as one: requests, good answers, errors (failed or not the good status), rate, p50, p99. */
export function summarize(runs) {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const ok = runs.reduce((n, r) => n + r.ok, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  return {
    requests,
    ok,
    errors: runs.reduce((n, r) => n + r.errors, 0) + (requests - ok),
    rps: requests / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    seconds,
  };
}

/** workerd processes started by this script, with their CPU time (utime + stime) in ms. */
export function workerdProcesses() {
  const found = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!stat.includes('(workerd)') || Number(fields[1]) !== process.pid) continue;
      found.set(pid, (Number(fields[11]) + Number(fields[12])) * (1000 / 100));
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

/** The CPU time in ms of one workerd process of this script; 0 once it has ended. */
export const cpuOf = (pid) => (pid && existsSync(`/proc/${pid}`) ? (workerdProcesses().get(pid) ?? 0) : 0);

/** The CPU time in ms of all the workerd processes of this script. */
export const workerdCpuMs = () => [...workerdProcesses().values()].reduce((a, b) => a + b, 0);

export { freePort } from '../../scripts/free-port.mjs';
