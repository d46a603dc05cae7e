// The ad platforms' fakes (fakes/, docs/decisions/070) beside the app: `npm start` and the
// browser tests run them as a second local Worker and point the app's platform base URLs at it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `wrangler dev --var` arguments that send every platform call of the app to the fakes. */
export function fakeVarArgs(port) {
  const base = `http://127.0.0.1:${port}`;
  const vars = {
    FACEBOOK_API_URL: `${base}/facebook`,
    FACEBOOK_DIALOG_URL: `${base}/facebook/dialog/oauth`,
    FACEBOOK_APP_ID: 'fake-app-id',
    FACEBOOK_APP_SECRET: 'fake-app-secret',
    TIKTOK_API_URL: `${base}/tiktok/open_api/v1.3`,
    TABOOLA_API_URL: `${base}/taboola/backstage`,
    MEDIAGO_API_URL: `${base}/mediago`,
    LIVEINTENT_API_URL: `${base}/liveintent`,
    TRAFFIC_PROVIDER_API_URL: `${base}/provider`,
  };
  return Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
}

/**
 * Starts the fakes' Worker behind a keep-alive front on 127.0.0.1:port (scripts/fakes-front.mjs,
 * docs/decisions/155); `options` go to spawn (stdio, detached, env). Killing the process it
 * answers, or its group, stops both.
 */
export function startFakes(port, options = {}) {
  return spawn(
    process.execPath,
    [fileURLToPath(new URL('./fakes-front.mjs', import.meta.url)), String(port)],
    options,
  );
}
