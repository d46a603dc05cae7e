#!/usr/bin/env node
// Operator benchmark (npm run bench:operator; docs/performance.md): the operator installation
// (the real Worker under wrangler dev, own state, OPERATOR_TIMEOUT_MS=1000) reads 200 simulated
// student installations answered by one local Worker (tests/bench/operator-students-worker.js,
// on Miniflare): 10 slow (3 s, past the timeout), 8 failing (500). It times
//   - the cron refresh of all 200 (cron -> one queue message each -> cache), until every healthy
//     installation is refreshed and every slow or failing one has its error recorded;
//   - the general mode (all-students-reports over 30 days, from the cache): p50 and p95 of 50 calls;
//   - the detailed mode's fan-out for 20 students, 2 of them slow: median of 5 calls.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { setUp, signIn } from '../support/first-run.mjs';
import { migrateLocal, quietEnv, wranglerDevArgs } from '../support/wrangler.mjs';
import { COMPATIBILITY_DATE, freePort, root, percentile as sortedPercentile } from './harness.mjs';

const COUNT = Number(process.env.BENCH_INSTALLATIONS ?? 200);
const ADMIN = { username: 'owner', password: 'Owner-pass-2027', email: 'admin@example.com' };
const slow = (n) => n % 20 === 0;
const failing = (n) => n % 25 === 1;

const percentile = (xs, p) =>
  sortedPercentile(
    [...xs].sort((a, b) => a - b),
    p,
  );
const median = (xs) => percentile(xs, 50);

let operator;
let students;
const state = mkdtempSync(join(tmpdir(), 'edge-bench-operator-'));
function killOperator() {
  try {
    process.kill(-operator.pid, 'SIGKILL');
  } catch {}
}
process.on('exit', () => operator && killOperator());

async function call(base, path, { body, token } = {}) {
  const res = await fetch(new URL(path, base), {
    method: body ? 'POST' : 'GET',
    headers: {
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

let code = 0;
try {
  spawnSync('node', ['scripts/dev-setup.mjs'], { cwd: root, stdio: 'inherit' });
  const studentsPort = await freePort();
  students = new Miniflare({
    modules: true,
    scriptPath: join(root, 'tests/bench/operator-students-worker.js'),
    compatibilityDate: COMPATIBILITY_DATE,
    host: '127.0.0.1',
    port: studentsPort,
  });
  await students.ready;
  const studentsBase = `http://127.0.0.1:${studentsPort}`;

  assert.equal(migrateLocal(state).status, 0);
  const port = await freePort();
  mkdirSync(join(root, '.bench'), { recursive: true });
  const log = openSync(join(root, '.bench/operator-server.log'), 'w');
  const args = wranglerDevArgs({
    port,
    inspectorPort: await freePort(),
    state,
    scheduled: true,
    vars: {
      OPERATOR_HOST: '127.0.0.1',
      OPERATOR_TIMEOUT_MS: 1000,
      // The students answer on loopback: a development installation trusts only the hosts it is told.
      ENVIRONMENT: 'development',
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    },
  });
  operator = spawn('npx', args, { cwd: root, env: quietEnv, detached: true, stdio: ['ignore', log, log] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/setup-created`)).ok) break;
    } catch {}
    assert.ok(i < 300, 'the operator did not start (.bench/operator-server.log)');
    await new Promise((res) => setTimeout(res, 300));
  }
  await setUp(base, ADMIN);
  const token = await signIn(base, ADMIN);

  const hashes = {};
  for (let n = 1; n <= COUNT; n++) {
    const res = await call(base, '/api/operator/installations', {
      token,
      body: {
        name: `Student ${String(n).padStart(3, '0')}`,
        domain: `${studentsBase}/s${n}`,
        credential: `mdk_bench_${n}`,
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    hashes[n] = res.body.data.student.id_hash;
  }
  const healthy = Array.from({ length: COUNT }, (_, i) => i + 1).filter((n) => !slow(n) && !failing(n));
  console.log(`bench: ${COUNT} installations (${COUNT - healthy.length} slow or failing) registered`);

  // 1. The cron refresh of all of them.
  const today = (await call(base, '/api/stats-today', { token })).body.data.today;
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  const cronStarted = Date.now();
  assert.equal((await fetch(`${base}/__scheduled?cron=${encodeURIComponent('*/5 * * * *')}`)).status, 200);
  let general;
  for (;;) {
    general = (
      await call(base, `/api/operator/all-students-reports?start_date=${from}&end_date=${today}`, { token })
    ).body.data;
    const refreshed = general.students.filter((s) => s.refreshed_at).length;
    const errors = general.students.filter((s) => s.error).length;
    if (refreshed === healthy.length && errors === COUNT - healthy.length) break;
    assert.ok(
      Date.now() - cronStarted < 180_000,
      `refresh incomplete: ${refreshed} refreshed, ${errors} errors`,
    );
    await new Promise((res) => setTimeout(res, 100));
  }
  const cronMs = Date.now() - cronStarted;
  console.log(`bench: cron refresh of ${COUNT}: ${cronMs} ms`);

  // 2. The general mode from the cache.
  const generalTimes = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    const res = await call(base, `/api/operator/all-students-reports?start_date=${from}&end_date=${today}`, {
      token,
    });
    generalTimes.push(performance.now() - t);
    assert.equal(res.body.data.students.length, COUNT);
  }
  console.log(
    `bench: general mode p50 ${median(generalTimes).toFixed(1)} ms, p95 ${percentile(generalTimes, 95).toFixed(1)} ms`,
  );

  // 3. The detailed fan-out: 18 healthy and 2 slow students.
  const picked = [...healthy.slice(0, 18), 20, 40].map((n) => hashes[n]);
  const fanOutTimes = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const res = await call(base, '/api/operator/students-data', {
      token,
      body: { students: picked, start_date: from, end_date: today },
    });
    fanOutTimes.push(performance.now() - t);
    assert.equal(res.body.data.students.length, 18);
    assert.deepEqual(res.body.data.unavailable.map((u) => u.name).sort(), ['Student 020', 'Student 040']);
  }
  console.log(`bench: detailed fan-out for 20 (2 timing out): median ${median(fanOutTimes).toFixed(0)} ms`);

  const result = {
    at: new Date().toISOString(),
    installations: COUNT,
    slowOrFailing: COUNT - healthy.length,
    cronRefreshMs: cronMs,
    generalP50Ms: Math.round(median(generalTimes) * 10) / 10,
    generalP95Ms: Math.round(percentile(generalTimes, 95) * 10) / 10,
    detailedFanOutMedianMs: Math.round(median(fanOutTimes)),
  };
  writeFileSync(join(root, '.bench/operator.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result));
  if (result.generalP50Ms >= 100) console.log('bench: general mode p50 misses the 100 ms target');
  if (result.detailedFanOutMedianMs >= 2000) console.log('bench: the detailed fan-out misses the 2 s target');
} catch (err) {
  console.error(err);
  code = 1;
} finally {
  if (operator) {
    killOperator();
    await new Promise((res) => setTimeout(res, 500));
  }
  await students?.dispose();
  rmSync(state, { recursive: true, force: true });
}
process.exit(code);
