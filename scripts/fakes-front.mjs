#!/usr/bin/env node
// The fakes' public port (docs/decisions/155): a Node HTTP server in front of the fakes' Worker.
// workerd's HTTP client keeps an idle connection in its pool for 5 s, and workerd's HTTP server
// (which `wrangler dev` binds on its port) closes an idle keep-alive connection after 5 s too.
// When the app's next platform call comes about 5 s after the previous one, it is written on a
// connection the fakes' server is closing: it fails in a few milliseconds with "Network
// connection lost." and never reaches the fake (the tab 8 submit of issue 25). This front keeps
// idle connections for a minute, so the app's pool always gives a connection up first, and asks
// the Worker behind it on a fresh connection per request, so nothing is pooled on that side.
//
// Usage: node scripts/fakes-front.mjs <port>. The fakes' Worker runs on a free inner port as a
// child; SIGTERM/SIGINT stop both.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';

/** Longer than any client's idle pool (workerd: 5 s, undici: 4 s), so clients close first. */
export const FRONT_KEEP_ALIVE_MS = 60_000;

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: node scripts/fakes-front.mjs <port>');
  process.exit(2);
}
const inner = await freePort();
const worker = spawn(
  process.execPath,
  [
    join(root, 'node_modules/wrangler/bin/wrangler.js'),
    'dev',
    '-c',
    'fakes/wrangler.toml',
    '--ip',
    '127.0.0.1',
    '--port',
    String(inner),
    '--inspector-port',
    '0',
    '--show-interactive-dev-session=false',
  ],
  { cwd: root, stdio: 'inherit', env: process.env },
);

const server = http.createServer((req, res) => {
  // agent: false is one connection per request to the Worker, closed after its answer.
  const forward = http.request(
    { host: '127.0.0.1', port: inner, method: req.method, path: req.url, headers: req.headers, agent: false },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    },
  );
  forward.on('error', (err) => {
    // Before the Worker is up, or while it restarts: say so, as a platform's gateway would.
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`fakes-front: ${err.message}`);
  });
  req.pipe(forward);
});
server.keepAliveTimeout = FRONT_KEEP_ALIVE_MS;
server.headersTimeout = FRONT_KEEP_ALIVE_MS + 1000;
server.listen(port, '127.0.0.1');

function stop(signal) {
  server.close();
  server.closeAllConnections();
  worker.kill(signal);
}
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(signal));
worker.on('exit', (code) => {
  server.close();
  server.closeAllConnections();
  process.exit(code ?? 1);
});
