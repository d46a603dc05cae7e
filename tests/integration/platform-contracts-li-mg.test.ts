import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import * as liveintent from '../../worker/integrations/liveintent/client';
import { createObject } from '../../worker/integrations/liveintent/manage';
import * as mediago from '../../worker/integrations/mediago/client';
import LI from '../fixtures/platforms/liveintent.json';
import MG from '../fixtures/platforms/mediago.json';
import { failure } from '../support/platform-fakes';

// Contract tests for the two platforms with no JavaScript SDK (issue 25, docs/decisions/150): the
// request and answer shapes recorded from LiveIntent/sdk-php's recordings and MediaGo's API
// reference (tests/fixtures/platforms/*.json name their sources) hold for both sides. The fake
// (fakes/platforms.js) must answer what the platform answers; the client must send what the
// platform expects and read what it answers, replayed here from the fixture.

const HEX = /^[0-9a-f]{32}$/;
const fake = (path: string, init?: RequestInit) =>
  env.PLATFORM_FAKES!.fetch(`http://fakes.test${path}`, init);
const form = (v: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(v),
});
const post = (token: string, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** An env whose platform binding replays fixture answers and records what the client sent. */
function replay(answer: (req: Request, url: URL) => Promise<Response> | Response) {
  const sent: {
    method: string;
    path: string;
    query: Record<string, string>;
    headers: Headers;
    body: string;
  }[] = [];
  const binding = {
    async fetch(input: RequestInfo, init?: RequestInit) {
      const req = new Request(input, init);
      const url = new URL(req.url);
      const body = req.method === 'GET' ? '' : await req.clone().text();
      sent.push({
        method: req.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
      });
      return answer(req, url);
    },
  };
  return { env: { ...env, PLATFORM_FAKES: binding as unknown as Fetcher }, sent };
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('LiveIntent fake against the SDK recordings', () => {
  it('grants a token for client credentials and refuses the password grant', async () => {
    const granted = await fake(
      '/liveintent/oauth/token',
      form({
        client_id: 'cid-1',
        client_secret: 'secret-1',
        grant_type: 'client_credentials',
        scope: 'openid',
      }),
    );
    expect(granted.status).toBe(200);
    const body = (await granted.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(Object.keys(LI.token.answer.body).sort());
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 1800 });
    const password = await fake(
      '/liveintent/oauth/token',
      form({ grant_type: 'password', username: 'li-user', password: 'li-pass', scope: 'openid' }),
    );
    expect(password.status).toBe(400);
    expect(await password.json()).not.toHaveProperty('access_token');
  });

  it('lists by POST /search/<resource> with hex ids, integer refIds and a hex campaign on line items', async () => {
    const campaigns = await fake(
      '/liveintent/search/campaign',
      post('tok', { conditions: [{ field: 'advertiser', operator: 'eq', value: '1000' }], page: 1, n: 50 }),
    );
    expect(campaigns.status).toBe(200);
    const found = (await campaigns.json()) as {
      requestId: string;
      output: Record<string, unknown>[];
      total: number;
    };
    expect(typeof found.requestId).toBe('string');
    expect(found.total).toBe(found.output.length);
    expect(found.output.length).toBeGreaterThan(0);
    for (const c of found.output) {
      expect(c.id).toMatch(HEX);
      expect(Number.isInteger(c.refId)).toBe(true);
    }
    const parent = found.output[0].id as string;
    const items = await fake(
      '/liveintent/search/strategy',
      post('tok', {
        ...LI.search.request.json,
        conditions: [{ field: 'campaign', operator: 'eq', value: parent }],
      }),
    );
    const list = (await items.json()) as { output: Record<string, unknown>[]; total: number };
    expect(list.output.length).toBe(list.total);
    for (const l of list.output) {
      expect(Object.keys(l)).toEqual(expect.arrayContaining(Object.keys(LI.search.answer.body.output[0])));
      expect(l.id).toMatch(HEX);
      expect(Number.isInteger(l.refId)).toBe(true);
      expect(l.campaign).toBe(parent);
    }
    // One object answers by its refId and by its id, as the SDK's find does.
    const get = async (key: unknown) =>
      (await (
        await env.PLATFORM_FAKES!.fetch(`http://fakes.test/liveintent/strategy/${key}`, {
          headers: { authorization: 'Bearer tok' },
        })
      ).json()) as { output: unknown };
    expect((await get(list.output[0].id)).output).toEqual(list.output[0]);
    expect((await get(list.output[0].refId)).output).toEqual(list.output[0]);
  });

  it('answers errors as {requestId, errors:[{id, code, details}]}', async () => {
    const res = await fake('/liveintent/strategy', post('tok', LI.error.request.json));
    expect(res.status).toBe(LI.error.answer.status);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['errors', 'requestId']);
    expect(body.errors).toEqual(LI.error.answer.body.errors);
    const refused = await env.PLATFORM_FAKES!.fetch('http://fakes.test/liveintent/campaign/1', {
      headers: { authorization: 'Bearer expired-1' },
    });
    expect(refused.status).toBe(401);
    expect(Object.keys((await refused.json()) as object).sort()).toEqual(['errors', 'requestId']);
  });
});

