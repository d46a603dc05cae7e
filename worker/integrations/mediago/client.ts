import type { Env } from '../../env';
import {
  type AdDay,
  campaignsOf,
  checkedRow,
  type HttpContext,
  isObject,
  PlatformError,
  platformObject,
  toCount,
  toMicros,
} from '../http';

// MediaGo (shapes: its API reference at apidoc.mediago.io, read with Matatika/tap-baidu;
// tests/fixtures/platforms/mediago.json, docs/decisions/150). The account's API token (Base64, as
// the account manager gives it) is exchanged for an access token of 3600 s at POST
// /data/v1/authentication; a new access token cancels the previous one, so one is kept per API
// token and renewed once when a call is refused (another isolate may have asked a newer one).
// The ad report is GET /data/v1/report/ad/day/list, at most 30 days a request, paged with
// current_page until a page comes back empty.

type MediaGoEnv = HttpContext & Pick<Env, 'MEDIAGO_API_URL'>;

const PAGE_SIZE = 500;
const MAX_PAGES = 50;
const MAX_DAYS = 30;
const RENEW_BEFORE_MS = 120_000;
const base = (env: MediaGoEnv) => env.MEDIAGO_API_URL.replace(/\/+$/, '');

const request = (env: MediaGoEnv, url: string, init: RequestInit) =>
  platformObject(env, 'mediago', url, init, (body, status) => {
    const b = isObject(body) ? body : null;
    return {
      message: b && typeof b.msg === 'string' ? b.msg : `MediaGo answered ${status}.`,
      code: (b?.code as number) ?? null,
    };
  });

const tokens = new Map<string, { token: string; until: number }>();

/** The access token for an API token: the kept one, or a new one (which cancels the old). */
async function accessToken(env: MediaGoEnv, apiToken: string, renew = false): Promise<string> {
  const kept = tokens.get(apiToken);
  if (kept && !renew && kept.until > Date.now()) return kept.token;
  const body = await request(env, `${base(env)}/data/v1/authentication`, {
    method: 'POST',
    headers: { Authorization: `Basic ${apiToken}` },
  });
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw new PlatformError('mediago', 'malformed', 'MediaGo answered without an access token.');
  const seconds = typeof body.expires_in === 'number' ? body.expires_in : 3600;
  tokens.set(apiToken, { token: body.access_token, until: Date.now() + seconds * 1000 - RENEW_BEFORE_MS });
  return body.access_token;
}

/** A GET with the access token; a refused token is renewed once, then the refusal stands. */
async function get(env: MediaGoEnv, apiToken: string, path: string, params: Record<string, string>) {
  const url = new URL(`${base(env)}${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const send = async (renew: boolean) =>
    request(env, url.toString(), {
      headers: { Authorization: `Bearer ${await accessToken(env, apiToken, renew)}` },
    });
  try {
    return await send(false);
  } catch (err) {
    if (!(err instanceof PlatformError) || err.kind !== 'auth' || !tokens.has(apiToken)) throw err;
    return send(true);
  }
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** [since, until] cut into windows of at most 30 days. */
function windows(since: string, until: string): [string, string][] {
  const out: [string, string][] = [];
  const end = Date.parse(`${until}T00:00:00Z`);
  for (let t = Date.parse(`${since}T00:00:00Z`); t <= end; t += MAX_DAYS * 86_400_000) {
    out.push([day(t), day(Math.min(end, t + (MAX_DAYS - 1) * 86_400_000))]);
  }
  return out;
}

/**
 * The report per day and ad of one campaign (every window, every page), its days in `timeZone`
 * (the zone the report is asked in, returned on each row for the cost import).
 */
export async function adReport(
  env: MediaGoEnv,
  apiToken: string,
  campaignId: string,
  since: string,
  until: string,
  timeZone: string,
) {
  const rows: AdDay[] = [];
  for (const [start, end] of windows(since, until)) {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const body = await get(env, apiToken, '/data/v1/report/ad/day/list', {
        start_date: start,
        end_date: end,
        timezone: timeZone,
        campaign_ids: campaignId,
        current_page: String(page),
        page_size: String(PAGE_SIZE),
        sort_field: 'date',
        sort_val: 'asc',
      });
      if (!Array.isArray(body.results))
        throw new PlatformError('mediago', 'malformed', 'MediaGo sent a report without results.');
      if (body.results.length === 0) break;
      for (const item of body.results) {
        const r = isObject(item) ? item : {};
        rows.push({
          ...checkedRow('mediago', {
            date: String(r.date ?? ''),
            adId: r.ad_id === undefined || r.ad_id === null ? '' : String(r.ad_id),
            adName: typeof r.ad_name === 'string' ? r.ad_name : '',
            impressions: toCount(r.impression),
            clicks: toCount(r.click),
            spendMicros: toMicros(r.spend),
          }),
          timeZone,
        });
      }
    }
  }
  return rows;
}

/** The account's campaigns, for the editor's picker (first page; the path is ours, decision 072). */
export async function campaignList(
  env: MediaGoEnv,
  apiToken: string,
): Promise<{ id: string; name: string }[]> {
  const body = await get(env, apiToken, '/data/v1/campaign/list', {
    current_page: '1',
    page_size: String(PAGE_SIZE),
  });
  return campaignsOf('mediago', body.results);
}
