#!/usr/bin/env node
// Soak run (npm run soak, docs/performance.md): SOAK_CLICKS tracked clicks (default 1,000,000)
// through the local stack as deployed (the bundled Worker on Miniflare, its queue consumer, local
// D1 and R2): each click is a real /go request; 30 % click through the landing page (/click) and
// a third of those convert through /postback with the postback secret. Then it waits for the
// queue to drain, archives every raw day to R2, and reconciles: clicks sent = visits stored =
// visits archived = visits reported by the rollups, and the same for LP clicks and conversions.
// Bounded: sending stops at SOAK_MAX_SECONDS (default 3600) and the run reconciles what was
// sent. SOAK_CONCURRENCY (default 48) requests in flight. Exit code 1 when a count differs.
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import {
  applyMigrations,
  bundleWorker,
  fmt,
  INGEST_CONSUMER,
  log,
  runThenDispose,
  sleep,
  trackerOptions,
} from '../bench/harness.mjs';

const CLICKS = Number(process.env.SOAK_CLICKS ?? 1_000_000);
const MAX_SECONDS = Number(process.env.SOAK_MAX_SECONDS ?? 3600);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 48);
const SECRET = 'soak-postback-secret-0123456789';
/** Campaign 1's postback secret, derived from the installation's (docs/decisions/120). */
const CAMPAIGN_SECRET = createHmac('sha256', SECRET)
  .update('postback:1')
  .digest()
  .subarray(0, 18)
  .toString('base64url');
const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
/**
 * GET on a connection of its own: after an archive request of many seconds, fetch's pooled
 * keep-alive connection was reset by the local server when reused (ECONNRESET on the next call).
 */
const getOnce = (url) =>
  new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject);
  });

const { work, out, script } = bundleWorker('soak', { entry: 'tests/soak/soak-worker.ts', name: 'soak' });

const mf = new Miniflare(
  trackerOptions(
    { out, script },
    {
      // On disk: a million clicks' rows do not belong in the runtime's memory.
      d1Persist: join(work, 'd1'),
      r2Persist: join(work, 'r2'),
      queueProducers: {
        INGEST_QUEUE: 'tracker-ingest',
        STATS_QUEUE: 'tracker-stats',
        POSTBACK_QUEUE: 'tracker-postbacks',
        OPERATOR_QUEUE: 'tracker-operator',
      },
      queueConsumers: INGEST_CONSUMER,
    },
  ),
);

/** Resident memory in MiB of this process and of the workerd processes it started. */
function memory() {
  let workerd = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!stat.includes('(workerd)') || Number(fields[1]) !== process.pid) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      workerd += rss ? Number(rss[1]) / 1024 : 0;
    } catch {
      // the process ended meanwhile
    }
  }
  return { node: process.memoryUsage().rss / 1048576, workerd };
}
const showMemory = (m) => `node ${fmt(m.node)} MiB, workerd ${fmt(m.workerd)} MiB`;

