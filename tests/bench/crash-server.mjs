#!/usr/bin/env node
// One life of the tracked Worker for the crash test (tests/bench/crash.mjs): Miniflare on the
// bundle (tests/bench/crash-worker.ts), its state persisted under argv[3], so that a restart
// finds what the killed one left. Prints {"url"} when ready; answers "count" on stdin with what is
// stored: visits (all, and by target), the events spooled to R2 (by target) and the loss counter.
// Seeds on argv[5] = 'seed', in the mode argv[4].
import { createInterface } from 'node:readline';
import { Miniflare } from 'miniflare';
import { applyMigrations, INGEST_CONSUMER, trackerOptions } from './harness.mjs';

const [, , bundleDir, persistDir, mode, seed, script] = process.argv;

const mf = new Miniflare(
  trackerOptions(
    { out: bundleDir, script },
    {
      defaultPersistRoot: persistDir,
      queueConsumers: INGEST_CONSUMER,
    },
  ),
);

const url = await mf.ready;
const db = await mf.getD1Database('DB');
const bucket = await mf.getR2Bucket('BUCKET');
if (seed === 'seed') {
  await applyMigrations(db);
  await db.batch([
    db.prepare("INSERT INTO campaigns (id, name, campaign_type) VALUES (1, 'Crash', 'direct_link')"),
    db.prepare(
      "INSERT INTO offer_pages (campaign_id, name, url, share, payout_micros) VALUES (1, 'Offer', 'https://offer.example/1', 100, 1000000)",
    ),
    db.prepare("INSERT INTO settings (key, value) VALUES ('tracking_mode', ?1)").bind(mode),
  ]);
}

async function count() {
  const { results } = await db.prepare('SELECT target, count(*) n FROM visits GROUP BY target').all();
  const byTarget = Object.fromEntries(results.map((r) => [r.target, r.n]));
  const visits = results.reduce((n, r) => n + r.n, 0);
  const spooledByTarget = {};
  let cursor;
  do {
    const listed = await bucket.list({ prefix: 'ingest-spool/', cursor });
    for (const object of listed.objects) {
      const message = await (await bucket.get(object.key)).json();
      for (const event of message.events) spooledByTarget[event.tgt] = (spooledByTarget[event.tgt] ?? 0) + 1;
    }
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  const lost = await db.prepare("SELECT value FROM settings WHERE key = 'tracking_lost_events'").first();
  return { visits, byTarget, spooledByTarget, lostCounted: Number(lost?.value ?? 0) };
}

console.log(JSON.stringify({ url: url.toString() }));
createInterface({ input: process.stdin }).on('line', async (line) => {
  if (line.trim() !== 'count') return;
  console.log(JSON.stringify(await count()));
});
