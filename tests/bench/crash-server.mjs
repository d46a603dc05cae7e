#!/usr/bin/env node
// One life of the tracked Worker for the crash test (tests/bench/crash.mjs): Miniflare on the
// bundle, its state persisted under argv[3], so that a restart finds what the killed one left.
// Prints {"url"} when ready; answers "count" on stdin with {"visits"}. Seeds on argv[5] = 'seed'.
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Miniflare } from 'miniflare';
import { applyMigrations, INGEST_CONSUMER, trackerOptions } from './harness.mjs';

const [, , bundleDir, persistDir, mode, seed] = process.argv;

const mf = new Miniflare(
  trackerOptions(
    { out: bundleDir, script: join(bundleDir, 'index.js') },
    {
      defaultPersistRoot: persistDir,
      queueConsumers: INGEST_CONSUMER,
    },
  ),
);

const url = await mf.ready;
const db = await mf.getD1Database('DB');
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
console.log(JSON.stringify({ url: url.toString() }));
createInterface({ input: process.stdin }).on('line', async (line) => {
  if (line.trim() !== 'count') return;
  const row = await db.prepare('SELECT count(*) n FROM visits').first();
  console.log(JSON.stringify({ visits: row.n }));
});
