#!/usr/bin/env node
// `npm run deploy [-- --name <installation>] [-- --license-public-key <file>]`: takes a logged-in
// wrangler (or CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID) and an account to a working
// installation, and is safe to run again (docs/decisions/127, docs/operations.md):
//   1. reads the bindings from wrangler.toml (wrangler's own reader: no second list here);
//   2. creates the D1 database, the R2 bucket and every queue and dead-letter queue it binds
//      that the account lacks, and says "exists, unchanged" for the others;
//   3. writes .deploy/<name>/wrangler.json: wrangler.toml with this installation's names and
//      the database's id (wrangler.toml itself carries no ids);
//   4. applies the D1 migrations remotely, before any new code runs;
//   5. deploys the Worker (assets, queue consumers, cron) with the secrets it lacks, generated
//      here and handed to wrangler in a private temporary file, never printed;
//   6. prints the URL and the next steps.
// Wrangler does every call to Cloudflare, so CLOUDFLARE_API_BASE_URL points all of it elsewhere
// (tests/deploy/ runs it against a stand-in of the API).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GENERATED_SECRETS, generateSecrets } from './installation-secrets.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const wranglerBin = join(root, 'node_modules/wrangler/bin/wrangler.js');
const rootConfig = join(root, 'wrangler.toml');

class DeployError extends Error {}

/** Runs wrangler; answers its output. `quiet` keeps the output unless the command fails. */
function wrangler(args, { quiet = true, allowFailure = false, env = {} } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [wranglerBin, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_SEND_ERROR_REPORTS: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        NO_UPDATE_NOTIFIER: '1',
        FORCE_COLOR: '0',
        ...env,
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (!quiet) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      err += d;
      if (!quiet) process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 || allowFailure) return resolvePromise({ code, out, err });
      if (quiet) process.stderr.write(out + err);
      reject(new DeployError(`wrangler ${args.slice(0, 3).join(' ')} failed (exit ${code}).`));
    });
  });
}

/** The installation's name of a resource: the Worker's name swapped for it, or it put in front. */
export function installationNamer(baseName, installation) {
  if (installation === baseName) return (resource) => resource;
  return (resource) =>
    resource === baseName || resource.startsWith(`${baseName}-`)
      ? installation + resource.slice(baseName.length)
      : `${installation}-${resource}`;
}

/** Every queue the configuration binds: producers, consumers and their dead-letter queues. */
export function boundQueues(config) {
  const q = config.queues ?? {};
  const names = [
    ...(q.producers ?? []).map((p) => p.queue),
    ...(q.consumers ?? []).flatMap((c) => [c.queue, c.dead_letter_queue]),
  ];
  return [...new Set(names.filter(Boolean))];
}

// Queue, bucket, database and Worker names: lowercase letters, digits and dashes, and short enough
// that `<name>-tracker-postbacks-dlq` stays within Cloudflare's 63 characters.
const NAME = /^[a-z][a-z0-9-]{0,30}[a-z0-9]$/;

function readArgs(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: 'string' },
      'license-public-key': { type: 'string' },
      // The SPA in web/dist as it is (the deploy test runs after `npm test` built it).
      'skip-build': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  return values;
}

/** The generated configuration for one installation, beside its own state in .deploy/<name>/. */
function installationConfig(raw, { name, rename, databases, dir, secretNames }) {
  const rel = (p) => relative(dir, resolve(root, p)) || '.';
  const config = structuredClone(raw);
  config.name = name;
  if (config.main) config.main = rel(config.main);
  if (config.assets?.directory) config.assets.directory = rel(config.assets.directory);
  config.d1_databases = (raw.d1_databases ?? []).map((db) => ({
    ...db,
    database_name: rename(db.database_name),
    database_id: databases.get(rename(db.database_name)),
    migrations_dir: rel(db.migrations_dir ?? 'migrations'),
  }));
  config.r2_buckets = (raw.r2_buckets ?? []).map((b) => ({ ...b, bucket_name: rename(b.bucket_name) }));
  config.queues = {
    producers: (raw.queues?.producers ?? []).map((p) => ({ ...p, queue: rename(p.queue) })),
    consumers: (raw.queues?.consumers ?? []).map((c) => ({
      ...c,
      queue: rename(c.queue),
      ...(c.dead_letter_queue ? { dead_letter_queue: rename(c.dead_letter_queue) } : {}),
    })),
  };
  // An empty [vars] entry is one the installation fills with a secret (LICENSE_PUBLIC_KEY): a var
  // and a secret cannot share a name, so the secret wins.
  config.vars = Object.fromEntries(
    Object.entries(raw.vars ?? {}).filter(([k, v]) => !(v === '' && secretNames.has(k))),
  );
  return config;
}

/**
 * The Cloudflare API with wrangler's own credentials (`wrangler auth token`: the API token, or the
 * OAuth login refreshed). Listing and creating resources this way costs one request each instead
 * of one wrangler start each (docs/decisions/127).
 */
