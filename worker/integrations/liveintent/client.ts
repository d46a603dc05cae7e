import type { Env } from '../../env';
import {
  type AdDay,
  checkedRow,
  type HttpContext,
  isObject,
  PlatformError,
  type PlatformRefusal,
  platformObject,
  toCount,
  toMicros,
} from '../http';

// LiveIntent (shapes: LiveIntent/sdk-php and its recorded answers, tests/fixtures/platforms/
// liveintent.json, docs/decisions/150). A token by client credentials (POST oauth/token), or a
// personal access token used as it is; objects have `id` (32 hex characters) and `refId` (an
// integer), and either finds them; lists are searches (POST /search/<resource> with {conditions,
// page, n}); answers carry `output`, errors `{requestId, errors:[{id, code, details}]}`.

export type LiveIntentEnv = HttpContext & Pick<Env, 'LIVEINTENT_API_URL'>;

/** What the account has: an API client (id and secret), or a personal access token (no id). */
export type LiveIntentAuth = { clientId: string; secret: string };

/** The word that, as the client id, says the secret is a personal access token (Settings). */
const PERSONAL_ACCESS_TOKEN = 'pat';

/** The auth of stored credentials: a client id of "pat" (or none) means a personal access token. */
export const liveIntentAuth = (clientId: string, secret: string): LiveIntentAuth => ({
  clientId: clientId.trim().toLowerCase() === PERSONAL_ACCESS_TOKEN ? '' : clientId.trim(),
  secret,
});

const base = (env: LiveIntentEnv) => env.LIVEINTENT_API_URL.replace(/\/+$/, '');

/** The platform's error list as one line: "E1001 REQ: status; E1000 INV: adSlotId". */
function errorOf(body: unknown, status: number): PlatformRefusal {
  const b = isObject(body) ? body : {};
  const errors = Array.isArray(b.errors) ? b.errors.filter(isObject) : [];
  const detail = errors
    .map((e) => `${String(e.id ?? '')} ${String(e.code ?? '')}: ${String(e.details ?? '')}`.trim())
    .join('; ');
  return {
    message: detail || `LiveIntent answered ${status}.`,
    code: errors.length && typeof errors[0].id === 'string' ? errors[0].id : null,
    requestId: typeof b.requestId === 'string' ? b.requestId : null,
  };
}

export const call = (env: LiveIntentEnv, path: string, init?: RequestInit) =>
  platformObject(env, 'liveintent', `${base(env)}${path}`, init, errorOf);

// Tokens by client credentials last `expires_in` seconds (1800 in the SDK's recordings); one is
// kept per client id in this isolate and renewed a minute before it runs out.
const tokens = new Map<string, { token: string; secret: string; until: number }>();
const RENEW_BEFORE_MS = 60_000;

/** A bearer token for the account: its personal access token, or one by client credentials. */
export async function accessToken(env: LiveIntentEnv, auth: LiveIntentAuth): Promise<string> {
  if (!auth.clientId) return auth.secret;
  const kept = tokens.get(auth.clientId);
  if (kept && kept.secret === auth.secret && kept.until > Date.now()) return kept.token;
  const body = await call(env, '/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: auth.clientId,
      client_secret: auth.secret,
      grant_type: 'client_credentials',
      scope: 'openid',
    }),
  });
  if (typeof body.access_token !== 'string' || !body.access_token) {
    throw new PlatformError('liveintent', 'malformed', 'LiveIntent answered without an access token.');
  }
  const seconds = typeof body.expires_in === 'number' ? body.expires_in : 0;
  tokens.set(auth.clientId, {
    token: body.access_token,
    secret: auth.secret,
    until: Date.now() + seconds * 1000 - RENEW_BEFORE_MS,
  });
  return body.access_token;
}

