import type { Env } from '../../env';
import {
  type AdDay,
  campaignsOf,
  checkedRow,
  type HttpContext,
  isObject,
  kindOfStatus,
  PlatformError,
  type PlatformErrorKind,
  platformRequest,
  retryAfterSeconds,
  toCount,
  toMicros,
} from '../http';

// TikTok Business API (shapes: tiktok/tiktok-business-api-sdk, docs/decisions/072). Every answer
// is an envelope {code, message, request_id, data}; code 0 is success and most errors come with
// HTTP 200, so the code decides.

type TikTokEnv = HttpContext & Pick<Env, 'TIKTOK_API_URL'>;

const AUTH_CODES = new Set([40104, 40105, 40102]);
/** The frequency limits: 40100 (too many requests) and 40132 (the app's or advertiser's limit). */
const RATE_LIMIT_CODES = new Set([40100, 40132]);
const PAGE_SIZE = 1000;
const MAX_PAGES = 50;

const base = (env: TikTokEnv) => env.TIKTOK_API_URL.replace(/\/+$/, '');

async function call(env: TikTokEnv, token: string, path: string, params: Record<string, string>) {
  const url = new URL(`${base(env)}${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const { status, headers, body } = await platformRequest(env, 'tiktok', url.toString(), {
    headers: { 'Access-Token': token },
  });
  if (!isObject(body) || typeof body.code !== 'number') {
    if (status >= 400) {
      throw new PlatformError(
        'tiktok',
        kindOfStatus(status),
        `TikTok answered ${status}.`,
        status,
        retryAfterSeconds(headers.get('retry-after')),
      );
    }
    throw new PlatformError('tiktok', 'malformed', 'TikTok sent an answer that could not be read.', status);
  }
  if (body.code !== 0 || status >= 400) {
    let kind: PlatformErrorKind = status >= 400 ? kindOfStatus(status) : 'request';
    if (AUTH_CODES.has(body.code)) kind = 'auth';
    else if (RATE_LIMIT_CODES.has(body.code)) kind = 'rate_limit';
    else if (body.code >= 50000) kind = 'server';
    throw new PlatformError(
      'tiktok',
      kind,
      typeof body.message === 'string' ? body.message : `TikTok answered code ${body.code}.`,
      status,
      retryAfterSeconds(headers.get('retry-after')),
      body.code,
      typeof body.request_id === 'string' ? body.request_id : null,
    );
  }
  return isObject(body.data) ? body.data : {};
}

export type TikTokUser = { id: string; displayName: string };

/** Whether the stored token works: the user it belongs to (`core_user_id`). */
export async function tokenUser(env: TikTokEnv, token: string): Promise<TikTokUser> {
  const data = await call(env, token, '/user/info/', {});
  if (typeof data.core_user_id !== 'string')
    throw new PlatformError('tiktok', 'malformed', 'TikTok sent a user without an id.');
  return {
    id: data.core_user_id,
    displayName: typeof data.display_name === 'string' ? data.display_name : '',
  };
}

/** The advertiser's currency and time zone (`/advertiser/info/`; `display_timezone` is the IANA name). */
export async function advertiserTerms(
  env: TikTokEnv,
  token: string,
  advertiserId: string,
): Promise<{ currency: string; timeZone: string }> {
  const data = await call(env, token, '/advertiser/info/', {
    advertiser_ids: JSON.stringify([advertiserId]),
    fields: JSON.stringify(['advertiser_id', 'currency', 'timezone', 'display_timezone']),
  });
  const info = Array.isArray(data.list) ? data.list.find((a) => isObject(a)) : null;
  const zone = isObject(info) ? (info.display_timezone ?? info.timezone) : null;
  if (!isObject(info) || typeof info.currency !== 'string' || typeof zone !== 'string') {
    throw new PlatformError(
      'tiktok',
      'malformed',
      'TikTok sent an advertiser without currency or time zone.',
    );
  }
  return { currency: info.currency, timeZone: zone };
}

/** The integrated report per day and ad of one campaign (every page). */
export async function adReport(
  env: TikTokEnv,
  token: string,
  advertiserId: string,
  campaignId: string,
  since: string,
  until: string,
): Promise<AdDay[]> {
  const rows: AdDay[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const params: Record<string, string> = {
      advertiser_id: advertiserId,
      report_type: 'BASIC',
      data_level: 'AUCTION_AD',
      dimensions: JSON.stringify(['ad_id', 'stat_time_day']),
      metrics: JSON.stringify(['ad_name', 'spend', 'impressions', 'clicks']),
      start_date: since,
      end_date: until,
      page: String(page),
      page_size: String(PAGE_SIZE),
    };
    if (campaignId) {
      params.filtering = JSON.stringify([
        { field_name: 'campaign_ids', filter_type: 'IN', filter_value: JSON.stringify([campaignId]) },
      ]);
    }
    const data = await call(env, token, '/report/integrated/get/', params);
    if (!Array.isArray(data.list))
      throw new PlatformError('tiktok', 'malformed', 'TikTok sent a report without a list.');
    for (const item of data.list) {
      const dims = isObject(item) && isObject(item.dimensions) ? item.dimensions : {};
      const metrics = isObject(item) && isObject(item.metrics) ? item.metrics : {};
      rows.push(
        checkedRow('tiktok', {
          date: String(dims.stat_time_day ?? '').slice(0, 10),
          adId: String(dims.ad_id ?? ''),
          adName: typeof metrics.ad_name === 'string' ? metrics.ad_name : '',
          impressions: toCount(metrics.impressions),
          clicks: toCount(metrics.clicks),
          spendMicros: toMicros(metrics.spend),
        }),
      );
    }
    const info = isObject(data.page_info) ? data.page_info : {};
    if (typeof info.total_page !== 'number' || page >= info.total_page) break;
  }
  return rows;
}

/** The advertiser's campaigns, for the editor's picker (GET /campaign/get/, first 1000). */
export async function campaignList(
  env: TikTokEnv,
  token: string,
  advertiserId: string,
): Promise<{ id: string; name: string }[]> {
  const data = await call(env, token, '/campaign/get/', {
    advertiser_id: advertiserId,
    page: '1',
    page_size: String(PAGE_SIZE),
  });
  return campaignsOf('tiktok', data.list);
}