async function cloudflareApi() {
  const { out } = await wrangler(['auth', 'token', '--json']).catch(() => {
    throw new DeployError(
      'Not logged in to Cloudflare: run `npx wrangler login`, or set CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID.',
    );
  });
  const auth = JSON.parse(out.slice(out.indexOf('{')));
  const headers =
    auth.type === 'api_key'
      ? { 'X-Auth-Key': auth.key, 'X-Auth-Email': auth.email }
      : { Authorization: `Bearer ${auth.token}` };
  const base = (process.env.CLOUDFLARE_API_BASE_URL ?? 'https://api.cloudflare.com/client/v4').replace(
    /\/$/,
    '',
  );
  return async function api(method, path, body) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    const json = await res.json().catch(() => null);
    if (!json?.success) {
      const errors = json?.errors ?? [];
      const why = errors.map((e) => `${e.code}: ${e.message}`).join('; ') || `HTTP ${res.status}`;
      const err = new DeployError(`${method} ${path.replace(/\?.*/, '')} failed: ${why}`);
      err.codes = errors.map((e) => e.code);
      throw err;
    }
    return json;
  };
}

/** The account: CLOUDFLARE_ACCOUNT_ID, wrangler.toml's account_id, or the only one the login sees. */
async function accountId(api, raw) {
  const id = process.env.CLOUDFLARE_ACCOUNT_ID || raw.account_id;
  if (id) return id;
  const accounts = (await api('GET', '/accounts?per_page=50')).result;
  if (accounts.length === 1) return accounts[0].id;
  const names = accounts.map((a) => `${a.name} (${a.id})`).join(', ');
  throw new DeployError(`Choose the account with CLOUDFLARE_ACCOUNT_ID=<id>: ${names || 'none found'}.`);
}

/** Every page of a list call ({result, result_info}). */
async function listAll(api, path, pick = (r) => r) {
  const items = [];
  for (let page = 1; page <= 100; page += 1) {
    const sep = path.includes('?') ? '&' : '?';
    const json = await api('GET', `${path}${sep}page=${page}&per_page=100`);
    const batch = pick(json.result) ?? [];
    items.push(...batch);
    const pages = json.result_info?.total_pages;
    if (batch.length < 100 || (pages !== undefined && pages <= page)) break;
  }
  return items;
}

async function listSecrets(api, account, worker) {
  try {
    return new Set(
      (await api('GET', `/accounts/${account}/workers/scripts/${worker}/secrets`)).result.map((s) => s.name),
    );
  } catch (err) {
    if (err.codes?.includes(10007)) return new Set(); // no Worker yet: a first deploy
    throw err;
  }
}

function report(kind, name, created) {
  console.log(`  ${kind} ${name}: ${created ? 'created' : 'exists, unchanged'}`);
}

