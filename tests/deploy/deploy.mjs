#!/usr/bin/env node
// End to end: the real `npm run deploy` (scripts/deploy.mjs, which runs the real wrangler) against
// the stand-in of the Cloudflare API (tests/deploy/cloudflare-stand-in.mjs), twice, for an
// installation of its own (--name). The first run must create every resource wrangler.toml binds
// exactly once, send the migrations in order, set the secrets without printing them and deploy the
// Worker with its bindings, consumers and cron; the second must create nothing and say so.
// Loopback only; needs web/dist (`npm run build`). Run: `npm run test:deploy`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { experimental_readRawConfig } from 'wrangler';
import { freePort } from '../../scripts/free-port.mjs';
import { startCloudflareStandIn } from './cloudflare-stand-in.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const NAME = 'deploy-test';
const ACCOUNT = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const started = Date.now();
// The whole test is bounded: a hung wrangler fails it instead of hanging `npm test`.
const deadline = setTimeout(() => {
  console.error('deploy test: timed out after 240 s');
  process.exit(1);
}, 240_000);

const raw = experimental_readRawConfig({ config: join(root, 'wrangler.toml') }).rawConfig;
// What wrangler.toml binds, read here on its own: the script must not be the only reader.
const rename = (resource) =>
  resource === raw.name || resource.startsWith(`${raw.name}-`)
    ? NAME + resource.slice(raw.name.length)
    : `${NAME}-${resource}`;
const expectedQueues = [
  ...new Set(
    [
      ...raw.queues.producers.map((p) => p.queue),
      ...raw.queues.consumers.flatMap((c) => [c.queue, c.dead_letter_queue]),
    ].filter(Boolean),
  ),
].map(rename);
const expectedDb = rename(raw.d1_databases[0].database_name);
const expectedBucket = rename(raw.r2_buckets[0].bucket_name);
const migrations = readdirSync(join(root, 'migrations'))
  .filter((f) => f.endsWith('.sql'))
  .sort();

const work = mkdtempSync(join(tmpdir(), 'edge-deploy-test-'));
const licenseKeys = JSON.parse(readFileSync(join(root, 'tests/fixtures/license-test-keys.json'), 'utf8'));
const publicKeyFile = join(work, 'vendor-public.jwk.json');
writeFileSync(publicKeyFile, JSON.stringify(licenseKeys.publicJwk));

const standIn = await startCloudflareStandIn({ port: await freePort(), accountId: ACCOUNT });
const env = {
  PATH: process.env.PATH,
  // A home of its own: no wrangler login, cache or settings from the machine leak in.
  HOME: work,
  XDG_CONFIG_HOME: join(work, '.config'),
  CLOUDFLARE_API_BASE_URL: standIn.url,
  CLOUDFLARE_API_TOKEN: 'stand-in-token',
  CLOUDFLARE_ACCOUNT_ID: ACCOUNT,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  CI: 'true',
};

function deploy(extra = []) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/deploy.mjs', '--name', NAME, '--skip-build', ...extra], {
      cwd: root,
      env,
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}
const creates = (re) =>
  standIn.calls.filter((c) => c.method === 'POST' && re.test(c.path) && c.status === 200);
const accountPath = `/accounts/${ACCOUNT}`;

