#!/usr/bin/env node
// Browser tests: a fresh Worker (throwaway local D1/R2 state) on a free port, then
// `node --test` over tests/e2e/*.test.mjs against it. The SPA must be built already
// (`npm run test:e2e` runs `npm run build` first). The server is always stopped at the end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/free-port.mjs';
import { fakeVarArgs, startFakes } from '../../scripts/platform-fakes.mjs';
import { migrateLocal, quietEnv, wranglerDevArgs } from '../support/wrangler.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: quietEnv, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with ${r.status}`);
}

async function waitUntilUp(url, server, logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  let log = '';
  try {
    log = readFileSync(logFile, 'utf8').slice(-4000);
  } catch {}
  throw new Error(`The server did not answer ${url} in time.\n${log}`);
}

let server = null;
// The ad platforms' fakes (docs/decisions/070): a second Worker the app's platform URLs point at.
let fakes = null;
function killGroup(signal, procs = [server, fakes]) {
  for (const proc of procs) {
    if (!proc) continue;
    try {
      // The whole process group: npx, wrangler and workerd.
      process.kill(-proc.pid, signal);
    } catch {
      // already gone
    }
  }
}
async function stopServer() {
  if (!server) return;
  killGroup('SIGTERM', [server]);
  const exited = new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  // workerd may outlive npx: make sure nothing of the group is left.
  killGroup('SIGKILL', [server]);
  server = null;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    killGroup('SIGKILL');
    process.exit(130);
  });
}
process.on('exit', () => killGroup('SIGKILL'));

function startServer(port, inspectorPort, state, logFile, fakesPort) {
  const log = openSync(logFile, 'w');
  // A free inspector port, so that this server runs beside `npm start` or another test run.
  const args = wranglerDevArgs({
    port,
    inspectorPort,
    state,
    vars: {
      // wrangler.toml ships production; the browser tests read reset mails from the dev outbox.
      ENVIRONMENT: 'development',
      // Requests to http://localhost:<port> are the operator's (master dashboard, test 15); the
      // same server on 127.0.0.1 is a student installation.
      OPERATOR_HOST: 'localhost',
      OPERATOR_TIMEOUT_MS: 10000,
      // The landing pages (test 09) and the student installations (test 15) are served on this
      // machine; the outbound guard trusts these two names in development only (decision 122).
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1,localhost',
    },
    extra: fakeVarArgs(fakesPort),
  });
  // detached: a process group of its own, so the whole tree can be stopped at once.
  return spawn('npx', args, { cwd: root, env: quietEnv, detached: true, stdio: ['ignore', log, log] });
}

let state = null;
let code = 1;
try {
  if (!readdirSync(join(root, 'web/dist')).includes('index.html')) {
    throw new Error('web/dist is not built: run `npm run build` (or `npm run test:e2e`).');
  }
  run('node', ['scripts/dev-setup.mjs']);

  state = mkdtempSync(join(tmpdir(), 'edge-e2e-'));
  const migrated = migrateLocal(state);
  if (migrated.status !== 0) throw new Error(`the migrations failed with ${migrated.status}`);

  mkdirSync(join(here, '.tmp'), { recursive: true });
  const logFile = join(here, '.tmp', 'server.log');
  const fakesPort = await freePort();
  const fakesLog = openSync(join(here, '.tmp', 'fakes.log'), 'w');
  fakes = startFakes(fakesPort, {
    cwd: root,
    env: quietEnv,
    detached: true,
    stdio: ['ignore', fakesLog, fakesLog],
  });
  await waitUntilUp(
    `http://127.0.0.1:${fakesPort}/__expected`,
    fakes,
    join(here, '.tmp', 'fakes.log'),
    60_000,
  );
  console.log(`e2e: ad platform fakes at http://127.0.0.1:${fakesPort}`);
  let base = '';
  // On a busy machine wrangler has once been seen to stall at start: one more try on a new port.
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = startServer(port, await freePort(), state, logFile, fakesPort);
    try {
      await waitUntilUp(`${base}/api/setup-created`, server, logFile, 60_000);
      break;
    } catch (err) {
      await stopServer();
      if (attempt >= 2) throw err;
      console.error(`e2e: the server did not start (${err.message.split('\n')[0]}); trying again`);
    }
  }
  console.log(`e2e: server up at ${base} (log: tests/e2e/.tmp/server.log)`);

  // `node tests/e2e/run.mjs 06 07` runs only the files whose names start with those prefixes.
  const only = process.argv.slice(2);
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.test.mjs'))
    .filter((f) => only.length === 0 || only.some((prefix) => f.startsWith(prefix)))
    .sort()
    .map((f) => join(here, f));
  // One at a time, in name order: the first file drives the first-run setup of this server.
  const tests = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...files], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, E2E_BASE_URL: base, E2E_FAKES_URL: `http://127.0.0.1:${fakesPort}` },
    // A bound on a hung browser, not a speed target: 137 tests take about 19 minutes on a quiet
    // 2-core machine and 35 were not enough on a loaded one (2026-11-27); CI allows 90 for all.
    timeout: 50 * 60_000,
  });
  if (tests.error) console.error(`e2e: ${tests.error.message}`);
  code = tests.status ?? 1;
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  code = 1;
} finally {
  await stopServer();
  killGroup('SIGKILL', [fakes]);
  if (state) rmSync(state, { recursive: true, force: true });
}
process.exit(code);