async function main() {
  const base = (await mf.ready).toString().replace(/\/$/, '');
  const db = await mf.getD1Database('DB');
  await applyMigrations(db);
  const seed = [
    db.prepare("INSERT INTO settings (key, value) VALUES ('postback_secret', ?1)").bind(SECRET),
    db.prepare("INSERT INTO campaigns (id, name, campaign_type) VALUES (1, 'Soak', 'landing_page')"),
    db.prepare(
      "INSERT INTO extra_tokens (campaign_id, slot, token_name, parameter) VALUES (1, 1, 'Sub 1', 'sub1')",
    ),
  ];
  for (let i = 1; i <= 5; i++) {
    seed.push(
      db
        .prepare('INSERT INTO landing_pages (campaign_id, name, url, share) VALUES (1, ?1, ?2, 20)')
        .bind(`Landing ${i}`, `https://lp.example/${i}`),
      db
        .prepare(
          'INSERT INTO offer_pages (campaign_id, name, url, share, payout_micros) VALUES (1, ?1, ?2, 20, 2500000)',
        )
        .bind(`Offer ${i}`, `https://offer.example/${i}`),
    );
  }
  await db.batch(seed);

  const start = memory();
  log(`Memory at start: ${showMemory(start)}`);
  log(`Sending ${fmt(CLICKS)} clicks (${CONCURRENCY} in flight, at most ${fmt(MAX_SECONDS)} s)...`);
  const sent = { clicks: 0, lpClicks: 0, conversions: 0, failed: 0 };
  const started = Date.now();
  let next = 0;
  let stopped = false;
  const request = async (path) => {
    const res = await fetch(`${base}${path}`, {
      redirect: 'manual',
      headers: { 'user-agent': UA, accept: 'text/html', 'cf-ipcountry': 'US' },
    });
    await res.arrayBuffer();
    return res;
  };
  async function lane() {
    for (;;) {
      if (next >= CLICKS || stopped) return;
      const i = next++;
      if ((Date.now() - started) / 1000 > MAX_SECONDS) {
        stopped = true;
        return;
      }
      const visit = await request(`/go/1?tid=t${i % 200}&sub1=s${i % 40}`);
      if (visit.status !== 302) {
        sent.failed++;
        continue;
      }
      sent.clicks++;
      if (i % 10 >= 3) continue;
      const clickId = new URL(visit.headers.get('location')).searchParams.get('clickid');
      const lp = await request(`/click/1?clickid=${encodeURIComponent(clickId)}`);
      if (lp.status !== 302) {
        sent.failed++;
        continue;
      }
      sent.lpClicks++;
      if (i % 3 !== 0) continue;
      const conversion = await request(
        `/postback?clickid=${encodeURIComponent(clickId)}&secret=${CAMPAIGN_SECRET}`,
      );
      if (conversion.status !== 200) {
        sent.failed++;
        continue;
      }
      sent.conversions++;
    }
  }
  const progress = setInterval(() => {
    const s = (Date.now() - started) / 1000;
    log(`  ${fmt(sent.clicks)} clicks in ${fmt(s)} s (${fmt(sent.clicks / s)}/s); ${showMemory(memory())}`);
  }, 60_000);
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  clearInterval(progress);
  const seconds = (Date.now() - started) / 1000;
  log(
    `Sent ${fmt(sent.clicks)} clicks, ${fmt(sent.lpClicks)} LP clicks, ${fmt(sent.conversions)} conversions in ${fmt(seconds, 1)} s (${fmt(sent.clicks / seconds)} clicks/s); ${sent.failed} refused${stopped ? '; SOAK_MAX_SECONDS reached' : ''}`,
  );

  const counts = async () =>
    db
      .prepare(
        'SELECT (SELECT count(*) FROM visits) v, (SELECT count(*) FROM lp_clicks) l, (SELECT count(*) FROM conversions) c',
      )
      .first();
  let stored = await counts();
  const drainStarted = Date.now();
  while (
    (stored.v < sent.clicks || stored.l < sent.lpClicks || stored.c < sent.conversions) &&
    Date.now() - drainStarted < 300_000
  ) {
    await sleep(1000);
    stored = await counts();
  }
  log(`Stored in D1: ${fmt(stored.v)} visits, ${fmt(stored.l)} LP clicks, ${fmt(stored.c)} conversions`);

  const archiveStarted = Date.now();
  for (;;) {
    const res = await getOnce(`${base}/__soak/archive`);
    if (res.status !== 200) throw new Error(`archive run answered ${res.status}: ${res.body.slice(0, 500)}`);
    const run = JSON.parse(res.body);
    if (run.days.length === 0) break;
    log(
      `  archived ${run.days.map((d) => `${d.day}: ${fmt(d.rows)} rows`).join(', ')} (${fmt((Date.now() - archiveStarted) / 1000)} s)`,
    );
  }
  const archived = await db
    .prepare(
      'SELECT coalesce(sum(visits), 0) v, coalesce(sum(lp_clicks), 0) l, coalesce(sum(conversions), 0) c, count(*) days FROM raw_archives',
    )
    .first();
  const left = await counts();
  const bucket = await mf.getR2Bucket('BUCKET');
  let lines = 0;
  for (const { object_key: key } of (await db.prepare('SELECT object_key FROM raw_archives').all()).results) {
    // Streamed: a day of a million clicks is an object larger than a string may be.
    for await (const chunk of (await bucket.get(key)).body) {
      for (const byte of chunk) if (byte === 10) lines++;
    }
  }
  log(
    `Archived to R2: ${fmt(archived.v)} visits, ${fmt(archived.l)} LP clicks, ${fmt(archived.c)} conversions (${archived.days} campaign-days, ${fmt(lines)} NDJSON lines); left in D1: ${left.v + left.l + left.c} raw rows`,
  );
  const reported = await db
    .prepare(
      `SELECT (SELECT sum(visits) FROM target_daily) v, (SELECT sum(lp_clicks) FROM target_daily) l,
        (SELECT sum(conversions) FROM target_daily) c, (SELECT sum(visits) FROM token_daily) tv,
        (SELECT sum(conversions) FROM token_daily) tc, (SELECT sum(revenue_micros) FROM target_daily) r`,
    )
    .first();
  log(
    `Reported by the rollups: ${fmt(reported.v)} visits, ${fmt(reported.l)} LP clicks, ${fmt(reported.c)} conversions ($${fmt(reported.r / 1e6, 2)}); token rollup ${fmt(reported.tv)} visits, ${fmt(reported.tc)} conversions`,
  );
  const end = memory();
  log(`Memory at end: ${showMemory(end)} (start: ${showMemory(start)})`);
  const equal =
    [sent.clicks, stored.v, archived.v, reported.v, reported.tv].every((n) => n === sent.clicks) &&
    [sent.lpClicks, stored.l, archived.l, reported.l].every((n) => n === sent.lpClicks) &&
    [sent.conversions, stored.c, archived.c, reported.c, reported.tc].every((n) => n === sent.conversions) &&
    lines === sent.clicks + sent.lpClicks + sent.conversions &&
    left.v + left.l + left.c === 0;
  log(
    equal
      ? `Reconciled: clicks sent = stored = archived = reported = ${fmt(sent.clicks)}; zero loss.`
      : 'NOT reconciled: the counts above differ.',
  );
  if (!equal) process.exitCode = 1;
}

runThenDispose(main, mf, work);
