#!/usr/bin/env node
// Crash test (npm run bench:crash; docs/performance.md "Crash"): clicks stream in, the server is
// killed (SIGKILL, the whole process group) after about half of them were answered, restarted
// on its persisted state, given time to drain; then redirects answered are compared with visits
// stored. Once in the default batched mode, once in durable mode (docs/decisions/043).
// Environment: CRASH_CLICKS (default 5000), CRASH_CONNECTIONS (32).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { bundleWorker, log, root, sleep } from './harness.mjs';

const CLICKS = Number(process.env.CRASH_CLICKS ?? 5000);
const CONNECTIONS = Number(process.env.CRASH_CONNECTIONS ?? 32);

const { work, out } = bundleWorker('crash');

/** Starts one life of the server; answers its url, a count() and a kill(). */
async function start(persist, mode, seed) {
  const child = spawn(
    process.execPath,
    [join(root, 'tests/bench/crash-server.mjs'), out, persist, mode, seed ? 'seed' : ''],
    {
      cwd: root,
      detached: true, // a process group of its own: node, Miniflare and workerd die together
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => {
    try {
      const msg = JSON.parse(line);
      waiting.shift()?.(msg);
    } catch {
      // workerd's own output
    }
  });
  const next = () => new Promise((resolve) => waiting.push(resolve));
  const { url } = await next();
  return {
    url,
    count: async () => {
      child.stdin.write('count\n');
      return (await next()).visits;
    },
    kill: () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      return new Promise((r) => (child.exitCode !== null || child.signalCode ? r() : child.once('exit', r)));
    },
  };
}

async function crashRun(mode) {
  const persist = join(work, `state-${mode}`);
  let server = await start(persist, mode, true);
  let answered = 0;
  let sent = 0;
  let killed = false;
  const killAt = Math.floor(CLICKS / 2);
  const worker = async () => {
    while (sent < CLICKS && !killed) {
      sent += 1;
      try {
        const res = await fetch(new URL('/go/1?tid=crash', server.url), {
          redirect: 'manual',
          headers: {
            'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0 Safari/537.36',
            accept: 'text/html',
          },
        });
        await res.arrayBuffer();
        if (res.status === 302 && !killed) answered += 1;
      } catch {
        // the server died under this request: not answered
      }
      if (answered >= killAt && !killed) {
        killed = true;
        await server.kill();
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const streamSeconds = (Date.now() - started) / 1000;
  server = await start(persist, mode, false);
  // Let the restarted server drain whatever survived: stop when nothing new arrives for 5 s.
  let visits = await server.count();
  let stableSince = Date.now();
  while (Date.now() - stableSince < 5000) {
    await sleep(250);
    const n = await server.count();
    if (n !== visits) {
      visits = n;
      stableSince = Date.now();
    }
  }
  await server.kill();
  return { mode, answered, visits, lost: answered - visits, streamSeconds };
}

const results = [];
try {
  for (const mode of ['batched', 'durable']) {
    log(
      `Crash run, ${mode} mode: ${CLICKS} clicks at ${CONNECTIONS} connections, killed after ${Math.floor(CLICKS / 2)} answers...`,
    );
    results.push(await crashRun(mode));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
log('');
log('Edge Tracker crash test (SIGKILL mid-stream, restart on the persisted state)');
for (const r of results) {
  const pct = r.answered ? ((100 * r.lost) / r.answered).toFixed(2) : '0';
  log(
    `${r.mode.padEnd(8)} redirects answered ${String(r.answered).padStart(5)}  visits stored ${String(r.visits).padStart(5)}  lost ${String(r.lost).padStart(4)} (${pct} %)`,
  );
}
mkdirSync(join(root, '.bench'), { recursive: true });
writeFileSync(
  join(root, '.bench/crash.json'),
  `${JSON.stringify({ date: new Date().toISOString(), results }, null, 2)}\n`,
);
const durable = results.find((r) => r.mode === 'durable');
process.exit(durable && durable.lost <= 0 ? 0 : 1);
