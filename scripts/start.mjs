#!/usr/bin/env node
// `npm start`: local secrets, migrations, SPA build, then one Worker serving API and SPA on
// http://127.0.0.1:$PORT (default 8787) with local D1, R2, Queues and the cron trigger. The ad
// platforms' fakes run beside it (a second Worker on a free port, docs/decisions/070) unless
// PLATFORMS=real, which leaves the platform URLs of wrangler.toml (the real APIs).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from './free-port.mjs';
import { fakeVarArgs, startFakes } from './platform-fakes.mjs';

const run = (cmd, args, extraEnv = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const env = { CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' };
const port = process.env.PORT || '8787';

run('node', ['scripts/dev-setup.mjs']);
// STATE_DIR gives an installation local D1/R2/Queues of its own (a second one beside the first:
// `PORT=8788 STATE_DIR=.wrangler/second npm start`); without it, wrangler's default .wrangler/state.
const persist = process.env.STATE_DIR ? ['--persist-to', process.env.STATE_DIR] : [];
run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', ...persist], { ...env, CI: 'true' });
run('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']);

const license = readFileSync(new URL('../.dev-license.txt', import.meta.url), 'utf8');
console.log(
  `\nEdge Tracker: http://127.0.0.1:${port}\nFor the first-run setup page, a local development license:\n${license}`,
);

const useFakes = process.env.PLATFORMS !== 'real';
const fakesPort = useFakes ? Number(process.env.FAKES_PORT) || (await freePort()) : 0;
const fakes = useFakes ? startFakes(fakesPort, { stdio: 'inherit', env: { ...process.env, ...env } }) : null;
if (fakes)
  console.log(`Ad platform fakes: http://127.0.0.1:${fakesPort} (PLATFORMS=real to use the real APIs)`);
// wrangler's default inspector port 9229 would be taken by a second installation.
const inspectorPort = process.env.INSPECTOR_PORT || String(await freePort());

const child = spawn(
  'npx',
  [
    'wrangler',
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    port,
    '--inspector-port',
    inspectorPort,
    ...persist,
    // OPERATOR_HOST=localhost npm start: this installation is also the operator's (master dashboard).
    ...(process.env.OPERATOR_HOST ? ['--var', `OPERATOR_HOST:${process.env.OPERATOR_HOST}`] : []),
    // OUTBOUND_ALLOW_HOSTS=127.0.0.1,localhost npm start: landing pages or student installations
    // served on this machine may be read (development only, docs/decisions/122).
    ...(process.env.OUTBOUND_ALLOW_HOSTS
      ? ['--var', `OUTBOUND_ALLOW_HOSTS:${process.env.OUTBOUND_ALLOW_HOSTS}`]
      : []),
    '--test-scheduled',
    // The shipped configuration is production; only a local `npm start` is development.
    '--var',
    'ENVIRONMENT:development',
    '--show-interactive-dev-session=false',
    ...(fakes ? fakeVarArgs(fakesPort) : []),
  ],
  { stdio: 'inherit', env: { ...process.env, ...env } },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    child.kill(signal);
    fakes?.kill(signal);
  });
}
child.on('exit', (code) => {
  fakes?.kill('SIGTERM');
  process.exit(code ?? 0);
});
fakes?.on('exit', (code) => {
  if (code) console.error(`The ad platform fakes stopped (exit ${code}); platform calls will fail.`);
});