export async function deploy(argv) {
  const args = readArgs(argv);
  if (args.help) {
    console.log(
      'Usage: npm run deploy [-- --name <installation>] [--license-public-key <vendor-public.jwk.json>]',
    );
    return;
  }
  const { experimental_readRawConfig } = await import('wrangler');
  const raw = experimental_readRawConfig({ config: rootConfig }).rawConfig;
  const name = args.name ?? raw.name;
  if (!NAME.test(name)) {
    throw new DeployError(
      `--name "${name}": use 2 to 32 lowercase letters, digits and dashes, starting with a letter.`,
    );
  }
  const rename = installationNamer(raw.name, name);
  let licenseKey;
  if (args['license-public-key']) {
    licenseKey = readFileSync(resolve(args['license-public-key']), 'utf8').trim();
    let jwk;
    try {
      jwk = JSON.parse(licenseKey);
    } catch {
      jwk = null;
    }
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x || jwk.d) {
      throw new DeployError(
        '--license-public-key must name the vendor public Ed25519 key (a JWK JSON file).',
      );
    }
  }

  if (licenseKey && (raw.vars?.LICENSE_PUBLIC_KEY ?? '') !== '') {
    throw new DeployError(
      'LICENSE_PUBLIC_KEY is set in wrangler.toml [vars]: leave out --license-public-key.',
    );
  }
  console.log(`Deploying installation "${name}".`);
  if (!args['skip-build']) console.log('Building the SPA...');
  await new Promise((ok, fail) => {
    if (args['skip-build']) return ok();
    const vite = spawn(
      process.execPath,
      [
        join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        'web/vite.config.ts',
        '--logLevel',
        'warn',
      ],
      { cwd: root, stdio: 'inherit' },
    );
    vite.on('close', (code) => (code === 0 ? ok() : fail(new DeployError('The SPA build failed.'))));
  });

  const api = await cloudflareApi();
  const account = await accountId(api, raw);
  const childEnv = { CLOUDFLARE_ACCOUNT_ID: account };
  console.log('Resources:');
  const databases = new Map(
    (await listAll(api, `/accounts/${account}/d1/database`)).map((db) => [db.name, db.uuid]),
  );
  for (const db of raw.d1_databases ?? []) {
    const dbName = rename(db.database_name);
    const missing = !databases.has(dbName);
    if (missing) {
      const made = await api('POST', `/accounts/${account}/d1/database`, { name: dbName });
      databases.set(dbName, made.result.uuid);
    }
    report('D1 database', dbName, missing);
  }

  // One bucket at a time: the account's list is paged by cursor and may be long (an operator's).
  for (const b of raw.r2_buckets ?? []) {
    const bucket = rename(b.bucket_name);
    const missing = await api('GET', `/accounts/${account}/r2/buckets/${bucket}`).then(
      () => false,
      (err) => {
        if (err.codes?.includes(10006)) return true;
        throw err;
      },
    );
    if (missing) await api('POST', `/accounts/${account}/r2/buckets`, { name: bucket });
    report('R2 bucket', bucket, missing);
  }

  const queues = boundQueues(raw).map(rename);
  const existing = new Set((await listAll(api, `/accounts/${account}/queues`)).map((q) => q.queue_name));
  for (const q of queues) {
    if (!existing.has(q)) await api('POST', `/accounts/${account}/queues`, { queue_name: q });
    report('queue', q, !existing.has(q));
  }

  const dir = join(root, '.deploy', name);
  mkdirSync(dir, { recursive: true });
  const configPath = join(dir, 'wrangler.json');
  const secretNames = await listSecrets(api, account, name);
  const newSecrets = generateSecrets(Object.keys(GENERATED_SECRETS).filter((s) => !secretNames.has(s)));
  // The vendor's public key is put once; replacing it later is a `wrangler secret put` on purpose.
  if (licenseKey && !secretNames.has('LICENSE_PUBLIC_KEY')) newSecrets.LICENSE_PUBLIC_KEY = licenseKey;
  for (const s of [...Object.keys(GENERATED_SECRETS), 'LICENSE_PUBLIC_KEY']) {
    const state = secretNames.has(s) ? 'exists, unchanged' : s in newSecrets ? 'put' : 'not set';
    console.log(`  secret ${s}: ${state}`);
  }
  const allSecrets = new Set([...secretNames, ...Object.keys(newSecrets)]);
  const config = installationConfig(raw, { name, rename, databases, dir, secretNames: allSecrets });
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  console.log(`Configuration: ${relative(root, configPath)}`);

  console.log('Migrations (before the new code):');
  for (const db of config.d1_databases) {
    const r = await wrangler(['d1', 'migrations', 'apply', db.binding, '--remote', '--config', configPath], {
      env: childEnv,
    });
    const applied = [...r.out.matchAll(/│\s*(\S+\.sql)\s*│\s*✅/g)].map((m) => m[1]);
    console.log(applied.length ? `  applied ${[...new Set(applied)].join(', ')}` : '  none to apply');
  }

  console.log('Worker:');
  const secretsDir = mkdtempSync(join(tmpdir(), 'edge-deploy-'));
  let out;
  try {
    const secretsArgs = [];
    if (Object.keys(newSecrets).length > 0) {
      const file = join(secretsDir, 'secrets.json');
      writeFileSync(file, JSON.stringify(newSecrets), { mode: 0o600 });
      secretsArgs.push('--secrets-file', file);
    }
    ({ out } = await wrangler(['deploy', '--config', configPath, ...secretsArgs], { env: childEnv }));
  } finally {
    rmSync(secretsDir, { recursive: true, force: true });
  }
  const url = /https:\/\/\S+\.workers\.dev/.exec(out)?.[0];
  const version = /Current Version ID:\s*(\S+)/.exec(out)?.[1];
  console.log(
    `  deployed${version ? ` version ${version}` : ''}; cron ${(raw.triggers?.crons ?? []).join(', ')}`,
  );
  const licenseSet = allSecrets.has('LICENSE_PUBLIC_KEY') || (raw.vars?.LICENSE_PUBLIC_KEY ?? '') !== '';
  console.log(`
Edge Tracker "${name}" is live${url ? ` at ${url}` : ''}.
Next:
  1. Open ${url ?? 'the Worker URL'} and complete the first-run setup: the admin user, the time zone
     and the license key from your vendor.${
       licenseSet
         ? ''
         : `
     LICENSE_PUBLIC_KEY is not set, so no license key is accepted yet: run again with
     --license-public-key <the vendor's public JWK file>.`
     }
  2. Optional: a custom domain (Cloudflare dashboard, Workers -> ${name} -> Domains), and mail for
     password resets: npx wrangler secret put MAIL_API_URL --config ${relative(root, configPath)}
     (and MAIL_API_KEY). See README.md, "Deploy to Cloudflare", and docs/operations.md.`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  deploy(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof DeployError ? err.message : err);
    process.exit(1);
  });
}
