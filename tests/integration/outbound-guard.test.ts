import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintClickId } from '../../worker/services/hot-path/click-ids';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { outbound } from '../../worker/services/operator/fan-out';
import { outboundFetch, outboundPolicy } from '../../worker/services/outbound/outbound';
import { deliverPostback } from '../../worker/services/postbacks/postbacks';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';
import { withFetchStandIn } from '../support/fetch-stand-in';

// Issue 24, server-side request forgery (docs/decisions/122): every server-side request to an
// address a user gave goes through one guard. Each caller is tried with loopback, private,
// link-local (cloud metadata), IPv6 (loopback, unique-local, IPv4-mapped), 'localhost', names
// that resolve to private addresses (the fake resolver answers like nip.io, tests/fake-dns.ts)
// and redirects from a public host to a private one. The network is a stand-in: an "internal
// service" answers any address it is asked, so a request that got through would be seen.

const SECRET = 'internal: db password hunter2';
const network: string[] = [];
const realFetch = globalThis.fetch;

function standIn(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = input instanceof Request ? input.url : String(input);
  const u = new URL(url);
  if (u.hostname === 'dns.test') return realFetch(input, init);
  network.push(url);
  if (u.hostname === 'hop.example') {
    const to = u.pathname.startsWith('/to-metadata')
      ? 'http://169.254.169.254/latest/meta-data/'
      : 'http://127.0.0.1.nip.io/admin';
    return Promise.resolve(new Response(null, { status: 302, headers: { location: to } }));
  }
  if (u.hostname === 'public.example')
    return Promise.resolve(new Response('<h1 data-element="headline">Hello</h1>'));
  return Promise.resolve(new Response(`<h1 data-element="secret">${SECRET}</h1>`));
}

const IP = 'IP addresses are not allowed';
const rebinds = (ip: string) => `the host resolves to a private address (${ip})`;

/** Addresses (with a path) every caller must refuse, and why. */
const REFUSED: [string, string][] = [
  ['http://127.0.0.1:8787/secret', IP],
  ['http://10.0.0.5/x', IP],
  ['http://192.168.1.10/x', IP],
  ['http://169.254.169.254/latest/meta-data/', IP],
  ['http://[::1]:8787/x', IP],
  ['http://[fc00::1]/x', IP],
  ['http://[::ffff:127.0.0.1]/x', IP],
  ['http://localhost:8787/x', 'single-label host names are not allowed'],
  ['http://api.localhost/x', 'private host names are not allowed'],
  ['http://127.0.0.1.nip.io/x', rebinds('127.0.0.1')],
  ['http://db.10-0-0-5.example/x', rebinds('10.0.0.5')],
  ['http://meta.169-254-169-254.example/x', rebinds('169.254.169.254')],
];
/** Public pages that redirect inward: the redirect is checked before it is followed. */
const REDIRECTS: [string, string][] = [
  ['https://hop.example/to-metadata', IP],
  ['https://hop.example/to-rebind', rebinds('127.0.0.1')],
];

