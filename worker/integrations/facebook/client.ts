import type { Env } from '../../env';
import {
  type AdDay,
  checkedRow,
  type HttpContext,
  isObject,
  kindOfStatus,
  PlatformError,
  type PlatformErrorKind,
  platformRequest,
  toCount,
  toMicros,
} from '../http';
import { dialogOnVersion, graphBase } from './version';

// Facebook Graph / Marketing API (shapes: facebook/facebook-nodejs-business-sdk, docs/decisions/072):
// OAuth code exchange and the long-lived token, token status (debug_token), campaign and ad account
// lookup, ad insights per day and ad with cursor paging, and the Conversions API test event. The
// Graph version lives in ./version.ts only; the contract tests run the official SDK against the fake
// (tests/contract/facebook-sdk.test.mjs, docs/decisions/145).

type FacebookEnv = HttpContext &
  Pick<Env, 'FACEBOOK_API_URL' | 'FACEBOOK_APP_ID' | 'FACEBOOK_APP_SECRET' | 'FACEBOOK_DIALOG_URL'>;

/** What the login dialog asks for: reading and managing ads, and the Business Manager's ad accounts. */
const FACEBOOK_SCOPES = ['ads_read', 'ads_management', 'business_management'];
/** Graph error codes that mean throttling (Facebook sends them with 400 or 403 as well as 429). */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80000, 80003, 80004, 80014]);
const MAX_PAGES = 100;

const base = (env: FacebookEnv) => graphBase(env.FACEBOOK_API_URL);

/**
 * Facebook sends no Retry-After: a throttled business use case says in X-Business-Use-Case-Usage
 * (JSON: per business id, a list of {type, call_count, ..., estimated_time_to_regain_access}, in
 * minutes) how long to wait. The longest wait named, in seconds; null when the header says none.
 */
function usageWaitSeconds(header: string | null): number | null {
  if (!header) return null;
  let usage: unknown;
  try {
    usage = JSON.parse(header);
  } catch {
    return null;
  }
  let minutes = 0;
  for (const entries of isObject(usage) ? Object.values(usage) : []) {
    for (const entry of Array.isArray(entries) ? entries : []) {
      const wait = isObject(entry) ? Number(entry.estimated_time_to_regain_access) : 0;
      if (Number.isFinite(wait) && wait > minutes) minutes = wait;
    }
  }
  return minutes > 0 ? minutes * 60 : null;
}

function failure(status: number, body: unknown, retryAfter: number | null): PlatformError {
  const error = isObject(body) && isObject(body.error) ? body.error : {};
  const code = typeof error.code === 'number' ? error.code : null;
  let kind: PlatformErrorKind = kindOfStatus(status);
  if (code === 190 || code === 102) kind = 'auth';
  else if (code !== null && RATE_LIMIT_CODES.has(code)) kind = 'rate_limit';
  else if (error.is_transient === true || code === 1 || code === 2) kind = 'server';
  return new PlatformError(
    'facebook',
    kind,
    typeof error.message === 'string' ? error.message : `Facebook answered ${status}.`,
    status,
    retryAfter,
    code,
    typeof error.fbtrace_id === 'string' ? error.fbtrace_id : null,
  );
}

async function graph(env: FacebookEnv, url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const { status, headers, body } = await platformRequest(env, 'facebook', url, init);
  const retryAfter = usageWaitSeconds(headers.get('x-business-use-case-usage'));
  if (status >= 400 || (isObject(body) && isObject(body.error))) throw failure(status, body, retryAfter);
  if (!isObject(body))
    throw new PlatformError(
      'facebook',
      'malformed',
      'Facebook sent an answer that could not be read.',
      status,
    );
  return body;
}

const withParams = (url: string, params: Record<string, string>) => {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
};

/** The login dialog a user is sent to; Facebook sends them back to `redirectUri` with a code. */
export function facebookAuthUrl(env: FacebookEnv, redirectUri: string, state: string): string {
  return withParams(dialogOnVersion(env.FACEBOOK_DIALOG_URL), {
    client_id: env.FACEBOOK_APP_ID,
    redirect_uri: redirectUri,
    state,
    scope: FACEBOOK_SCOPES.join(','),
    response_type: 'code',
  });
}

export type FacebookToken = { accessToken: string; expiresAt: number | null };

function tokenOf(body: Record<string, unknown>): FacebookToken {
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw new PlatformError('facebook', 'malformed', 'Facebook answered without an access token.');
  }
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : null;
  return { accessToken: body.access_token, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : null };
}

/** Exchanges the code of the login dialog for a (short-lived, about two hours) user access token. */
export async function exchangeCode(
  env: FacebookEnv,
  code: string,
  redirectUri: string,
): Promise<FacebookToken> {
  return tokenOf(
    await graph(
      env,
      withParams(`${base(env)}/oauth/access_token`, {
        client_id: env.FACEBOOK_APP_ID,
        client_secret: env.FACEBOOK_APP_SECRET ?? '',
        redirect_uri: redirectUri,
        code,
      }),
    ),
  );
}

/** Trades a short-lived user token for a long-lived one (`fb_exchange_token`, about 60 days). */
export async function longLivedToken(env: FacebookEnv, shortLived: string): Promise<FacebookToken> {
  return tokenOf(
    await graph(
      env,
      withParams(`${base(env)}/oauth/access_token`, {
        grant_type: 'fb_exchange_token',
        client_id: env.FACEBOOK_APP_ID,
        client_secret: env.FACEBOOK_APP_SECRET ?? '',
        fb_exchange_token: shortLived,
      }),
    ),
  );
}

