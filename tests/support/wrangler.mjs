// The local `wrangler` steps of the Node scripts that start a Worker of their own (the browser
// tests' runner, tests/multi, tests/security, the operator and UI benchmarks): the quiet
// environment they run it in, the migrations of a state folder and the `wrangler dev` command line.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** wrangler with no metrics, no network look-up of the Cloudflare edge and no prompts. */
export const quietEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  CI: 'true',
};

/** Applies the D1 migrations to the local database kept in `state`; answers spawnSync's result. */
export function migrateLocal(state, env = quietEnv) {
  return spawnSync('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * The `npx` arguments of `wrangler dev` on 127.0.0.1:`port` with the inspector on
 * `inspectorPort` and local D1/R2/Queues in `state`: the Worker of wrangler.toml (or `script`),
 * `/__scheduled` when `scheduled`, each of `vars` as a `--var`, then `extra`.
 */
export function wranglerDevArgs({
  script,
  port,
  inspectorPort,
  state,
  scheduled = false,
  vars = {},
  extra = [],
}) {
  return [
    'wrangler',
    'dev',
    ...(script ? [script] : []),
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspectorPort),
    '--persist-to',
    state,
    ...(scheduled ? ['--test-scheduled'] : []),
    ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
    '--show-interactive-dev-session=false',
    ...extra,
  ];
}