const calledInside = () => network.filter((u) => !/^https:\/\/(hop|public)\.example\//.test(u));

const token = await setupInstallation();
withFetchStandIn(standIn);

const storedUrl = async (landingId: number) =>
  (await env.DB.prepare('SELECT url FROM landing_pages WHERE id = ?1')
    .bind(landingId)
    .first<{ url: string }>())!.url;

describe('landing-page reads (GET /api/landing/get-landing-elements-data)', () => {
  it('never reads a private, loopback, metadata or rebinding address, nor follows a redirect to one', async () => {
    network.length = 0;
    const campaignId = await makeCampaign(token, { name: 'SSRF elements', campaignType: 'landing_page' });
    for (const [i, [url, reason]] of [...REFUSED, ...REDIRECTS].entries()) {
      const landing = await makeLanding(token, campaignId, { name: `h${i}_x`, url });
      const res = await api(
        `/api/landing/get-landing-elements-data?${new URLSearchParams({ campaignId: String(campaignId), url: await storedUrl(landing) })}`,
        { token },
      );
      expect(res.status, url).toBe(200);
      expect(res.body.data.error, url).toBe(
        `The landing page could not be read: its address is not a public http or https address (${reason}).`,
      );
      expect(res.body.data.variations, url).toEqual([]);
      expect(JSON.stringify(res.body), url).not.toContain(SECRET);
    }
    expect(calledInside()).toEqual([]);
    // The redirects were asked once each, their targets never.
    expect(network).toEqual(REDIRECTS.map(([u]) => u));
  });

  it('still reads a public page', async () => {
    const campaignId = await makeCampaign(token, { name: 'Public elements', campaignType: 'landing_page' });
    const landing = await makeLanding(token, campaignId, { name: 'a_b', url: 'https://public.example/lp' });
    const res = await api(
      `/api/landing/get-landing-elements-data?${new URLSearchParams({ campaignId: String(campaignId), url: await storedUrl(landing) })}`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.error).toBeNull();
    expect(res.body.data.variations).toEqual([{ name: 'headline', content: 'Hello', tagType: 'header' }]);
  });
});

describe('link tester page check (POST /api/tools/link-test, checkPages)', () => {
  it('refuses every inward address and redirect, by name and by address', async () => {
    network.length = 0;
    const all = [...REFUSED, ...REDIRECTS];
    // The tester checks at most 5 pages per run: one campaign per 5 addresses.
    for (let start = 0; start < all.length; start += 5) {
      const chunk = all.slice(start, start + 5);
      const campaignId = await makeCampaign(token, {
        name: `SSRF tester ${start}`,
        campaignType: 'landing_page',
      });
      for (const [i, [url]] of chunk.entries())
        await makeLanding(token, campaignId, { name: `LP ${start + i}`, url });
      await makeOffer(token, campaignId, { url: 'https://offer.example/buy?s={clickid}' });
      const res = await api('/api/tools/link-test', { token, body: { campaignId, checkPages: 1 } });
      expect(res.status).toBe(200);
      const unchecked = res.body.data.warnings
        .filter((w: { code: string }) => w.code === 'lp_unchecked')
        .map((w: { message: string }) => w.message)
        .sort();
      expect(unchecked).toEqual(
        chunk
          .map(
            ([, reason], i) =>
              `Landing page “LP ${start + i}” could not be checked for the click-through link: its address cannot be fetched (${reason}).`,
          )
          .sort(),
      );
    }
    expect(calledInside()).toEqual([]);
  });
});

describe('postbacks to traffic sources', () => {
  const testClick = (campaignId: number) =>
    api('/api/tools/test-clicks', { token, body: { campaignId } }).then((r) => r.body.data.clickId as string);

  it('the postback tester sends nothing to a name that resolves inward, and says why', async () => {
    network.length = 0;
    for (const [template, reason] of [
      ['http://127.0.0.1.nip.io/pb?c={clickid}', rebinds('127.0.0.1')],
      ['http://db.10-0-0-5.example/pb?c={clickid}', rebinds('10.0.0.5')],
      ['https://meta.169-254-169-254.example/pb?c={clickid}', rebinds('169.254.169.254')],
    ]) {
      const campaignId = await makeCampaign(token, {
        name: 'SSRF postback',
        campaignType: 'direct_link',
        postback_enabled: 1,
        postback: template,
      });
      await makeOffer(token, campaignId);
      const clickId = await testClick(campaignId);
      const res = await api('/api/tools/test-postback', { token, body: { clickId, send: 1 } });
      expect(res.status).toBe(200);
      expect(res.body.data.trafficSourcePostback).toMatchObject({
        status: 'blocked',
        message: `The postback URL is refused: it must be a public http or https address. (${reason})`,
        responseStatus: null,
      });
    }
    expect(network).toEqual([]);
  });

  it('literal and local addresses are refused when the campaign is saved', async () => {
    for (const [url] of REFUSED.filter(([, reason]) => !reason.startsWith('the host resolves'))) {
      const res = await api('/api/add-campaign', {
        token,
        body: { name: 'SSRF save', postback_enabled: 1, postback: `${url}?c={clickid}` },
      });
      expect(res.status, url).toBe(422);
      expect(Object.keys(res.body.errors), url).toEqual(['postback']);
    }
  });

  it('the delivery queue blocks inward names and answers a redirect without following it', async () => {
    network.length = 0;
    const deliver = async (template: string) => {
      const campaign = await makeCampaign(token, {
        name: 'SSRF delivery',
        campaignType: 'landing_page',
        postback_enabled: 1,
        postback: template,
      });
      const landing = await makeLanding(token, campaign);
      const offer = await makeOffer(token, campaign);
      const clickId = await mintClickId(env, {
        campaignId: campaign,
        pathId: 0,
        landingId: landing,
        offerId: 0,
      });
      const at = Date.now();
      await ingestEvents(env, [
        visitEvent({ id: clickId, c: campaign, l: landing, at, ua: 'x' }),
        lpClickEvent({ id: clickId, c: campaign, l: landing, o: offer, at }),
      ]);
      const { postbackIds } = await ingestEvents(env, [
        conversionEvent({ id: clickId, c: campaign, l: landing, at, tx: 'T' }),
      ]);
      const outcome = await deliverPostback(env, postbackIds[0]);
      const row = await env.DB.prepare(
        'SELECT status, error, response_status FROM postback_log WHERE id = ?1',
      )
        .bind(postbackIds[0])
        .first();
      return { outcome, row };
    };
    expect(await deliver('http://db.10-0-0-5.example/pb?c={clickid}')).toEqual({
      outcome: 'blocked',
      row: { status: 'blocked', error: rebinds('10.0.0.5'), response_status: null },
    });
    expect(await deliver('https://hop.example/to-metadata?c={clickid}')).toEqual({
      outcome: 'sent',
      row: { status: 'sent', error: '', response_status: 302 },
    });
    expect(calledInside()).toEqual([]);
    expect(network.map((u) => new URL(u).pathname)).toEqual(['/to-metadata']);
  });
});

// The operator's registry and fan-out run on the operator host (vitest.config.ts OPERATOR_HOST).
const OP = 'http://operator.test';
function op(path: string, init: { method?: string; body?: unknown } = {}) {
  return SELF.fetch(`${OP}/api/operator/${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}
const installationCount = async () =>
  (await env.DB.prepare('SELECT count(*) AS n FROM student_installations').first<{ n: number }>())!.n;
const origin = (url: string) => /^[a-z]+:\/\/[^/]+/.exec(url)![0];

describe('operator registry: installation domains', () => {
  it('refuses an inward domain with 422 when it is added or edited, and writes nothing', async () => {
    const before = await installationCount();
    for (const [url, reason] of REFUSED) {
      const domain = origin(url);
      const res = await op('installations', { body: { name: 'Inside', domain, credential: 'mdk_x' } });
      expect(res.status, domain).toBe(422);
      expect(res.body.errors, domain).toEqual({
        domain: [`The installation’s address must be a public http or https address: ${reason}.`],
      });
    }
    expect(await installationCount()).toBe(before);

    const made = await op('installations', {
      body: { name: 'Public one', domain: 'https://student.example.com', credential: 'mdk_x' },
    });
    expect(made.status).toBe(201);
    const edited = await op(`installations/${made.body.data.student.id}`, {
      method: 'PUT',
      body: { name: 'Public one', domain: 'http://169.254.169.254' },
    });
    expect(edited.status).toBe(422);
    expect(edited.body.errors.domain).toEqual([
      `The installation’s address must be a public http or https address: ${IP}.`,
    ]);
    const row = await env.DB.prepare('SELECT domain FROM student_installations WHERE id = ?1')
      .bind(made.body.data.student.id)
      .first();
    expect(row).toEqual({ domain: 'https://student.example.com' });
  });
});

describe('operator fan-out to installation domains', () => {
  const sent: string[] = [];
  const realOutbound = outbound.fetch;
  beforeAll(() => {
    // Where the credential would go: every call the fan-out makes.
    outbound.fetch = async (input, init) => {
      sent.push(String(input));
      return standIn(input, init);
    };
  });
  afterAll(() => {
    outbound.fetch = realOutbound;
  });

  it('never sends the credential to a stored inward domain, nor follows a redirect with it', async () => {
    // Rows saved before the save-time check existed: made public, then moved inward in the database.
    const cases = [
      ...REFUSED.map(([url, reason]) => [
        origin(url),
        `The installation’s address must be a public http or https address: ${reason}.`,
      ]),
      [
        'https://hop.example/to-metadata',
        'It answered a redirect to http://169.254.169.254/latest/meta-data/; register the address it redirects to.',
      ],
    ];
    const hashes: string[] = [];
    for (const [i, [domain]] of cases.entries()) {
      const made = await op('installations', {
        body: {
          name: `Legacy ${String(i).padStart(2, '0')}`,
          domain: `https://legacy${i}.example.com`,
          credential: `mdk_legacy${i}`,
        },
      });
      expect(made.status).toBe(201);
      await env.DB.prepare('UPDATE student_installations SET domain = ?2 WHERE id = ?1')
        .bind(made.body.data.student.id, domain)
        .run();
      hashes.push(made.body.data.student.id_hash);
    }
    const res = await op('students-data', {
      body: { students: hashes, start_date: '2026-01-01', end_date: '2026-01-02' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.students).toEqual([]);
    expect(res.body.data.unavailable.map((u: any) => [u.domain, u.error])).toEqual(cases);
    // Only the public host that redirects was asked; nothing inward, nothing after the redirect.
    expect(sent.map((u) => new URL(u).host)).toEqual(['hop.example']);
  });
});