export const bearer = (token: string, method = 'GET', body?: unknown): RequestInit => ({
  method,
  headers: { Authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
  body: body ? JSON.stringify(body) : undefined,
});

export type Condition = {
  field: string;
  operator: 'eq' | 'neq' | 'gt' | 'gteq' | 'lt' | 'lteq';
  value: unknown;
};

const PAGE = 50;
const MAX_PAGES = 20;

/** Every object of a resource that meets the conditions (POST /search/<resource>, page by page). */
export async function search(
  env: LiveIntentEnv,
  token: string,
  resource: string,
  conditions: Condition[],
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = await call(env, `/search/${resource}`, bearer(token, 'POST', { conditions, page, n: PAGE }));
    if (!Array.isArray(body.output))
      throw new PlatformError(
        'liveintent',
        'malformed',
        `LiveIntent sent a ${resource} search without a list.`,
      );
    out.push(...body.output.filter(isObject));
    const total = typeof body.total === 'number' ? body.total : out.length;
    if (body.output.length < PAGE || out.length >= total) break;
  }
  return out;
}

/** An object's ids as the platform gives them: `id` 32 hex characters, `refId` an integer. */
function idsOf(v: Record<string, unknown>, what: string): { id: string; refId: number } {
  if (typeof v.id !== 'string' || !/^[0-9a-f]{32}$/.test(v.id) || !Number.isInteger(v.refId)) {
    throw new PlatformError('liveintent', 'malformed', `LiveIntent sent a ${what} without its ids.`);
  }
  return { id: v.id, refId: v.refId as number };
}

export type LiveIntentCampaign = { id: string; refId: number; name: string; status: string };
export type LiveIntentLineItem = LiveIntentCampaign & { campaign: string };

const text = (v: unknown) => (typeof v === 'string' ? v : '');

function toCampaign(v: unknown): LiveIntentCampaign {
  const c = isObject(v) ? v : {};
  return { ...idsOf(c, 'campaign'), name: text(c.name), status: text(c.status) };
}

export async function campaigns(env: LiveIntentEnv, token: string, advertiser: string) {
  const list = await search(env, token, 'campaign', [
    { field: 'advertiser', operator: 'eq', value: advertiser },
  ]);
  return list.map(toCampaign);
}

/** One campaign by its id or refId. */
export async function campaign(env: LiveIntentEnv, token: string, key: string | number) {
  return toCampaign((await call(env, `/campaign/${encodeURIComponent(String(key))}`, bearer(token))).output);
}

/** The line items (`strategy`) of a campaign, by the campaign's hex id. */
export async function lineItems(
  env: LiveIntentEnv,
  token: string,
  campaignId: string,
): Promise<LiveIntentLineItem[]> {
  const list = await search(env, token, 'strategy', [
    { field: 'campaign', operator: 'eq', value: campaignId },
  ]);
  return list.map((l) => ({ ...toCampaign(l), campaign: text(l.campaign) }));
}

/**
 * The report per day and creative (the ad a target names) of one campaign. No public source
 * shows LiveIntent's reporting call (the SDK has none): this request and answer are ours, kept in
 * this one function so the real call replaces it alone (docs/decisions/150).
 */
export async function report(
  env: LiveIntentEnv,
  token: string,
  campaignRef: string,
  since: string,
  until: string,
) {
  const body = await call(
    env,
    '/report',
    bearer(token, 'POST', {
      campaign: campaignRef,
      start: since,
      end: until,
      group_by: ['date', 'creative'],
    }),
  );
  const output = isObject(body.output) ? body.output : {};
  if (!Array.isArray(output.rows))
    throw new PlatformError('liveintent', 'malformed', 'LiveIntent sent a report without rows.');
  return output.rows.map((v): AdDay => {
    const r = isObject(v) ? v : {};
    return checkedRow('liveintent', {
      date: String(r.date ?? ''),
      adId: String(r.creative_id ?? ''),
      adName: text(r.creative_name),
      impressions: toCount(r.impressions),
      clicks: toCount(r.clicks),
      spendMicros: toMicros(r.advertiserSpent),
    });
  });
}
