import type { Env } from '../../env';
import {
  type AdDay,
  checkedRow,
  type HttpContext,
  isObject,
  kindOfStatus,
  PlatformError,
  platformRequest,
  retryAfterSeconds,
  toCount,
  toMicros,
} from '../http';

// LiveIntent (shapes: LiveIntent/sdk-php, docs/decisions/072): a token from the username and
// password stored in settings (oauth/token), campaigns, line items (`strategy`) and a report per
// day and creative. Answers carry their payload in `output`. The management calls (create, edit,
// delete) come with the LiveIntent-management issue.

export type LiveIntentEnv = HttpContext & Pick<Env, 'LIVEINTENT_API_URL'>;

const base = (env: LiveIntentEnv) => env.LIVEINTENT_API_URL.replace(/\/+$/, '');

export async function call(
  env: LiveIntentEnv,
  path: string,
  init?: RequestInit,
): Promise<Record<string, unknown>> {
  const { status, headers, body } = await platformRequest(env, 'liveintent', `${base(env)}${path}`, init);
  if (status >= 400) {
    const b = isObject(body) ? body : {};
    const message = typeof b.message === 'string' ? b.message : `LiveIntent answered ${status}.`;
    throw new PlatformError(
      'liveintent',
      kindOfStatus(status),
      message,
      status,
      retryAfterSeconds(headers.get('retry-after')),
    );
  }
  if (!isObject(body))
    throw new PlatformError(
      'liveintent',
      'malformed',
      'LiveIntent sent an answer that could not be read.',
      status,
    );
  return body;
}

/** Logs in with the stored username and password; answers the access token. */
export async function login(env: LiveIntentEnv, username: string, password: string): Promise<string> {
  const body = await call(env, '/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password, scope: 'openid' }),
  });
  if (typeof body.access_token !== 'string' || !body.access_token) {
    throw new PlatformError('liveintent', 'malformed', 'LiveIntent answered without an access token.');
  }
  return body.access_token;
}

const auth = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } });

export type LiveIntentCampaign = { id: number; refId: string; name: string; status: string };

function toCampaign(v: unknown): LiveIntentCampaign {
  const c = isObject(v) ? v : {};
  if (typeof c.refId !== 'string')
    throw new PlatformError('liveintent', 'malformed', 'LiveIntent sent a campaign without a refId.');
  return {
    id: typeof c.id === 'number' ? c.id : 0,
    refId: c.refId,
    name: typeof c.name === 'string' ? c.name : '',
    status: typeof c.status === 'string' ? c.status : '',
  };
}

export async function campaigns(
  env: LiveIntentEnv,
  token: string,
  advertiserId: string,
): Promise<LiveIntentCampaign[]> {
  const body = await call(env, `/campaigns?advertiser=${encodeURIComponent(advertiserId)}`, auth(token));
  if (!Array.isArray(body.output))
    throw new PlatformError('liveintent', 'malformed', 'LiveIntent sent campaigns without a list.');
  return body.output.map(toCampaign);
}

export async function campaign(
  env: LiveIntentEnv,
  token: string,
  refId: string,
): Promise<LiveIntentCampaign> {
  const body = await call(env, `/campaign/${encodeURIComponent(refId)}`, auth(token));
  return toCampaign(body.output);
}

export type LiveIntentLineItem = { id: number; refId: string; name: string; status: string };

export async function lineItems(
  env: LiveIntentEnv,
  token: string,
  campaignRefId: string,
): Promise<LiveIntentLineItem[]> {
  const body = await call(env, `/strategy?campaign=${encodeURIComponent(campaignRefId)}`, auth(token));
  if (!Array.isArray(body.output))
    throw new PlatformError('liveintent', 'malformed', 'LiveIntent sent line items without a list.');
  return body.output.map((v) => {
    const l = isObject(v) ? v : {};
    return {
      id: typeof l.id === 'number' ? l.id : 0,
      refId: String(l.refId ?? ''),
      name: typeof l.name === 'string' ? l.name : '',
      status: typeof l.status === 'string' ? l.status : '',
    };
  });
}

/** The report per day and creative (the ad a target names) of one campaign. */
export async function report(
  env: LiveIntentEnv,
  token: string,
  campaignRefId: string,
  since: string,
  until: string,
) {
  const body = await call(env, '/report', {
    method: 'POST',
    headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      campaign: campaignRefId,
      start: since,
      end: until,
      group_by: ['date', 'creative'],
    }),
  });
  const output = isObject(body.output) ? body.output : {};
  if (!Array.isArray(output.rows))
    throw new PlatformError('liveintent', 'malformed', 'LiveIntent sent a report without rows.');
  return output.rows.map((v): AdDay => {
    const r = isObject(v) ? v : {};
    return checkedRow('liveintent', {
      date: String(r.date ?? ''),
      adId: String(r.creative_id ?? ''),
      adName: typeof r.creative_name === 'string' ? r.creative_name : '',
      impressions: toCount(r.impressions),
      clicks: toCount(r.clicks),
      spendMicros: toMicros(r.advertiserSpent),
    });
  });
}
