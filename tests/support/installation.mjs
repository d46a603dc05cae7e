// A real installation for the Node scripts (tests/multi, tests/security): a `wrangler dev`
// Worker on free ports (and a free inspector port), with local D1/R2/Queues of its own
// (--persist-to), migrated, then set up and signed in over HTTP like a new owner would.
// Needs web/dist (`npm run build`) and the local keys of `scripts/dev-setup.mjs`.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/free-port.mjs';
import { setUp, signIn } from './first-run.mjs';
import { migrateLocal, quietEnv, wranglerDevArgs } from './wrangler.mjs';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const NAVIGATE = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'sec-fetch-mode': 'navigate',
  accept: 'text/html',
};
export const ADMIN = { username: 'owner', password: 'Owner-pass-2027', email: 'admin@example.com' };

/** Every installation started here; all are killed when the process exits. */
export const servers = [];
function kill(server, signal) {
  try {
    process.kill(-server.child.pid, signal);
  } catch {
    // already gone
  }
}
export async function stop(server) {
  if (server.stopped) return;
  server.stopped = true;
  kill(server, 'SIGTERM');
  await Promise.race([
    new Promise((r) => (server.child.exitCode !== null ? r() : server.child.once('exit', r))),
    new Promise((r) => setTimeout(r, 5000)),
  ]);
  kill(server, 'SIGKILL');
}
process.on('exit', () => {
  for (const s of servers) kill(s, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/**
 * One installation: its own state directory, migrations, then `sql` (statements run on its local
 * D1 before it starts), and a Worker on free ports with `vars` (`--var`), logging to `<logs>/<name>.log`.
 */
export async function start(name, { vars = {}, logs, sql = [], env = quietEnv } = {}) {
  const state = mkdtempSync(join(tmpdir(), `edge-multi-${name}-`));
  assert.equal(migrateLocal(state, env).status, 0, `migrations of ${name} failed`);
  for (const command of sql) {
    const s = spawnSync(
      'npx',
      ['wrangler', 'd1', 'execute', 'DB', '--local', '--persist-to', state, '--command', command],
      { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    assert.equal(s.status, 0, `${command} on ${name} failed`);
  }
  const port = await freePort();
  const logFile = join(logs, `${name}.log`);
  const log = openSync(logFile, 'w');
  const args = wranglerDevArgs({ port, inspectorPort: await freePort(), state, scheduled: true, vars });
  const child = spawn('npx', args, { cwd: root, env, detached: true, stdio: ['ignore', log, log] });
  const server = { name, state, child, base: `http://127.0.0.1:${port}`, stopped: false };
  servers.push(server);
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      const res = await fetch(`${server.base}/api/setup-created`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${name} did not start:\n${readFileSync(logFile, 'utf8').slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return server;
}

/** One JSON API call; answers the status, the parsed body (or null) and the headers. */
export async function call(base, path, { body, token, headers = {}, method, signal } = {}) {
  const res = await fetch(new URL(path, base), {
    method: method ?? (body ? 'POST' : 'GET'),
    headers: {
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
    signal,
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, body: json, text, headers: res.headers };
}

/** First-run setup with a fresh license, then the owner's sign-in: sets `server.token`. */
export async function install(server) {
  await setUp(server.base, ADMIN);
  server.token = await signIn(server.base, ADMIN);
}

/** Polls `check` until it answers something truthy, at most `timeoutMs`. */
export async function waitFor(check, message, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((r) => setTimeout(r, 300));
  }
}