try {
  // --- First run: a fresh account. ---
  const first = await deploy(['--license-public-key', publicKeyFile]);
  assert.equal(first.code, 0, `first deploy failed:\n${first.output}`);

  // Every resource created once, with the installation's names.
  assert.equal(creates(new RegExp(`^${accountPath}/d1/database$`)).length, 1);
  assert.deepEqual([...standIn.state.d1.keys()], [expectedDb]);
  assert.equal(creates(new RegExp(`^${accountPath}/r2/buckets$`)).length, 1);
  assert.deepEqual([...standIn.state.r2.keys()], [expectedBucket]);
  assert.equal(expectedQueues.length, 8);
  assert.equal(creates(new RegExp(`^${accountPath}/queues$`)).length, expectedQueues.length);
  for (const q of expectedQueues) assert.ok(standIn.state.queues.has(q), `queue ${q} was not created`);
  assert.deepEqual([...standIn.state.queues.keys()].sort(), [...expectedQueues].sort());

  // Migrations: every file, in order, each recorded once, before the Worker was uploaded.
  const db = standIn.state.d1.get(expectedDb);
  assert.deepEqual(db.migrations, migrations);
  const sent = migrations.map((file) => {
    const first200 = readFileSync(join(root, 'migrations', file), 'utf8').slice(0, 200);
    return db.queries.findIndex((sql) => sql.startsWith(first200));
  });
  assert.ok(
    sent.every((i, k) => i >= 0 && (k === 0 || i > sent[k - 1])),
    `migrations out of order: ${sent}`,
  );
  const lastQuery = standIn.calls.findLastIndex((c) => c.path.endsWith('/query'));
  const firstUpload = standIn.calls.findIndex(
    (c) => c.method === 'PUT' && c.path.endsWith(`/scripts/${NAME}`),
  );
  assert.ok(lastQuery < firstUpload, 'the Worker was uploaded before the migrations ran');

  // The Worker: one upload, its bindings, every consumer, the cron and workers.dev.
  const worker = standIn.state.scripts.get(NAME);
  assert.ok(worker, 'no Worker uploaded');
  assert.equal(worker.uploads, 1);
  const binding = (name) => worker.bindings.find((b) => b.name === name);
  assert.equal(binding('DB').type, 'd1');
  assert.equal(binding('DB').id, db.uuid);
  assert.equal(binding('BUCKET').bucket_name, expectedBucket);
  for (const p of raw.queues.producers) assert.equal(binding(p.binding).queue_name, rename(p.queue));
  for (const c of raw.queues.consumers) {
    const consumers = standIn.state.queues.get(rename(c.queue)).consumers;
    assert.equal(consumers.length, 1, `consumers of ${c.queue}`);
    assert.equal(consumers[0].script_name, NAME);
    assert.equal(
      consumers[0].dead_letter_queue,
      c.dead_letter_queue ? rename(c.dead_letter_queue) : undefined,
    );
    assert.equal(consumers[0].settings.max_retries, c.max_retries);
  }
  assert.deepEqual(worker.schedules, raw.triggers.crons);
  assert.equal(worker.workersDev, true);
  assert.ok(standIn.state.assetFilesUploaded > 0, 'no static assets uploaded');
  assert.match(first.output, new RegExp(`https://${NAME}\\.stand-in\\.workers\\.dev`));
  assert.match(first.output, /first-run setup/);

  // Secrets: generated, set, never printed; the license key's empty var gave way to the secret.
  const secrets = Object.fromEntries(worker.secrets);
  assert.deepEqual(Object.keys(secrets).sort(), [
    'CLICK_ID_SECRET',
    'ENCRYPTION_KEY',
    'JWT_SECRET',
    'LICENSE_PUBLIC_KEY',
    'PASSWORD_PEPPER',
  ]);
  assert.equal(Buffer.from(secrets.ENCRYPTION_KEY, 'base64').length, 32);
  assert.ok(secrets.JWT_SECRET.length >= 64);
  assert.deepEqual(JSON.parse(secrets.LICENSE_PUBLIC_KEY), licenseKeys.publicJwk);
  assert.equal(binding('LICENSE_PUBLIC_KEY').type, 'secret_text');
  for (const [name, value] of Object.entries(secrets)) {
    if (name !== 'LICENSE_PUBLIC_KEY') assert.ok(!first.output.includes(value), `${name} was printed`);
  }
  assert.equal(first.output.match(/: created/g)?.length, 2 + expectedQueues.length);
  assert.equal(first.output.match(/: put/g)?.length, 5);

  // --- Second run: nothing is created, nothing that exists changes. ---
  const callsBefore = standIn.calls.length;
  const second = await deploy();
  assert.equal(second.code, 0, `second deploy failed:\n${second.output}`);
  const again = standIn.calls.slice(callsBefore);
  const made = again.filter(
    (c) => c.method === 'POST' && /\/(d1\/database|r2\/buckets|queues)$/.test(c.path),
  );
  assert.deepEqual(made, [], 'the second run created resources');
  assert.equal(standIn.state.queues.size, expectedQueues.length);
  assert.deepEqual(db.migrations, migrations);
  assert.deepEqual(Object.fromEntries(worker.secrets), secrets);
  assert.ok(!again.some((c) => c.path.endsWith('/secrets') && c.method === 'PUT'));
  for (const c of raw.queues.consumers)
    assert.equal(standIn.state.queues.get(rename(c.queue)).consumers.length, 1);
  assert.equal(worker.uploads, 2, 'the second run deploys the code once more');
  assert.equal(standIn.state.assetFilesUploaded > 0, true);
  assert.equal(second.output.match(/exists, unchanged/g)?.length, 2 + expectedQueues.length + 5);
  assert.match(second.output, /none to apply/);
  assert.doesNotMatch(second.output, /: (created|put)\b/);

  // The stand-in knew every call wrangler and the script made (none went unanswered).
  assert.deepEqual(
    standIn.calls.filter((c) => c.unknown),
    [],
  );
  console.log(
    `deploy test: ok (${expectedQueues.length} queues, ${migrations.length} migrations, 2 runs, ${standIn.calls.length} API calls, ${Math.round((Date.now() - started) / 1000)} s)`,
  );
} finally {
  clearTimeout(deadline);
  await standIn.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(join(root, '.deploy', NAME), { recursive: true, force: true });
}
