// Local fakes of the ad platforms' APIs (docs/decisions/070): Facebook Graph / Marketing API,
// TikTok Business API, Taboola Backstage, MediaGo and LiveIntent, one small Worker. Shapes are
// written from the platforms' public references (docs/decisions/072; LiveIntent and MediaGo in
// fakes/liveintent.mjs and fakes/mediago.mjs, decision 150). Plain JavaScript modules, so vitest
// can load them as an auxiliary worker without a build step.

import { facebookFake } from './facebook.mjs';
import { liveintentFake } from './liveintent.mjs';
import { mediagoFake } from './mediago.mjs';

//
// Every platform lives under its own prefix: /facebook, /tiktok, /taboola, /mediago, /liveintent.
// The numbers are seeded from (platform, campaign, ad, day), so the same question always gets the
// same answer. Telling a fake to fail:
//   - a magic value anywhere in the request's keys (token, campaign id, account id) that starts
//     with fail-401, fail-429, fail-500, slow or malformed;
//   - or POST /__control {key, fail, times, retryAfter, delayMs, revise, currency, timezone} (times: how many
//     requests fail before it answers again; revise: {day, ad_id, impressions, clicks, spend}
//     replaces one row, as a platform's correction of a past day does; currency and timezone: the
//     ad account's, keyed by its id, USD and UTC otherwise); DELETE /__control?key=.
// GET /__expected?platform=&campaign=&since=&until= answers the seeded rows in one plain shape
// (spend_micros) for tests to compare with what the product stored; GET /__requests?contains=
// counts the logged requests whose method, URL or credentials contain a string.

const FAILURES = ['fail-401', 'fail-429', 'fail-500', 'slow', 'malformed'];
const SLOW_MS = 15_000;
const ADS_PER_CAMPAIGN = 3;

/** The last requests served (method, URL and credentials), for tests that check who called. */
const requestLog = [];
const LOG_SIZE = 2000;

/** @type {Map<string, {fail?: string, times?: number, retryAfter?: number, delayMs?: number, revise?: Record<string, any>[]}>} */
const scenarios = new Map();

const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

const traceId = (seed) => `A${hash(`trace:${seed}`).toString(36).toUpperCase()}x${Date.now() % 100000}`;

