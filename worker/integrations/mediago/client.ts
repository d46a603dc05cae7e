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

// MediaGo. No public SDK or reference could be read, so these shapes are ours, defined from
// spec 4 (an API token, a report) and recorded in docs/decisions/072: a bearer token, an envelope
// {code, msg, data} with code 0 for success, and a paged report per day and ad.

type MediaGoEnv = HttpContext & Pick<Env, 'MEDIAGO_API_URL'>;

const PAGE_SIZE = 500;
const MAX_PAGES = 50;
const base = (env: MediaGoEnv) => env.MEDIAGO_API_URL.replace(/\/+$/, '');

async function call(env: MediaGoEnv, token: string, path: string, params: Record<string, string> = {}) {
  const url = new URL(`${base(env)}${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const { status, headers, body } = await platformRequest(env, 'mediago', url.toString(), {
    headers: { Authorization: `Bearer ${token}` },
  });
  const b = isObject(body) ? body : null;
  if (status >= 400 || (b && b.code !== 0)) {
    const message = b && typeof b.msg === 'string' ? b.msg : `MediaGo answered ${status}.`;
    const kind = status >= 400 ? kindOfStatus(status) : b?.code === 401 ? 'auth' : 'request';
    throw new PlatformError(
      'mediago',
      kind,
      message,
      status,
      retryAfterSeconds(headers.get('retry-after')),
      (b?.code as number) ?? null,
    );
  }
  if (!b || !isObject(b.data))
    throw new PlatformError('mediago', 'malformed', 'MediaGo sent an answer that could not be read.', status);
  return b.data;
}

/** Whether the token works: the account it belongs to. */
export async function account(env: MediaGoEnv, token: string): Promise<{ accountId: string; name: string }> {
  const data = await call(env, token, '/api/v1/account');
  if (typeof data.account_id !== 'string')
    throw new PlatformError('mediago', 'malformed', 'MediaGo sent an account without an id.');
  return { accountId: data.account_id, name: typeof data.name === 'string' ? data.name : '' };
}

/** The report per day and ad of one campaign (every page). */
export async function adReport(
  env: MediaGoEnv,
  token: string,
  campaignId: string,
  since: string,
  until: string,
) {
  const rows: AdDay[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const data = await call(env, token, '/api/v1/report', {
      campaign_id: campaignId,
      start_date: since,
      end_date: until,
      dimension: 'date,ad',
      page: String(page),
      page_size: String(PAGE_SIZE),
    });
    if (!Array.isArray(data.list))
      throw new PlatformError('mediago', 'malformed', 'MediaGo sent a report without a list.');
    for (const item of data.list) {
      const r = isObject(item) ? item : {};
      rows.push(
        checkedRow('mediago', {
          date: String(r.date ?? ''),
          adId: String(r.ad_id ?? ''),
          adName: typeof r.ad_name === 'string' ? r.ad_name : '',
          impressions: toCount(r.impressions),
          clicks: toCount(r.clicks),
          spendMicros: toMicros(r.spend),
        }),
      );
    }
    if (typeof data.total !== 'number' || page * PAGE_SIZE >= data.total) break;
  }
  return rows;
}

/** The account's campaigns, for the editor's picker (first page; the path is ours, decision 072). */
export async function campaignList(env: MediaGoEnv, token: string): Promise<{ id: string; name: string }[]> {
  const data = await call(env, token, '/api/v1/campaigns', { page: '1', page_size: String(PAGE_SIZE) });
  if (!Array.isArray(data.list))
    throw new PlatformError('mediago', 'malformed', 'MediaGo sent campaigns without a list.');
  return data.list
    .filter(isObject)
    .map((c) => ({ id: String(c.campaign_id ?? ''), name: String(c.campaign_name ?? '') }));
}