describe('LiveIntent client against the SDK recordings', () => {
  it('gets a token by client credentials, and uses a personal access token as it is', async () => {
    const { env: e, sent } = replay(() => json(LI.token.answer.body));
    expect(await liveintent.accessToken(e, { clientId: 'cid-contract-1', secret: 'sec-1' })).toBe(
      LI.token.answer.body.access_token,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe(`/liveintent${LI.token.request.path}`);
    expect(sent[0].headers.get('content-type')).toContain(LI.token.request.contentType);
    expect(Object.fromEntries(new URLSearchParams(sent[0].body))).toEqual({
      ...LI.token.request.form,
      client_id: 'cid-contract-1',
      client_secret: 'sec-1',
    });
    // The token lasts 1800 s: a second call reuses it.
    await liveintent.accessToken(e, { clientId: 'cid-contract-1', secret: 'sec-1' });
    expect(sent).toHaveLength(1);
    expect(await liveintent.accessToken(e, { clientId: '', secret: 'pat-contract' })).toBe('pat-contract');
    expect(sent).toHaveLength(1);
  });

  it("searches a campaign's line items and reads hex ids and integer refIds", async () => {
    const { env: e, sent } = replay(() => json(LI.search.answer.body));
    const items = await liveintent.lineItems(e, 'tok', LI.search.request.json.conditions[0].value);
    expect(sent[0]).toMatchObject({ method: 'POST', path: `/liveintent${LI.search.request.path}` });
    expect(JSON.parse(sent[0].body)).toEqual(LI.search.request.json);
    expect(items).toEqual([
      {
        id: '00009758365a11e7943622000a974651',
        refId: 192431,
        campaign: 'fef81b06365911e7943622000a974651',
        name: 'SDK_TEST_UPDATE_NAME',
        status: 'paused',
      },
    ]);
  });

  it("reads the platform's error layout: the codes and details, the request id", async () => {
    const { env: e } = replay(() => json(LI.error.answer.body, LI.error.answer.status));
    const err = await failure(createObject(e, 'tok', 'strategy', LI.error.request.json));
    expect(err.kind).toBe('request');
    expect(err.status).toBe(400);
    expect(err.detail).toBe('E1001 REQ: status');
    expect(err.code).toBe('E1001');
    expect(err.traceId).toBe('1654790695.563062');
  });
});

describe('MediaGo fake against the API reference', () => {
  const basic = (t: string) => ({ method: 'POST', headers: { authorization: `Basic ${t}` } });

  it('exchanges the API token for an access token of 3600 s; a new one cancels the old', async () => {
    const first = await fake(`/mediago${MG.token.request.path}`, basic('bWctY29udHJhY3Q='));
    expect(first.status).toBe(200);
    const a = (await first.json()) as Record<string, unknown>;
    expect(Object.keys(a).sort()).toEqual(Object.keys(MG.token.answer.body).sort());
    expect(a).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const b = (await (await fake(`/mediago${MG.token.request.path}`, basic('bWctY29udHJhY3Q='))).json()) as {
      access_token: string;
    };
    const q = new URLSearchParams({ ...MG.adReport.request.query, timezone: 'UTC', campaign_ids: '55001' });
    const report = (token: unknown) =>
      env.PLATFORM_FAKES!.fetch(`http://fakes.test/mediago${MG.adReport.request.path}?${q}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await report(a.access_token)).status).toBe(401);
    expect((await report(b.access_token)).status).toBe(200);
  });

  it('answers the ad-by-day report in the reference shape, paged until an empty page', async () => {
    const token = (
      (await (await fake(`/mediago${MG.token.request.path}`, basic('bWctcmVwb3J0'))).json()) as {
        access_token: string;
      }
    ).access_token;
    const page = async (n: number) => {
      const q = new URLSearchParams({
        ...MG.adReport.request.query,
        timezone: 'UTC',
        campaign_ids: '55001',
        current_page: String(n),
        page_size: '5',
      });
      const res = await env.PLATFORM_FAKES!.fetch(
        `http://fakes.test/mediago${MG.adReport.request.path}?${q}`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { results: Record<string, unknown>[] }).results;
    };
    const one = await page(1);
    expect(one).toHaveLength(5);
    for (const r of one) {
      expect(Object.keys(r).sort()).toEqual(Object.keys(MG.adReport.answer.body.results[0]).sort());
      expect(Number.isInteger(r.ad_id)).toBe(true);
      expect(typeof r.spend).toBe('number');
      expect(r.campaign_id).toBe('55001');
    }
    // 3 days × 3 ads = 9 rows: page 2 has 4, page 3 none.
    expect(await page(2)).toHaveLength(4);
    expect(await page(3)).toEqual(MG.adReport.lastPage.body.results);
  });
});

describe('MediaGo client against the API reference', () => {
  const row = MG.adReport.answer.body.results[0];

  function platform(apiToken: string) {
    let issued = 0;
    let valid = '';
    const r = replay((req, url) => {
      if (url.pathname.endsWith(MG.token.request.path)) {
        issued += 1;
        valid = `access-${issued}`;
        return json({ ...MG.token.answer.body, access_token: valid });
      }
      if (req.headers.get('authorization') !== `Bearer ${valid}`)
        return json({ code: 401, msg: 'invalid token' }, 401);
      return json(
        url.searchParams.get('current_page') === '1' ? MG.adReport.answer.body : MG.adReport.lastPage.body,
      );
    });
    return { ...r, apiToken, cancel: () => (valid = 'someone-else') };
  }

  it('exchanges the token once, asks the ad-by-day report with its parameters and pages to the end', async () => {
    const p = platform('bWctY2xpZW50LTE=');
    const rows = await mediago.adReport(
      p.env,
      p.apiToken,
      '55001',
      '2026-11-18',
      '2026-11-20',
      'America/New_York',
    );
    expect(p.sent[0]).toMatchObject({ method: 'POST', path: `/mediago${MG.token.request.path}` });
    expect(p.sent[0].headers.get('authorization')).toBe(`Basic ${p.apiToken}`);
    expect(p.sent[1]).toMatchObject({ method: 'GET', path: `/mediago${MG.adReport.request.path}` });
    expect(p.sent[1].headers.get('authorization')).toBe('Bearer access-1');
    expect(Object.keys(p.sent[1].query).sort()).toEqual(Object.keys(MG.adReport.request.query).sort());
    expect(p.sent[1].query).toMatchObject({
      start_date: '2026-11-18',
      end_date: '2026-11-20',
      timezone: 'America/New_York',
      campaign_ids: '55001',
      current_page: '1',
    });
    expect(p.sent[2].query.current_page).toBe('2');
    expect(rows).toEqual([
      {
        date: row.date,
        adId: String(row.ad_id),
        adName: row.ad_name,
        impressions: row.impression,
        clicks: row.click,
        spendMicros: 12_340_000,
        timeZone: 'America/New_York',
      },
    ]);
    // The access token is kept: a second report asks no new one.
    await mediago.adReport(p.env, p.apiToken, '55001', '2026-11-18', '2026-11-18', 'UTC');
    expect(p.sent.filter((s) => s.path.endsWith(MG.token.request.path))).toHaveLength(1);
  });

  it('renews the access token once when a newer one cancelled it', async () => {
    const p = platform('bWctY2xpZW50LTI=');
    await mediago.adReport(p.env, p.apiToken, '55001', '2026-11-18', '2026-11-18', 'UTC');
    p.cancel();
    const rows = await mediago.adReport(p.env, p.apiToken, '55001', '2026-11-18', '2026-11-18', 'UTC');
    expect(rows).toHaveLength(1);
    expect(p.sent.filter((s) => s.path.endsWith(MG.token.request.path))).toHaveLength(2);
  });

  it('splits a window longer than 30 days into requests of at most 30 days', async () => {
    const p = platform('bWctY2xpZW50LTM=');
    await mediago.adReport(p.env, p.apiToken, '55001', '2026-10-01', '2026-11-20', 'UTC');
    const windows = p.sent
      .filter((s) => s.method === 'GET' && s.query.current_page === '1')
      .map((s) => [s.query.start_date, s.query.end_date]);
    expect(windows).toEqual([
      ['2026-10-01', '2026-10-30'],
      ['2026-10-31', '2026-11-20'],
    ]);
  });
});