describe('the guard itself (worker/services/outbound/outbound.ts)', () => {
  const policy = outboundPolicy(env);
  const page = (status: number, body: BodyInit | null, headers: Record<string, string> = {}) =>
    new Response(body, { status, headers });

  it('reads at most maxBytes of a body and says it stopped', async () => {
    const big = 'x'.repeat(300_000);
    const answer = await outboundFetch('https://public.example/big', policy, {
      fetcher: async () => page(200, big),
      timeoutMs: 2000,
      maxRedirects: 0,
      maxBytes: 100_000,
    });
    expect(answer).toMatchObject({ ok: true, status: 200, truncated: true });
    expect(answer.ok && answer.text.length).toBe(100_000);
  });

  it('gives up at the deadline, however the far side stalls', async () => {
    const started = Date.now();
    const answer = await outboundFetch('https://public.example/slow', policy, {
      fetcher: (_url, init) =>
        new Promise((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        ),
      timeoutMs: 300,
      maxRedirects: 0,
      maxBytes: 1000,
    });
    expect(answer).toEqual({
      ok: false,
      url: 'https://public.example/slow',
      kind: 'timeout',
      reason: 'no answer within 0.3 s',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('follows a bounded number of redirects, each one checked', async () => {
    const hops: string[] = [];
    const answer = await outboundFetch('https://public.example/0', policy, {
      fetcher: async (url) => {
        hops.push(url);
        const n = Number(new URL(url).pathname.slice(1));
        return page(302, null, { location: `/${n + 1}` });
      },
      timeoutMs: 2000,
      maxRedirects: 3,
      maxBytes: 1000,
    });
    expect(answer).toMatchObject({ ok: false, kind: 'too_many_redirects', reason: 'too many redirects' });
    expect(hops).toEqual([0, 1, 2, 3].map((n) => `https://public.example/${n}`));
  });

  it('trusts OUTBOUND_ALLOW_HOSTS in development and tests only, never in production', async () => {
    const call = async (environment: string | undefined) => {
      const hits: string[] = [];
      const answer = await outboundFetch(
        'http://127.0.0.1:9999/lp',
        outboundPolicy({ ...env, ENVIRONMENT: environment, OUTBOUND_ALLOW_HOSTS: '127.0.0.1, localhost' }),
        {
          fetcher: async (url) => {
            hits.push(url);
            return page(200, 'local page');
          },
          timeoutMs: 2000,
          maxRedirects: 0,
          maxBytes: 1000,
        },
      );
      return { ok: answer.ok, hits: hits.length };
    };
    expect(await call('development')).toEqual({ ok: true, hits: 1 });
    expect(await call('test')).toEqual({ ok: true, hits: 1 });
    expect(await call(undefined)).toEqual({ ok: false, hits: 0 });
    expect(await call('production')).toEqual({ ok: false, hits: 0 });
    // The vitest configuration sets no allowance: the suite runs under production's rules.
    expect(outboundPolicy(env).trusted.size).toBe(0);
  });
});
