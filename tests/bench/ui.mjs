#!/usr/bin/env node
// UI benchmark (npm run bench:ui, docs/performance.md "Statistics screen in Chromium"): the
// product's Worker under `wrangler dev` with its SPA, one direct-link campaign seeded with
// BENCH_VISITS visits (default 3,000,000) over 60 days through the real ingest code (2,000
// targets, 20 countries, 7 agents, 6 referrers, 2 % conversions), then in Chromium at 1366 px:
//   - first paint of /stats/:id with numbers (navigation to the KPI strip showing visits);
//   - Search to numbers for the last 30 days (click Search to the target rows and totals shown);
//   - a breakdown (a new grouping chosen to its rows shown), each time a grouping not asked yet.
// Each is the median (p50) of BENCH_RUNS runs (default 7). BENCH_STATE_DIR keeps the seeded
// database between runs; the whole run stops after BENCH_TIMEOUT_S seconds (default 3600).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { setUp, signIn } from '../support/first-run.mjs';
import { migrateLocal, quietEnv, wranglerDevArgs } from '../support/wrangler.mjs';
import { freePort } from './harness.mjs';

const root = new URL('../..', import.meta.url).pathname;
const VISITS = Number(process.env.BENCH_VISITS ?? 3_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const DAYS = 60;
const PER_REQUEST = 10_000;
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 3600);
const ADMIN = { username: 'owner', password: 'Bench-pass-2027', email: 'bench@example.com' };
const log = (...a) => console.log(...a);
const fmt = (n, d = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

if (!existsSync(join(root, 'web/dist/index.html'))) {
  console.error('web/dist is not built: run `npm run build` first.');
  process.exit(1);
}

const state = process.env.BENCH_STATE_DIR ?? mkdtempSync(join(tmpdir(), 'edge-tracker-ui-bench-'));
mkdirSync(state, { recursive: true });
const meta = join(state, `seeded-${VISITS}.json`);
spawnSync('node', ['scripts/dev-setup.mjs'], { cwd: root, stdio: 'ignore', env: quietEnv });
const applied = migrateLocal(state);
if (applied.status !== 0) process.exit(1);

const port = await freePort();
const BASE = `http://127.0.0.1:${port}`;
const serverLog = join(state, 'server.log');
const server = spawn(
  'npx',
  wranglerDevArgs({ script: 'tests/bench/ui-worker.ts', port, inspectorPort: await freePort(), state }),
  {
    cwd: root,
    env: quietEnv,
    detached: true,
    stdio: ['ignore', openSync(serverLog, 'w'), openSync(serverLog, 'a')],
  },
);
let browser = null;
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
process.on('exit', stop);
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => process.exit(130));
const deadline = setTimeout(() => {
  console.error(`bench:ui stopped after ${TIMEOUT_S} s (BENCH_TIMEOUT_S).`);
  process.exit(2);
}, TIMEOUT_S * 1000);

