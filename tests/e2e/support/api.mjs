// The server under test and its API: the base URL, the first administrator, users and their
// tokens, campaigns, settings and the statistics job, all over HTTP (no browser).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { setUp, signIn } from '../../support/first-run.mjs';
import { until } from './expect.mjs';

export const BASE = process.env.E2E_BASE_URL ?? '';
assert.ok(BASE, 'E2E_BASE_URL is not set: run the browser tests through tests/e2e/run.mjs');

export { mintLicense } from '../../support/first-run.mjs';

const root = new URL('../../../', import.meta.url);

/** The first administrator, made by the setup test (or by ensureInstalled when run alone). */
export const ADMIN = { username: 'owner', password: 'Owner-pass-2027', email: 'admin@example.com' };

export const MESSAGES = {
  setupComplete: 'Setup complete! You may now log in.',
  sessionTimeout: 'Session timeout. Please login again.',
  loginFailed: 'Username or Password are incorrect',
  passwordChanged: 'Password successfully changed',
  resetLinkSent:
    'If an account uses that address, we have sent it a link to reset the password. Please check your email.',
};

export async function api(path, { method, body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(new URL(path, BASE), {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, body: json };
}

function devVar(name) {
  const text = readFileSync(new URL('.dev.vars', root), 'utf8');
  const line = text.split('\n').find((l) => l.startsWith(`${name}=`));
  assert.ok(line, `${name} missing from .dev.vars`);
  return line.slice(name.length + 1).trim();
}

/** A token signed with the installation's secret that expired an hour ago. */
export async function expiredToken(userId = 1) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ver: 0 })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .sign(new TextEncoder().encode(devVar('JWT_SECRET')));
}

/** Setup through the API when this server has not been set up yet (a file run on its own). */
export async function ensureInstalled() {
  const done = await api('/api/setup-created');
  if (done.body?.data !== true) await setUp(BASE, ADMIN);
}

/** The admin's API token (the installation's first user). */
export const adminToken = () => apiLogin(ADMIN.username, ADMIN.password);

export const apiLogin = (username, password) => signIn(BASE, { username, password });

let counter = 0;
/** A user made through the admin API; answers its credentials. */
export async function createUserViaApi(role = 'student') {
  counter += 1;
  const name = `${role}${Date.now().toString(36)}${counter}`;
  const user = { username: name, email: `${name}@example.com`, password: 'Pass-word-123', role };
  const token = await adminToken();
  const res = await api('/api/registeruser', {
    token,
    body: { ...user, password_confirmation: user.password },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { ...user, id: res.body.data.user.id };
}

/** A user made through the admin API and signed in over it: its credentials and its API token. */
export async function userWithToken(role = 'student') {
  const user = await createUserViaApi(role);
  return { ...user, token: await apiLogin(user.username, user.password) };
}

/** Stores the managed LiveIntent account of Settings (the fake takes any username and password). */
async function storeLiveIntentAccount(adminToken) {
  const settings = await api('/api/update-setting', {
    token: adminToken,
    body: {
      liAdvertiserId: 'e2e-adv',
      liAid: 'e2e-aid',
      liFetchEnable: '0',
      liUsername: 'li-e2e',
      liPassword: 'li-pass',
    },
  });
  assert.equal(settings.status, 200, JSON.stringify(settings.body));
}

/**
 * An administrator of their own, made and signed in over the API (credentials and `token`), once
 * Settings hold the managed LiveIntent account that LiveIntent campaigns need.
 */
export async function liveIntentAdmin() {
  await storeLiveIntentAccount(await adminToken());
  return userWithToken('admin');
}

/** A campaign through POST /api/add-campaign as the owner of `token`; answers its id. */
export async function newCampaign(token, body) {
  const res = await api('/api/add-campaign', { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.campaign.campaignData.campaignId;
}

/** An offer through POST /api/add-offer (`Offer` at offer.example/buy unless named otherwise); answers its data. */
export async function addOffer(token, offer) {
  const res = await api('/api/add-offer', {
    token,
    body: { name: 'Offer', url: 'https://offer.example/buy', ...offer },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data;
}

/** The campaign's target totals from a forced totals job: POST statistics, then poll the job. */
export async function targetTotals(token, campaignId, { timeout = 10_000 } = {}) {
  const res = await api('/api/statistics', {
    token,
    body: { campaignId, startDate: '', endDate: '', totalOnly: true, force: true },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const job = await until(
    async () => {
      const answer = await api('/api/get-target-statistics', {
        token,
        body: { uuid: res.body.data.queueId },
      });
      return answer.body?.data?.done && answer.body;
    },
    'the totals job did not finish',
    { timeout },
  );
  return job.data.data.data.targetTotal;
}
