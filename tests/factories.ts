import { env } from 'cloudflare:workers';
import { importJWK, type JWK, SignJWT } from 'jose';
import { expect } from 'vitest';
import type { CostSource } from '../schema/stats';
import { writeCosts } from '../worker/services/statistics/costs';
import { workerFetch } from './worker-fetch';

export type ApiAnswer<T = any> = { status: number; body: T; headers: Headers };

let ipCounter = 0;
/** A distinct client address per call site, so the login rate limit of one test spares the others. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}

/** One API call through the Worker's own fetch handler. JSON in and out. */
export async function api<T = any>(
  path: string,
  init: {
    method?: string;
    body?: unknown | FormData;
    token?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: BodyInit | undefined;
  if (init.body instanceof FormData) {
    body = init.body;
  } else if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await workerFetch(`http://tracker.test${path}`, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** A license key signed with the tests' vendor key. */
export async function licenseKey(email: string, { expiresIn = '30d' }: { expiresIn?: string | number } = {}) {
  const key = await importJWK(JSON.parse(env.TEST_LICENSE_PRIVATE_JWK) as JWK, 'EdDSA');
  return new SignJWT({ email })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer('edge-tracker-license')
    .setSubject(email)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key);
}

export const ADMIN = { username: 'owner', password: 'Sup3r-secret', email: 'owner@example.com' };

export async function setupInput(overrides: Record<string, unknown> = {}) {
  return {
    username: ADMIN.username,
    password: ADMIN.password,
    confirm_password: ADMIN.password,
    baseurl: 'https://tracker.example.com',
    email: ADMIN.email,
    timezone: 'America/New_York',
    license_key: await licenseKey(ADMIN.email),
    ...overrides,
  };
}

/** Runs first-run setup (once per test file's storage) and answers the admin's token. */
export async function setupInstallation(): Promise<string> {
  const done = await api<{ data: boolean }>('/api/setup-created');
  if (done.body.data) return login(ADMIN.username, ADMIN.password);
  const res = await api('/api/auth/application_startup', { body: await setupInput() });
  if (res.status !== 200) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

export async function login(username: string, password: string): Promise<string> {
  const res = await api('/api/auth/login', {
    body: { username, password },
    headers: { 'CF-Connecting-IP': freshIp() },
  });
  if (res.status !== 200 || !res.body.data.token)
    throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

/** POST /api/registeruser as `token`: a new user whose password confirmation repeats the password. */
export function registerUser(
  token: string,
  { username, email, password, role }: { username: string; email: string; password: string; role: string },
) {
  return api('/api/registeruser', {
    token,
    body: { username, email, password, password_confirmation: password, role },
  });
}

let userCounter = 0;
/** Creates a user with `role` through the admin API and answers its id and token. */
export async function userWithRole(adminToken: string, role: 'admin' | 'coach' | 'student') {
  userCounter += 1;
  const username = `${role}${userCounter}`;
  const password = 'Passw0rd!';
  const res = await registerUser(adminToken, { username, email: `${username}@example.com`, password, role });
  if (res.status !== 201) throw new Error(`user creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.user.id as number, username, password, token: await login(username, password) };
}

/** Makes `coachId` the coach of `studentId` through the admin API (docs/decisions/124). */
export async function assignCoach(adminToken: string, studentId: number, coachId: number | null) {
  const res = await api(`/api/users/${studentId}/coach`, {
    method: 'PUT',
    token: adminToken,
    body: { coachId },
  });
  if (res.status !== 200)
    throw new Error(`coach assignment failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A new student coached by `coach`. */
export async function studentOf(adminToken: string, coach: { id: number }) {
  const student = await userWithRole(adminToken, 'student');
  await assignCoach(adminToken, student.id, coach.id);
  return student;
}

// ---- Tracking engine (campaigns, items, tracking links) -------------------------------------

export const DESKTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
export const IPAD_UA =
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

async function created(path: string, token: string, body: Record<string, unknown>, idField: string) {
  const res = await api(path, { token, body });
  if (res.status !== 201) throw new Error(`${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data;
  const item = data.campaign?.campaignData ?? data.landing ?? data.offer ?? data.path ?? data.option;
  return item[idField] as number;
}

/** A campaign through POST /api/add-campaign; answers its id. */
export function makeCampaign(token: string, body: Record<string, unknown> = {}) {
  return created('/api/add-campaign', token, { name: 'Test campaign', ...body }, 'campaignId');
}
export function makeLanding(token: string, campaignId: number, body: Record<string, unknown> = {}) {
  return created(
    '/api/add-landing',
    token,
    { campaignId, name: 'Landing', url: 'https://lp.example/page', ...body },
    'landingPageId',
  );
}
export function makeOffer(token: string, campaignId: number, body: Record<string, unknown> = {}) {
  return created(
    '/api/add-offer',
    token,
    { campaignId, name: 'Offer', url: 'https://offer.example/buy', payout: '10', ...body },
    'offerPageId',
  );
}
export function makePath(token: string, campaignId: number, body: Record<string, unknown> = {}) {
  return created('/api/add-path', token, { campaignId, name: 'Path', ...body }, 'pathId');
}
export function makeOption(token: string, campaignId: number, body: Record<string, unknown> = {}) {
  return created('/api/add-option', token, { campaignId, name: 'Option', ...body }, 'optionId');
}

/** A campaign folder through POST /api/add-campaign-folder; answers its id. */
export async function makeFolder(token: string, name: string, body: Record<string, unknown> = {}) {
  const res = await api('/api/add-campaign-folder', { token, body: { name, ...body } });
  if (res.status !== 201) throw new Error(`folder failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.folder.campaignId as number;
}

/**
 * The target table of the statistics screen: POST statistics with `body` (the campaign, range and
 * options), then the job polled until done (15 s at most); answers the job's result.
 */
export async function targetReport(token: string, body: Record<string, unknown>) {
  const queued = await api('/api/statistics', { token, body });
  if (queued.status !== 200)
    throw new Error(`statistics failed: ${queued.status} ${JSON.stringify(queued.body)}`);
  const started = Date.now();
  for (;;) {
    const answer = await api('/api/get-target-statistics', {
      token,
      body: { uuid: queued.body.data.queueId },
    });
    if (answer.status === 200 && answer.body.data.done) return answer.body.data.data.data;
    if (Date.now() - started > 15_000)
      throw new Error(`the target job did not finish: ${JSON.stringify(answer.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The statistics export of `body` (POST export-statistics, 200), downloaded through its link;
 * answers the file's text. With `fileName`, the answer and the download must both name it.
 */
export async function exportedFile(token: string, body: Record<string, unknown>, fileName?: string) {
  const res = await api('/api/export-statistics', { token, body });
  expect(res.status).toBe(200);
  const file = await api(res.body.data.downloadLink);
  if (fileName !== undefined) {
    expect(res.body.data.fileName).toBe(fileName);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"`);
  }
  return String(file.body);
}

/** One target's cost on one day (`spend` in micros), written as a platform sync or an entry writes it. */
export function writeCost(
  campaignId: number,
  source: CostSource,
  cost: { date: string; target: string; impressions?: number; ad_clicks?: number; spend: number },
) {
  return writeCosts(env, campaignId, source, [{ impressions: 0, ad_clicks: 0, ...cost }], null);
}

/** A 422 answer whose field errors are exactly `errors`, the fields in that order (the spec's). */
export function expectFieldErrors(res: ApiAnswer, errors: Record<string, string[]>) {
  expect(res.status).toBe(422);
  expect(Object.keys(res.body.errors)).toEqual(Object.keys(errors));
  expect(res.body.errors).toEqual(errors);
}

/** The rows a SELECT answers from the local D1. */
export async function dbRows(sql: string, ...binds: unknown[]) {
  return (
    await env.DB.prepare(sql)
      .bind(...binds)
      .all<Record<string, any>>()
  ).results;
}

/** The column `n` of the first row a query answers (a count, a sum, a stored value named n). */
export async function dbValue<T = number>(sql: string, ...binds: unknown[]): Promise<T> {
  return (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: T }>())!.n;
}

/** A campaign alert as the campaign's metainfo keeps it. */
export type CampaignAlert = { type: string; key: string; message: string; [field: string]: unknown };

/** The alerts a campaign's metainfo holds ([] when it holds none). */
export async function campaignAlerts(campaignId: number): Promise<CampaignAlert[]> {
  const row = await env.DB.prepare('SELECT metainfo FROM campaigns WHERE id = ?1')
    .bind(campaignId)
    .first<{ metainfo: string | null }>();
  return JSON.parse(row?.metainfo || '{}').alerts ?? [];
}

/** A browser navigation to a tracking URL (path and query), not following redirects. */
export function hit(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {},
) {
  return workerFetch(`http://tracker.test${path}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    body: init.body,
    headers: { 'user-agent': DESKTOP_UA, 'sec-fetch-mode': 'navigate', accept: 'text/html', ...init.headers },
  });
}

/** Waits until `sql` (a count query) answers at least `count`: the queue consumer runs asynchronously. */
export async function waitForCount(sql: string, binds: unknown[], count: number, timeoutMs = 8000) {
  const started = Date.now();
  for (;;) {
    const row = await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>();
    if ((row?.n ?? 0) >= count) return row!.n;
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out waiting for ${count}: ${sql} -> ${row?.n}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until `table` holds at least `count` rows of the campaign (the ingest queue runs apart). */
export function waitForRows(table: string, campaignId: number, count: number) {
  return waitForCount(`SELECT count(*) n FROM ${table} WHERE campaign_id = ?1`, [campaignId], count);
}

/** The click id a tracking answer redirects with (the `clickid` of its Location). */
export function clickIdOf(res: Response): string {
  return new URL(res.headers.get('location')!).searchParams.get('clickid')!;
}

/** Opens the campaign's link for `target` as a browser would; answers the click id it hands out. */
export async function visitLink(campaignId: number, target: string): Promise<string> {
  const res = await hit(`/go/${campaignId}?tid=${target}`);
  if (res.status !== 302) throw new Error(`visit failed: ${res.status} ${await res.text()}`);
  return clickIdOf(res);
}

/** The network's postback for a click (`query` without the clickid), signed with its campaign's secret. */
export async function postback(clickId: string, query: string) {
  return hit(`/postback?clickid=${clickId}&${query}&secret=${await postbackSecret(clickId)}`);
}

/**
 * The postback secret of a campaign, given by id or by one of its click ids: only it converts
 * the campaign's clicks (docs/tracking.md "Postback secret", decision 120).
 */
export async function postbackSecret(of: number | string): Promise<string> {
  const { expectedSecret } = await import('../worker/services/postbacks/postback-secret');
  const { parseClickId } = await import('../worker/services/hot-path/click-ids');
  const campaignId = typeof of === 'number' ? of : parseClickId(env, of)?.campaignId;
  if (!campaignId) throw new Error(`not a click id: ${of}`);
  return expectedSecret(env, campaignId);
}