async function api(path, { body, token, method } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body) headers['content-type'] = 'application/json';
  const res = await fetch(`${BASE}${path}`, {
    method: method ?? (body ? 'POST' : 'GET'),
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed };
}

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${BASE}/api/setup-created`)).ok) break;
    } catch {}
    if (i > 240) throw new Error(`the server did not start; see ${serverLog}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  if ((await api('/api/setup-created')).body?.data !== true) await setUp(BASE, ADMIN);
  const token = await signIn(BASE, ADMIN);

  let seeded = existsSync(meta) ? JSON.parse(readFileSync(meta, 'utf8')) : null;
  if (!seeded) {
    // Progress is kept in the state directory: a seed cut short goes on where it stopped.
    const progressFile = join(state, `seeding-${VISITS}.json`);
    let progress = existsSync(progressFile) ? JSON.parse(readFileSync(progressFile, 'utf8')) : null;
    if (!progress) {
      const c = await api('/api/add-campaign', {
        token,
        body: { name: 'UI bench', campaignType: 'direct_link', cpc: '0.30' },
      });
      const campaignId = c.body.data.campaign.campaignData.campaignId;
      const o = await api('/api/add-offer', {
        token,
        body: { campaignId, name: 'Offer', url: 'https://offer.example/buy', payout: '20' },
      });
      // The seed ends an hour ago so "the last 30 days" of the screen hold half of it.
      progress = {
        campaignId,
        offerId: o.body.data.offer.offerPageId,
        end: Date.now() - 3_600_000,
        done: 0,
        seconds: 0,
      };
    }
    log(
      `Seeding ${fmt(VISITS)} visits over ${DAYS} days through the ingest code (from ${fmt(progress.done)})...`,
    );
    const started = Date.now() - progress.seconds * 1000;
    // BENCH_SEEDED_ONLY=1: measure what a seed cut short holds (its last 30 days are then the
    // 30 days before its last visit, see below), without seeding further.
    const limit = process.env.BENCH_SEEDED_ONLY === '1' ? progress.done : VISITS;
    while (progress.done < limit) {
      const from = progress.done;
      const to = Math.min(VISITS, from + PER_REQUEST);
      const q = `from=${from}&to=${to}&total=${VISITS}&days=${DAYS}&end=${progress.end}&campaign=${progress.campaignId}&offer=${progress.offerId}`;
      let res = null;
      for (let attempt = 1; attempt <= 5; attempt++) {
        // Ingest is exactly once: a chunk sent again after a restart adds nothing twice.
        res = await fetch(`${BASE}/__bench/seed?${q}`, { method: 'POST' }).catch(() => null);
        if (res?.ok) break;
        await new Promise((r) => setTimeout(r, 2000));
      }
      if (!res?.ok) throw new Error(`seeding failed at ${from}: ${res?.status} ${await res?.text()}`);
      progress.done = to;
      progress.seconds = (Date.now() - started) / 1000;
      writeFileSync(progressFile, JSON.stringify(progress));
      if ((from / PER_REQUEST) % 20 === 0) log(`  ${fmt(to)} visits (${fmt(progress.seconds)} s)`);
    }
    seeded = {
      campaignId: progress.campaignId,
      seconds: progress.seconds,
      visits: progress.done,
      end: progress.end,
    };
    if (progress.done === VISITS) writeFileSync(meta, JSON.stringify(seeded));
    log(`Seeded in ${fmt(seeded.seconds, 1)} s (${fmt(seeded.visits / seeded.seconds)} visits/s).`);
  }
  const { campaignId } = seeded;

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${BASE}/login`);
  await page.locator('#login-username').fill(ADMIN.username);
  await page.locator('#login-password').fill(ADMIN.password);
  await page.locator('#login-password').press('Enter');
  await page.waitForURL((u) => u.pathname !== '/login');

  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const isDone = (path) => async (res) =>
    res.url().includes(path) &&
    res.status() === 200 &&
    (await res.json().catch(() => null))?.data?.done === true;

  // First paint with numbers: navigation to the KPI strip's visits.
  const firstPaint = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = Date.now();
    await page.goto(`${BASE}/stats/${campaignId}`);
    await page.locator('[data-kpi="visits"] .kpi-value').waitFor();
    firstPaint.push(Date.now() - t0);
  }

  // Search to numbers, last 30 days: the target job and the totals job answered and painted.
  // The last 30 days of the seeded traffic: up to today, or up to the last visit of a partial seed.
  const seededVisits = seeded.visits ?? VISITS;
  const lastVisit = seeded.end - DAYS * 86_400_000 + (seededVisits / VISITS) * DAYS * 86_400_000;
  if (lastVisit < Date.now() - 86_400_000) {
    const day = (ms) => new Date(ms).toISOString().slice(0, 10);
    await page.locator('#stats-start').fill(day(lastVisit - 29 * 86_400_000));
    await page.locator('#stats-end').fill(day(lastVisit));
  } else await page.locator('#stats-quick').selectOption('past-30-days');
  const search = [];
  for (let i = 0; i < RUNS; i++) {
    // The target job's answer carries the rows and the totals the KPI strip shows.
    const target = page.waitForResponse(isDone('/api/get-target-statistics'));
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Search' }).click();
    await target;
    await frame();
    search.push(Date.now() - t0);
  }
  const visits = await page.locator('[data-kpi="visits"] .kpi-value').textContent();

  // A breakdown: a grouping not asked for yet (no cached answer) to its rows.
  const breakdown = [];
  const breakdownLevels = [];
  const groupBy = page.getByLabel('Group by');
  const thenBy = page.getByLabel('Then by');
  // The dimensions and their column titles as the screen offers them (schema/stats-reports-api.ts).
  const offered = await groupBy
    .locator('option')
    .evaluateAll((options) => options.map((o) => [o.value, o.textContent.trim()]));
  const dims = offered.map(([value]) => value);
  const TITLES = Object.fromEntries(offered);
  const pairs = dims.flatMap((a) => dims.filter((b) => b !== a).map((b) => [a, b]));
  const heading = (text) =>
    page
      .locator('[data-testid="breakdown-table"] thead th', { hasText: new RegExp(`^\\s*${text}\\s*$`) })
      .first();
  const shown = (by, second) =>
    page.waitForResponse(
      (res) =>
        res.url().includes('/api/stats-reports/breakdown') &&
        res.url().includes(`by=${by}&second=${second}&`),
    );
  for (let i = 0; i < RUNS; i++) {
    // Even runs: one level, a dimension not shown yet; odd runs: a pair not asked for yet.
    const [by, second] = i % 2 === 0 ? [dims[(i / 2 + 1) % dims.length], ''] : pairs[i];
    // Back to a one-level table of `by` (possibly from the cache), without timing it.
    if ((await thenBy.inputValue()) !== '') await thenBy.selectOption('');
    if (second && (await groupBy.inputValue()) !== by) await groupBy.selectOption(by);
    if (second) await heading(TITLES[by]).waitFor();
    const answered = shown(by, second);
    const t0 = Date.now();
    if (second) await thenBy.selectOption(second);
    else await groupBy.selectOption(by);
    await answered;
    await page.locator('[data-testid="breakdown-table"] tbody tr[data-row]').first().waitFor();
    await frame();
    breakdown.push(Date.now() - t0);
    breakdownLevels.push(second ? `${by}→${second}` : by);
  }

  const range = `${await page.locator('#stats-start').inputValue()} to ${await page.locator('#stats-end').inputValue()}`;
  log('');
  log(
    `${fmt(seededVisits)} of ${fmt(VISITS)} visits seeded (${fmt(seeded.seconds)} s); the 30-day report is ${range}.`,
  );
  log(
    `Statistics screen in Chromium, ${fmt(seededVisits)} visits in the database (${visits} in the 30-day report), ${RUNS} runs:`,
  );
  log(
    `  first paint of /stats/:id with numbers   p50 ${fmt(p50(firstPaint))} ms  (runs: ${firstPaint.join(', ')})`,
  );
  log(`  Search to numbers, 30-day report          p50 ${fmt(p50(search))} ms  (runs: ${search.join(', ')})`);
  log(
    `  breakdown, 30 days (new grouping)         p50 ${fmt(p50(breakdown))} ms  (runs: ${breakdown.join(', ')}; ${breakdownLevels.join(', ')})`,
  );
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
  await browser?.close();
  stop();
}