export type TokenStatus = { valid: boolean; expiresAt: number | null; userId: string; scopes: string[] };

/** Whether a user token still works (debug_token, asked with the app's own token). */
export async function tokenStatus(env: FacebookEnv, token: string): Promise<TokenStatus> {
  const body = await graph(
    env,
    withParams(`${base(env)}/debug_token`, {
      input_token: token,
      access_token: `${env.FACEBOOK_APP_ID}|${env.FACEBOOK_APP_SECRET ?? ''}`,
    }),
  );
  const data = isObject(body.data) ? body.data : null;
  if (!data || typeof data.is_valid !== 'boolean') {
    throw new PlatformError('facebook', 'malformed', 'Facebook sent a token status that could not be read.');
  }
  return {
    valid: data.is_valid,
    expiresAt: typeof data.expires_at === 'number' && data.expires_at > 0 ? data.expires_at * 1000 : null,
    userId: typeof data.user_id === 'string' ? data.user_id : '',
    scopes: Array.isArray(data.scopes) ? data.scopes.filter((s): s is string => typeof s === 'string') : [],
  };
}

export type FacebookCampaign = { id: string; name: string; status: string; accountId: string };

/** A campaign by id; null when Facebook says there is no such object for this token. */
export async function getCampaign(
  env: FacebookEnv,
  token: string,
  campaignId: string,
): Promise<FacebookCampaign | null> {
  try {
    const body = await graph(
      env,
      withParams(`${base(env)}/${encodeURIComponent(campaignId)}`, {
        fields: 'id,name,status,account_id',
        access_token: token,
      }),
    );
    if (typeof body.id !== 'string')
      throw new PlatformError('facebook', 'malformed', 'Facebook sent a campaign without an id.');
    return {
      id: body.id,
      name: typeof body.name === 'string' ? body.name : '',
      status: typeof body.status === 'string' ? body.status : '',
      accountId: typeof body.account_id === 'string' ? body.account_id : '',
    };
  } catch (err) {
    // Code 100 with subcode 33: the object does not exist or this token may not see it.
    if (err instanceof PlatformError && err.kind === 'request' && err.code === 100) return null;
    throw err;
  }
}

export type AccountTerms = { currency: string; timeZone: string };

/** The ad account's currency and time zone (`act_<id>?fields=currency,timezone_name`). */
export async function accountTerms(
  env: FacebookEnv,
  token: string,
  accountId: string,
): Promise<AccountTerms> {
  const id = accountId.startsWith('act_') ? accountId : `act_${accountId}`;
  const body = await graph(
    env,
    withParams(`${base(env)}/${encodeURIComponent(id)}`, {
      fields: 'currency,timezone_name',
      access_token: token,
    }),
  );
  if (typeof body.currency !== 'string' || typeof body.timezone_name !== 'string') {
    throw new PlatformError(
      'facebook',
      'malformed',
      'Facebook sent an ad account without currency or time zone.',
    );
  }
  return { currency: body.currency, timeZone: body.timezone_name };
}

/**
 * Insights per day and ad of a campaign (or an ad account, act_...) between two days, every
 * page followed through the `after` cursor.
 */
export async function adInsights(
  env: FacebookEnv,
  token: string,
  objectId: string,
  since: string,
  until: string,
): Promise<AdDay[]> {
  const rows: AdDay[] = [];
  let url: string | null = withParams(`${base(env)}/${encodeURIComponent(objectId)}/insights`, {
    level: 'ad',
    time_increment: '1',
    fields: 'ad_id,ad_name,impressions,clicks,spend',
    time_range: JSON.stringify({ since, until }),
    limit: '500',
    access_token: token,
  });
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const body = await graph(env, url);
    if (!Array.isArray(body.data))
      throw new PlatformError('facebook', 'malformed', 'Facebook sent insights without data.');
    for (const item of body.data) {
      const r = isObject(item) ? item : {};
      rows.push(
        checkedRow('facebook', {
          date: String(r.date_start ?? ''),
          adId: String(r.ad_id ?? ''),
          adName: typeof r.ad_name === 'string' ? r.ad_name : '',
          impressions: toCount(r.impressions ?? '0'),
          clicks: toCount(r.clicks ?? '0'),
          spendMicros: toMicros(r.spend ?? '0'),
        }),
      );
    }
    const paging = isObject(body.paging) ? body.paging : {};
    const cursors = isObject(paging.cursors) ? paging.cursors : {};
    url =
      typeof paging.next === 'string' && typeof cursors.after === 'string'
        ? withParams(url, { after: cursors.after })
        : null;
  }
  return rows;
}

export type TestEventResult = { eventsReceived: number; fbtraceId: string };

/** Sends one test event to a dataset (pixel) through the Conversions API. */
export async function sendTestEvent(
  env: FacebookEnv,
  token: string,
  datasetId: string,
  testEventCode: string,
  eventName = 'Purchase',
): Promise<TestEventResult> {
  const event = {
    event_name: eventName,
    event_time: Math.floor(Date.now() / 1000),
    action_source: 'website',
    user_data: { client_user_agent: 'Edge Tracker conversion test', client_ip_address: '127.0.0.1' },
    custom_data: { currency: 'USD', value: 0 },
  };
  const body = await graph(env, `${base(env)}/${encodeURIComponent(datasetId)}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: [event], test_event_code: testEventCode, access_token: token }),
  });
  if (typeof body.events_received !== 'number') {
    throw new PlatformError('facebook', 'malformed', 'Facebook did not say how many events it received.');
  }
  return {
    eventsReceived: body.events_received,
    fbtraceId: typeof body.fbtrace_id === 'string' ? body.fbtrace_id : '',
  };
}
