#!/usr/bin/env node
// One life of the tracked Worker for the crash test (tests/bench/crash.mjs): Miniflare on the
// bundle, its state persisted under argv[3], so that a restart finds what the killed one left.
// Prints {"url"} when ready; answers "count" on stdin with {"visits"}. Seeds on argv[5] = 'seed'.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Miniflare } from 'miniflare';

const [, , bundleDir, persistDir, mode, seed] = process.argv;
const root = new URL('../..', import.meta.url).pathname;
const compatibilityDate = /compatibility_date\s*=\s*"([^"]+)"/.exec(
  readFileSync(join(root, 'wrangler.toml'), 'utf8'),
)[1];

const mf = new Miniflare({
  host: '127.0.0.1',
  port: 0,
  cf: false,
  modules: true,
  modulesRoot: bundleDir,
  scriptPath: join(bundleDir, 'index.js'),
  compatibilityDate,
  compatibilityFlags: ['nodejs_compat'],
  defaultPersistRoot: persistDir,
  bindings: {
    REGISTRATION_ENABLED: 'false',
    LICENSE_PUBLIC_KEY: '',
    MAIL_FROM: 'crash@localhost',
    JWT_SECRET: 'crash-jwt-secret-that-is-long-enough-for-hs256-0123456789',
    CLICK_ID_SECRET: 'crash-click-id-secret-0123456789abcdef',
    PASSWORD_PEPPER: 'crash-pepper',
    ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
  },
  d1Databases: { DB: 'crash-db' },
  r2Buckets: { BUCKET: 'crash-bucket' },
  serviceBindings: { ASSETS: () => new Response('Not found', { status: 404 }) },
  queueProducers: {
    INGEST_QUEUE: 'tracker-ingest',
    STATS_QUEUE: 'tracker-stats',
    POSTBACK_QUEUE: 'tracker-postbacks',
  },
  queueConsumers: {
    'tracker-ingest': {
      maxBatchSize: 100,
      maxBatchTimeout: 1,
      maxRetries: 5,
      deadLetterQueue: 'tracker-ingest-dlq',
    },
  },
});

const url = await mf.ready;
const db = await mf.getD1Database('DB');
if (seed === 'seed') {
  for (const file of readdirSync(join(root, 'migrations'))
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(join(root, 'migrations', file), 'utf8');
    for (const statement of sql.split('--> statement-breakpoint').map((s) => s.trim())) {
      if (statement) await db.prepare(statement).run();
    }
  }
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