function daysBetween(since, until) {
  const out = [];
  const start = Date.parse(`${since}T00:00:00Z`);
  const end = Date.parse(`${until}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end) || end < start || end - start > 400 * 86_400_000) return out;
  for (let t = start; t <= end; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

function numericId(seed, digits) {
  const a = hash(`a:${seed}`).toString().padStart(10, '0');
  const b = hash(`b:${seed}`).toString().padStart(10, '0');
  return `1${(a + b).slice(0, digits - 1)}`;
}

/** The ads of a platform campaign (ids and names are stable). */
function adsOf(platform, campaign) {
  return Array.from({ length: ADS_PER_CAMPAIGN }, (_, i) => ({
    ad_id: numericId(`${platform}:${campaign}:${i}`, platform === 'facebook' ? 17 : 16),
    ad_name: `Ad ${i + 1} of ${campaign}`,
  }));
}

/** The campaigns of a platform account (issue 25's editor picker): three, stable per account. */
function campaignsOf(platform, account) {
  return Array.from({ length: 3 }, (_, i) => ({
    id: numericId(`${platform}:campaign:${account}:${i}`, platform === 'taboola' ? 8 : 16),
    name: `Fake ${platform} campaign ${i + 1}`,
  }));
}

/** Seeded rows per day and ad: impressions, clicks, spend in cents (platform currency, USD). */
function seededRows(platform, campaign, since, until) {
  const rows = [];
  const revisions = scenarios.get(String(campaign))?.revise ?? [];
  for (const day of daysBetween(since, until)) {
    for (const ad of adsOf(platform, campaign)) {
      const h = hash(`${platform}:${campaign}:${ad.ad_id}:${day}`);
      let row = {
        day,
        ...ad,
        impressions: 1000 + (h % 9000),
        clicks: 10 + ((h >>> 8) % 190),
        spend_cents: 500 + ((h >>> 4) % 20000),
      };
      const fix = revisions.find((r) => r.day === day && r.ad_id === ad.ad_id);
      if (fix) {
        row = {
          ...row,
          impressions: fix.impressions ?? row.impressions,
          clicks: fix.clicks ?? row.clicks,
          spend_cents: fix.spend !== undefined ? Math.round(Number(fix.spend) * 100) : row.spend_cents,
        };
      }
      rows.push(row);
    }
  }
  return rows;
}

const money = (cents) => (cents / 100).toFixed(2);

/** An ad account's currency and time zone: USD and UTC unless a scenario names others. */
function accountTerms(key) {
  const s = scenarios.get(String(key));
  return { currency: s?.currency ?? 'USD', timezone: s?.timezone ?? 'UTC' };
}

/** The failure a request is to get, if any (a consumed `times` counts down). */
function failureFor(keys) {
  for (const key of keys) {
    if (!key) continue;
    const text = String(key);
    const magic = FAILURES.find((f) => text.startsWith(f));
    if (magic) return { fail: magic, retryAfter: 7, delayMs: SLOW_MS };
    const s = scenarios.get(text);
    if (s?.fail) {
      if (s.times !== undefined) {
        if (s.times <= 0) continue;
        s.times -= 1;
      }
      return { fail: s.fail, retryAfter: s.retryAfter ?? 7, delayMs: s.delayMs ?? SLOW_MS };
    }
  }
  return null;
}

/**
 * Answers a failure in the platform's own shape; null when there is none. `slow` waits and then
 * answers normally, so a client with a shorter timeout sees the timeout.
 */
async function fail(failure, shapes) {
  if (!failure) return null;
  switch (failure.fail) {
    case 'fail-401':
      return shapes.unauthorized();
    case 'fail-429':
      return shapes.rateLimited(failure.retryAfter);
    case 'fail-500':
      return shapes.serverError();
    case 'malformed':
      return new Response('<html><body>Bad Gateway</body>', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    case 'slow':
      await new Promise((r) => setTimeout(r, failure.delayMs));
      return null;
    default:
      return null;
  }
}

async function readBody(request) {
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('form-urlencoded') || type.includes('multipart/form-data')) {
    return Object.fromEntries(await request.formData());
  }
  const text = await request.text();
  if (type.includes('application/json')) {
    try {
      return JSON.parse(text);
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

const bearer = (request) => (request.headers.get('authorization') ?? '').replace(/^(Bearer|OAuth)\s+/i, '');

// ---- TikTok Business API ----------------------------------------------------------------------

const requestId = (seed) => `2026${hash(`req:${seed}:${Date.now()}`).toString().padStart(10, '0')}`;
const ttAnswer = (code, message, data, status = 200, headers = {}) =>
  json({ code, message, request_id: requestId(message), data: data ?? {} }, status, headers);

const ttShapes = {
  // TikTok answers most errors with HTTP 200 and a code in the envelope.
  unauthorized: () => ttAnswer(40105, 'The access token is invalid or has expired.'),
  // Throttling too: HTTP 200, code 40100 (40132 for the app's or advertiser's own limit), and no
  // Retry-After, so the queue's backoff decides the wait.
  rateLimited: () => ttAnswer(40100, 'Requests made too frequently. Please try again later.'),
  serverError: () => ttAnswer(50000, 'System error. Please try again later.', {}, 500),
};

function tiktokCampaignOf(q) {
  try {
    const filters = JSON.parse(q.get('filtering') ?? '[]');
    const f = filters.find((x) => x.field_name === 'campaign_ids');
    return f ? JSON.parse(f.filter_value)[0] : '';
  } catch {
    return '';
  }
}

async function tiktok(request, path, url) {
  const q = url.searchParams;
  const token = request.headers.get('access-token') ?? '';
  const campaign = tiktokCampaignOf(q);
  const failed = await fail(failureFor([token, q.get('advertiser_id'), campaign]), ttShapes);
  if (failed) return failed;
  if (!token || token.startsWith('expired')) return ttShapes.unauthorized();
  const route = path.replace(/^\/open_api\/v\d+\.\d+/, '').replace(/\/$/, '');

  if (route === '/user/info') {
    return ttAnswer(0, 'OK', {
      core_user_id: numericId(`tt-user:${token}`, 19),
      display_name: 'Fake Marketer',
      email: 'marketer@example.com',
    });
  }
  if (route === '/advertiser/info') {
    let ids = [];
    try {
      ids = JSON.parse(q.get('advertiser_ids') ?? '[]');
    } catch {}
    if (!Array.isArray(ids) || ids.length === 0) {
      return ttAnswer(40002, 'advertiser_ids: Missing data for required field.');
    }
    return ttAnswer(0, 'OK', {
      list: ids.map((id) => {
        const terms = accountTerms(id);
        return {
          advertiser_id: String(id),
          name: `Advertiser ${id}`,
          currency: terms.currency,
          timezone: terms.timezone,
          display_timezone: terms.timezone,
        };
      }),
    });
  }
  if (route === '/campaign/get') {
    // GET /campaign/get/?advertiser_id=&page=&page_size= (TikTok's campaign list).
    if (!q.get('advertiser_id')) return ttAnswer(40002, 'advertiser_id: Missing data for required field.');
    const list = campaignsOf('tiktok', q.get('advertiser_id')).map((c) => ({
      campaign_id: c.id,
      campaign_name: c.name,
      advertiser_id: q.get('advertiser_id'),
      operation_status: 'ENABLE',
    }));
    return ttAnswer(0, 'OK', {
      list,
      page_info: { page: 1, page_size: Number(q.get('page_size') ?? 10), total_number: 3, total_page: 1 },
    });
  }
  if (route === '/report/integrated/get') {
    let dimensions = [];
    try {
      dimensions = JSON.parse(q.get('dimensions') ?? '[]');
    } catch {}
    if (!q.get('advertiser_id')) return ttAnswer(40002, 'advertiser_id: Missing data for required field.');
    if (!dimensions.includes('ad_id') || !dimensions.includes('stat_time_day')) {
      return ttAnswer(40002, 'dimensions: ad_id and stat_time_day are required for this report.');
    }
    const rows = seededRows(
      'tiktok',
      campaign || q.get('advertiser_id'),
      q.get('start_date'),
      q.get('end_date'),
    );
    const page = Math.max(1, Number(q.get('page') ?? 1));
    const pageSize = Math.min(1000, Math.max(1, Number(q.get('page_size') ?? 10)));
    const list = rows.slice((page - 1) * pageSize, page * pageSize).map((r) => ({
      dimensions: { ad_id: r.ad_id, stat_time_day: `${r.day} 00:00:00` },
      metrics: {
        ad_name: r.ad_name,
        spend: money(r.spend_cents),
        impressions: String(r.impressions),
        clicks: String(r.clicks),
      },
    }));
    return ttAnswer(0, 'OK', {
      list,
      page_info: {
        page,
        page_size: pageSize,
        total_number: rows.length,
        total_page: Math.ceil(rows.length / pageSize),
      },
    });
  }
  return ttAnswer(40001, `Unknown API path: ${route}`, {}, 404);
}

// ---- Taboola Backstage ------------------------------------------------------------------------

const tbError = (status, message, headers = {}) =>
  json({ http_status: status, message, offending_field: null }, status, headers);
const tbShapes = {
  unauthorized: () => tbError(401, 'Token expired or invalid'),
  rateLimited: (retryAfter) => tbError(429, 'Too many requests', { 'retry-after': String(retryAfter) }),
  serverError: () => tbError(500, 'Internal server error'),
};

async function taboola(request, path, url) {
  const q = url.searchParams;
  const route = path.replace(/^\/backstage/, '');
  if (route === '/oauth/token' && request.method === 'POST') {
    const body = await readBody(request);
    const failed = await fail(failureFor([body.client_id, body.client_secret]), tbShapes);
    if (failed) return failed;
    if (
      body.grant_type !== 'client_credentials' ||
      !body.client_id ||
      !body.client_secret ||
      body.client_secret.startsWith('bad')
    ) {
      return json({ error: 'invalid_client', error_description: 'Bad client credentials' }, 401);
    }
    return json({
      access_token: `tb-${hash(`${body.client_id}:${body.client_secret}`).toString(36)}`,
      token_type: 'bearer',
      expires_in: 43200,
    });
  }
  const token = bearer(request);
  const parts = route.split('/').filter(Boolean); // api, 1.0, account, ...
  const campaign = q.get('campaign') ?? parts[4] ?? '';
  const failed = await fail(failureFor([token, parts[2], campaign]), tbShapes);
  if (failed) return failed;
  if (!token || token.startsWith('expired')) return tbShapes.unauthorized();
  if (parts[0] !== 'api' || parts[1] !== '1.0') return tbError(404, 'Not found');

  if (parts[2] === 'users' && parts[3] === 'current' && parts[4] === 'account') {
    const accountId = `fake-advertiser-${hash(token) % 1000}`;
    return json({
      id: 1000 + (hash(token) % 1000),
      name: 'Fake Advertiser',
      account_id: accountId,
      partner_types: ['ADVERTISER'],
      type: 'PARTNER',
      campaign_types: ['PAID'],
      currency: accountTerms(accountId).currency,
    });
  }
  const account = parts[2];
  if (parts[3] === 'campaigns' && !parts[4]) {
    // GET /api/1.0/{account_id}/campaigns/ (Backstage's campaign list).
    return json({
      results: campaignsOf('taboola', account).map((c) => ({
        id: c.id,
        advertiser_id: account,
        name: c.name,
        status: 'RUNNING',
        is_active: true,
      })),
      metadata: { total: 3 },
    });
  }
  if (parts[3] === 'campaigns' && parts[4] && parts[5] === 'items') {
    return json({
      results: adsOf('taboola', parts[4]).map((a) => ({
        id: a.ad_id,
        campaign_id: parts[4],
        title: a.ad_name,
        url: 'https://example.com/offer',
        status: 'RUNNING',
      })),
    });
  }
  if (parts[3] === 'campaigns' && parts[4]) {
    return json({
      id: parts[4],
      advertiser_id: account,
      name: `Campaign ${parts[4]}`,
      status: 'RUNNING',
      is_active: true,
    });
  }
  if (parts[3] === 'reports' && parts[5] === 'dimensions') {
    const since = q.get('start_date');
    const until = q.get('end_date');
    if (!since || !until || !campaign) return tbError(400, 'start_date, end_date and campaign are required');
    const rows = seededRows('taboola', campaign, since, until);
    const dimension = parts[6];
    const terms = accountTerms(account);
    const campaignValue = /^\d+$/.test(campaign) ? Number(campaign) : campaign;
    let results;
    if (parts[4] === 'campaign-summary' && dimension === 'campaign_day_breakdown') {
      const byDay = new Map();
      for (const r of rows) {
        const d = byDay.get(r.day) ?? { impressions: 0, clicks: 0, spend_cents: 0 };
        d.impressions += r.impressions;
        d.clicks += r.clicks;
        d.spend_cents += r.spend_cents;
        byDay.set(r.day, d);
      }
      results = [...byDay].map(([day, d]) => ({
        date: `${day} 00:00:00.0`,
        campaign: campaignValue,
        impressions: d.impressions,
        clicks: d.clicks,
        spent: Number(money(d.spend_cents)),
        currency: terms.currency,
      }));
    } else if (parts[4] === 'top-campaign-content' && dimension === 'item_breakdown') {
      const byItem = new Map();
      for (const r of rows) {
        const d = byItem.get(r.ad_id) ?? { item_name: r.ad_name, impressions: 0, clicks: 0, spend_cents: 0 };
        d.impressions += r.impressions;
        d.clicks += r.clicks;
        d.spend_cents += r.spend_cents;
        byItem.set(r.ad_id, d);
      }
      results = [...byItem].map(([item, d]) => ({
        item,
        item_name: d.item_name,
        campaign: campaignValue,
        impressions: d.impressions,
        clicks: d.clicks,
        spent: Number(money(d.spend_cents)),
        currency: terms.currency,
      }));
    } else {
      return tbError(400, `Unknown report dimension ${dimension}`);
    }
    return json({
      'last-used-rawdata-update-time': '2026-11-23 00:00:00.0',
      timezone: terms.timezone,
      results,
      metadata: { dynamic_fields: [], static_fields: [] },
    });
  }
  return tbError(404, 'Not found');
}

// ---- The network's traffic providers: Blaze and CPC (shapes are ours, docs/decisions/097) -----

const pvError = (status, message, headers = {}) => json({ status: 'error', message }, status, headers);
const pvShapes = {
  unauthorized: () => pvError(401, 'Invalid API key'),
  rateLimited: (retryAfter) => pvError(429, 'Too many requests', { 'retry-after': String(retryAfter) }),
  serverError: () => pvError(500, 'Provider internal error'),
};
const ok = (data) => json({ status: 'success', data });
let providerSeq = 0;
/** The CPC provider's ad statuses, by provider campaign id and ad id. */
const cpcAds = {};

async function provider(request, path) {
  const body = request.method === 'POST' ? await readBody(request) : {};
  const parts = path.split('/').filter(Boolean);
  const ids = [].concat(body.ids ?? []);
  const failed = await fail(
    failureFor([body.campaign_ref, body.name, body.placement, body.source, parts[2], parts[4], ...ids]),
    pvShapes,
  );
  if (failed) return failed;
  const [area, thing, id, verb] = parts;
  if (area === 'blaze' && thing === 'publishers' && verb === 'zones') {
    const zones = [1, 2, 3].map((i) => ({
      id: `${id}-${i}`,
      name: `Publisher ${id} zone ${i}`,
      placements: ['EMAIL_PLACEMENT', 'NEWSFEED_PLACEMENT', 'DISPLAY_PLACEMENT'].slice(0, i),
    }));
    return ok({ zones });
  }
  if (area === 'blaze' && thing === 'banners' && request.method === 'POST') {
    if (id === 'activation' || id === 'delete') {
      if (!ids.length) return pvError(422, 'ids are required');
      return ok({ ids });
    }
    if (!body.name || !body.url) return pvError(422, 'name and url are required');
    if (!id && !(body.image instanceof File)) return pvError(422, 'image is required');
    return ok({ id: id ?? `bz-${++providerSeq}` });
  }
  if (area === 'blaze' && thing === 'placements' && request.method === 'POST') {
    if (!body.placement) return pvError(422, 'placement is required');
    return ok({ placement: body.placement });
  }
  if (area === 'cpc' && thing === 'status') return ok({ trrcpc: 'online', crane: 'online' });
  if (area === 'cpc' && thing === 'offers') {
    return ok({ offers: ['Keto Burn', 'Joint Relief', 'Sleep Well'].map((name) => ({ name })) });
  }
  if (area === 'cpc' && thing === 'campaigns' && request.method === 'POST' && !id) {
    if (!body.campaign_ref || !body.info) return pvError(422, 'campaign_ref and info are required');
    return ok({ id: `cpc-${body.campaign_ref}-${++providerSeq}` });
  }
  if (area === 'cpc' && thing === 'campaigns' && id && verb === 'ads') {
    // An ad the provider has not been told about runs (active); `removed` is the provider's own
    // doing (an ad taken down) and cannot be set back.
    cpcAds[id] = cpcAds[id] ?? {};
    const ads = cpcAds[id];
    const adId = parts[4];
    if (!adId && request.method === 'GET') {
      return ok({ ads: Object.entries(ads).map(([ad, status]) => ({ id: ad, status })) });
    }
    if (adId && parts[5] === 'status' && request.method === 'POST') {
      if (!['active', 'paused', 'removed'].includes(body.status))
        return pvError(422, 'status must be active or paused');
      if (ads[adId] === 'removed') return pvError(422, `Ad ${adId} was removed and cannot be changed`);
      ads[adId] = body.status;
      return ok({ id: adId, status: body.status });
    }
  }
  if (area === 'cpc' && thing === 'campaigns' && id) {
    // POST /__control {key: <provider campaign id>, spend: '1500.00'} sets what it has spent.
    return ok({ id, spend: scenarios.get(id)?.spend ?? '0.00' });
  }
  return pvError(404, 'Not found');
}

// ---- control ----------------------------------------------------------------------------------

async function control(request, url) {
  if (url.pathname === '/__requests') {
    const needle = url.searchParams.get('contains') ?? '';
    return json({ count: requestLog.filter((line) => line.includes(needle)).length });
  }
  if (url.pathname === '/__expected') {
    const q = url.searchParams;
    const rows = seededRows(q.get('platform'), q.get('campaign'), q.get('since'), q.get('until'));
    return json({
      rows: rows.map((r) => ({
        date: r.day,
        ad_id: r.ad_id,
        ad_name: r.ad_name,
        impressions: r.impressions,
        clicks: r.clicks,
        spend_micros: r.spend_cents * 10_000,
      })),
    });
  }
  if (request.method === 'DELETE') {
    scenarios.delete(url.searchParams.get('key') ?? '');
    return json({ ok: true });
  }
  const body = await readBody(request);
  if (!body.key) return json({ message: 'key is required' }, 422);
  const current = scenarios.get(String(body.key)) ?? {};
  const next = { ...current, ...body };
  if (body.revise) next.revise = [...(current.revise ?? []), ...[].concat(body.revise)];
  if (body.fail === null) delete next.fail;
  scenarios.set(String(body.key), next);
  return json({ ok: true, scenario: next });
}

const helpers = {
  json,
  hash,
  traceId,
  numericId,
  fail,
  failureFor,
  readBody,
  bearer,
  seededRows,
  money,
  campaignsOf,
  accountTerms,
};
const PLATFORMS = {
  facebook: facebookFake(helpers),
  tiktok,
  taboola,
  mediago: mediagoFake(helpers),
  liveintent: liveintentFake(helpers),
  provider,
};

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__')) return control(request, url);
    requestLog.push(
      `${request.method} ${url} ${request.headers.get('authorization') ?? ''} ${request.headers.get('access-token') ?? ''}`,
    );
    if (requestLog.length > LOG_SIZE) requestLog.shift();
    const [, platform, ...rest] = url.pathname.split('/');
    const handler = PLATFORMS[platform];
    if (!handler) return json({ message: 'Unknown platform' }, 404);
    return handler(request, `/${rest.join('/')}`, url);
  },
};
