import type { Env } from '../../env';
import {
  type AdDay,
  type AdReport,
  checkedRow,
  type HttpContext,
  isObject,
  PlatformError,
  platformObject,
  toCount,
  toMicros,
} from '../http';

// Taboola Backstage API (shapes: taboola/backstage-api-java-client, docs/decisions/072): a
// client-credentials token, the current account, and the campaign reports. The campaign summary
// has no day-by-item breakdown, so the item report is asked once per day of the window.

type TaboolaEnv = HttpContext & Pick<Env, 'TABOOLA_API_URL'>;

const base = (env: TaboolaEnv) => env.TABOOLA_API_URL.replace(/\/+$/, '');

const call = (env: TaboolaEnv, url: string, init?: RequestInit) =>
  platformObject(env, 'taboola', url, init, (body, status) => {
    const b = isObject(body) ? body : {};
    return {
      message:
        typeof b.message === 'string'
          ? b.message
          : typeof b.error_description === 'string'
            ? b.error_description
            : `Taboola answered ${status}.`,
    };
  });

/** An access token for the client id and secret (client-credentials grant). */
export async function clientToken(env: TaboolaEnv, clientId: string, clientSecret: string): Promise<string> {
  const body = await call(env, `${base(env)}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: clientId,
      client_secret: clientSecret,
      grant_type: 'client_credentials',
    }),
  });
  if (typeof body.access_token !== 'string' || !body.access_token) {
    throw new PlatformError('taboola', 'malformed', 'Taboola answered without an access token.');
  }
  return body.access_token;
}

const auth = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

/** The account the credentials belong to (its id names the account in every other path). */
export async function currentAccount(
  env: TaboolaEnv,
  token: string,
): Promise<{ accountId: string; name: string }> {
  const body = await call(env, `${base(env)}/api/1.0/users/current/account`, auth(token));
  if (typeof body.account_id !== 'string')
    throw new PlatformError('taboola', 'malformed', 'Taboola sent an account without an id.');
  return { accountId: body.account_id, name: typeof body.name === 'string' ? body.name : '' };
}

function daysBetween(since: string, until: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${until}T00:00:00Z`);
  for (let t = Date.parse(`${since}T00:00:00Z`); t <= end && out.length < 93; t += 86_400_000) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

/**
 * Per day and item (ad) of one campaign: the item report of each day of the window, with the
 * report's `timezone` and its rows' `currency` (several currencies in one answer are malformed).
 */
export async function itemDayReport(
  env: TaboolaEnv,
  token: string,
  accountId: string,
  campaignId: string,
  since: string,
  until: string,
): Promise<AdReport> {
  const rows: AdDay[] = [];
  const currencies = new Set<string>();
  let timeZone: string | undefined;
  for (const day of daysBetween(since, until)) {
    const url = new URL(
      `${base(env)}/api/1.0/${encodeURIComponent(accountId)}/reports/top-campaign-content/dimensions/item_breakdown`,
    );
    url.searchParams.set('start_date', day);
    url.searchParams.set('end_date', day);
    url.searchParams.set('campaign', campaignId);
    const body = await call(env, url.toString(), auth(token));
    if (!Array.isArray(body.results))
      throw new PlatformError('taboola', 'malformed', 'Taboola sent a report without results.');
    if (typeof body.timezone === 'string' && body.timezone) timeZone = body.timezone;
    for (const item of body.results) {
      const r = isObject(item) ? item : {};
      if (typeof r.currency === 'string' && r.currency) currencies.add(r.currency);
      rows.push(
        checkedRow('taboola', {
          date: day,
          adId: String(r.item ?? ''),
          adName: typeof r.item_name === 'string' ? r.item_name : '',
          impressions: toCount(r.impressions),
          clicks: toCount(r.clicks),
          spendMicros: toMicros(r.spent),
        }),
      );
    }
  }
  if (currencies.size > 1)
    throw new PlatformError('taboola', 'malformed', 'Taboola sent a report in several currencies.');
  return { rows, currency: [...currencies][0], timeZone };
}

/** The account's campaigns, for the editor's picker (GET /api/1.0/{account_id}/campaigns/). */
export async function campaignList(
  env: TaboolaEnv,
  token: string,
  accountId: string,
): Promise<{ id: string; name: string }[]> {
  const body = await call(
    env,
    `${base(env)}/api/1.0/${encodeURIComponent(accountId)}/campaigns/`,
    auth(token),
  );
  if (!Array.isArray(body.results))
    throw new PlatformError('taboola', 'malformed', 'Taboola sent campaigns without results.');
  return body.results.filter(isObject).map((c) => ({ id: String(c.id ?? ''), name: String(c.name ?? '') }));
}
