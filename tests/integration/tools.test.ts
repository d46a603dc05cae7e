import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { LinkBuilderAnswer, LinkTestAnswer } from '../../schema/tools-api';
import { parseClickId } from '../../worker/services/hot-path/click-ids';
import { parseTestClickId } from '../../worker/services/tools/test-click-ids';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer, makePath } from '../factories/campaigns';
import { waitForCount } from '../factories/db';
import { setupInstallation, userWithRole } from '../factories/install';
import { hit, IPHONE_UA } from '../factories/traffic';
import { standInHosts } from '../support/fetch-stand-in';
import { toolsStandIn } from '../support/tools-stand-in';

// The Tools API: the link tester's dry run (shares routing.ts with the tracking path, writes
// nothing) and the link builder; the postback tester's test clicks and conversions are in
// tools-postback.test.ts. Landing pages and traffic sources are stand-ins answering by host name
// (tests/support/tools-stand-in.ts); everything else is the real Worker, D1 and queues.

const token = await setupInstallation();
// The tracker itself, and the fake resolver the outbound guard asks first (tests/fake-dns.ts).
const calls = standInHosts((host) => host === 'tracker.example.com' || host === 'dns.test', toolsStandIn);

const linkTest = (body: Record<string, unknown>, auth = token) =>
  api<{ data: LinkTestAnswer }>('/api/tools/link-test', { token: auth, body: { checkPages: 0, ...body } });

/** Every table's rows, in a stable order: the before-and-after picture of a dry run. */
async function dump(): Promise<Record<string, unknown[]>> {
  const { results } = await env.DB.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
      AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name`,
  ).all<{ name: string }>();
  const out: Record<string, unknown[]> = {};
  for (const { name } of results) {
    out[name] = (await env.DB.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all()).results;
  }
  return out;
}

async function splitCampaign() {
  const campaignId = await makeCampaign(token, {
    name: 'Split test',
    campaignType: 'landing_page',
    affiliate_network: 'clickbank',
    extratokens: [
      { token_name: 'Sub 1', parameter: 'sub1', landing_page_enabled: 1, offer_page_enabled: 1 },
      { token_name: 'Sub 2', parameter: 'sub2' },
    ],
  });
  // Three landing pages at 50/30/20 and two offers at 70/30, added in this order.
  for (const [name, url, share] of [
    ['LP fifty', 'https://lp.example/a', 50],
    ['LP thirty', 'https://lp.example/b', 30],
    ['LP twenty', 'https://lp.example/c', 20],
  ] as const) {
    await makeLanding(token, campaignId, { name, url, share });
  }
  await makeOffer(token, campaignId, { name: 'Offer seventy', share: 70, url: 'https://offer.example/x' });
  await makeOffer(token, campaignId, { name: 'Offer thirty', share: 30, url: 'https://offer.example/y' });
  return { campaignId };
}

describe('link tester: a dry run', () => {
  it('changes no table, queues nothing, and answers the whole chain from a pasted link', async () => {
    const { campaignId } = await splitCampaign();
    const sentinel = await makeCampaign(token, { name: 'Sentinel' });
    await makeOffer(token, sentinel);
    const before = await dump();

    const res = await linkTest({
      link: `https://tracker.example.com/go/${campaignId}?tid=ad-7&sub1=blue&sub2=x`,
      device: 'desktop',
      country: 'us',
      seed: 7,
    });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.campaign).toMatchObject({ campaignId, name: 'Split test', campaignType: 'landing_page' });
    expect(data.visitor).toMatchObject({
      device: 'desktop',
      deviceFrom: 'chosen',
      bot: false,
      country: 'US',
    });
    expect(data.values).toEqual({ target: 'ad-7', keyword: '', tokens: { sub1: 'blue', sub2: 'x' } });
    expect(data.result).toBe('routed');
    expect(data.redirect).toEqual({ mode: '302', description: 'HTTP 302 redirect straight to the page.' });
    // A test click id: signed, but of another version, so every real route refuses it.
    expect(parseClickId(env, data.clickId)).toBeNull();
    expect(parseTestClickId(env, data.clickId)).toMatchObject({ campaignId, landingId: data.landing!.id });
    const chosenLanding = data.candidates.landings.find((c) => c.chosen)!;
    expect(chosenLanding.id).toBe(data.landing!.id);
    expect(data.landingUrl).toBe(`${chosenLanding.url}?clickid=${data.clickId}&sub1=blue`);
    expect(data.clickThroughUrl).toBe(
      `https://tracker.example.com/click/${campaignId}?clickid=${data.clickId}`,
    );
    // ClickBank reads the click id from tid; only offer-enabled tokens reach the offer.
    expect(data.offerClickIdParam).toBe('tid');
    const offerBase = data.candidates.offers.find((c) => c.chosen)!.url;
    expect(data.offerUrl).toBe(`${offerBase}?tid=${data.clickId}&sub1=blue`);
    expect(data.warnings).toEqual([]);

    const many = await linkTest({ campaignId, device: 'mobile', runs: 1000, checkPages: 1 });
    expect(many.status).toBe(200);
    expect(many.body.data.split!.runs).toBe(1000);

    expect(await dump()).toEqual(before);
    // The queue is drained for a real click made after the dry runs; still nothing of the campaign.
    const real = await hit(`/go/${sentinel}`);
    expect(real.status).toBe(302);
    await waitForCount('SELECT count(*) AS n FROM visits WHERE campaign_id = ?1', [sentinel], 1);
    for (const table of ['visits', 'lp_clicks', 'conversions', 'daily_stats', 'test_clicks']) {
      const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE campaign_id = ?1`)
        .bind(campaignId)
        .first<{ n: number }>();
      expect([table, row!.n]).toEqual([table, 0]);
    }
  });

  it('observes the configured split over 1,000 dry runs within ±4 points and the chi-square bound', async () => {
    const { campaignId } = await splitCampaign();
    const res = await linkTest({ campaignId, device: 'desktop', runs: 1000, seed: 2026 });
    const split = res.body.data.split!;
    const rows = split.rows.map((r) => [r.level, r.name, r.configuredPct]);
    expect(rows).toEqual([
      ['landing', 'LP fifty', 50],
      ['landing', 'LP thirty', 30],
      ['landing', 'LP twenty', 20],
      ['offer', 'Offer seventy', 70],
      ['offer', 'Offer thirty', 30],
    ]);
    for (const row of split.rows) {
      expect(row.poolRuns).toBe(1000);
      expect(Math.abs(row.observedPct - row.configuredPct)).toBeLessThanOrEqual(4);
      expect(row.withinTolerance).toBe(true);
      expect(row.observedPct).toBe(Math.round((row.count / 10) * 100) / 100);
    }
    expect(split.rows.filter((r) => r.level === 'landing').reduce((n, r) => n + r.count, 0)).toBe(1000);
    expect(
      split.pools.map((p) => [p.level, p.runs, p.tolerancePct, p.degreesOfFreedom, p.critical, p.consistent]),
    ).toEqual([
      ['landing', 1000, 4, 2, 13.82, true],
      ['offer', 1000, 4, 1, 10.83, true],
    ]);
  });

  it('splits a path campaign per path, and landing pages within their path', async () => {
    const campaignId = await makeCampaign(token, { name: 'Paths', campaignType: 'multiple_path_type' });
    const p1 = await makePath(token, campaignId, { name: 'Path sixty', share: 60 });
    const p2 = await makePath(token, campaignId, { name: 'Path forty', share: 40 });
    await makeLanding(token, campaignId, { name: 'P1 LP', pathId: p1 });
    await makeLanding(token, campaignId, { name: 'P2 LP a', pathId: p2, share: 25 });
    await makeLanding(token, campaignId, { name: 'P2 LP b', pathId: p2, share: 75 });
    await makeOffer(token, campaignId, { name: 'P1 offer', pathId: p1 });
    await makeOffer(token, campaignId, { name: 'P2 offer', pathId: p2 });
    const res = await linkTest({ campaignId, runs: 1000, seed: 11 });
    const split = res.body.data.split!;
    const byName = Object.fromEntries(split.rows.map((r) => [r.name, r]));
    expect(byName['Path sixty'].configuredPct).toBe(60);
    expect(byName['P2 LP b'].configuredPct).toBe(75);
    expect(byName['P2 LP b'].poolName).toBe('Path “Path forty”');
    expect(byName['P2 LP b'].poolRuns).toBe(byName['Path forty'].count);
    for (const row of split.rows) expect(row.withinTolerance).toBe(true);
  });

  it('says why each item is not eligible: deleted, paused, device, share 0', async () => {
    const campaignId = await makeCampaign(token, { name: 'Reasons', campaignType: 'landing_page' });
    await makeLanding(token, campaignId, { name: 'Serving' });
    const deleted = await makeLanding(token, campaignId, { name: 'Gone' });
    await makeLanding(token, campaignId, { name: 'Paused', active: 0 });
    await makeLanding(token, campaignId, { name: 'Mobile only', agents: [3] });
    await makeLanding(token, campaignId, { name: 'No share', share: 0 });
    await makeOffer(token, campaignId, { name: 'Tablet offer', agents: [4] });
    await makeOffer(token, campaignId, { name: 'Any offer' });
    const del = await api('/api/delete-landing', { token, body: { campaignId, landingId: deleted } });
    expect(del.status).toBe(200);

    const res = await linkTest({
      campaignId,
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0',
    });
    const data = res.body.data;
    expect(data.visitor).toMatchObject({ device: 'desktop', deviceFrom: 'user_agent' });
    expect(
      data.candidates.landings.map((c) => [c.name, c.eligible, c.reason, c.reasonText, c.sharePct]),
    ).toEqual([
      ['Serving', true, null, '', 100],
      ['Gone', false, 'deleted', 'Deleted.', null],
      ['Paused', false, 'paused', 'Paused.', null],
      ['Mobile only', false, 'device', 'Not shown to desktop visitors (devices: mobile).', null],
      ['No share', false, 'zero_share', 'Share is 0.', null],
    ]);
    expect(data.landing!.name).toBe('Serving');
    expect(data.candidates.offers.map((c) => [c.name, c.reason, c.chosen])).toEqual([
      ['Tablet offer', 'device', false],
      ['Any offer', null, true],
    ]);

    // On an iPhone the mobile-only page joins in, half and half.
    const mobile = await linkTest({ campaignId, userAgent: IPHONE_UA });
    expect(mobile.body.data.visitor.device).toBe('mobile');
    expect(
      mobile.body.data.candidates.landings.filter((c) => c.eligible).map((c) => [c.name, c.sharePct]),
    ).toEqual([
      ['Serving', 50],
      ['Mobile only', 50],
    ]);
  });

  it('answers a deleted campaign as not available, and an unservable visitor and a bot with warnings', async () => {
    const gone = await makeCampaign(token, { name: 'Gone campaign' });
    const del = await api('/api/delete-campaign', {
      token,
      method: 'DELETE',
      body: { campaignId: `${gone}` },
    });
    expect(del.status).toBe(200);
    const deleted = (await linkTest({ campaignId: gone })).body.data;
    expect(deleted.result).toBe('not_available');
    expect(deleted.fallback).toEqual({ reason: 'deleted', status: 404, url: '' });
    expect(deleted.warnings.map((w) => w.code)).toEqual(['campaign_deleted']);

    const campaignId = await makeCampaign(token, { name: 'Tablets only', campaignType: 'landing_page' });
    await makeLanding(token, campaignId, { name: 'Tablet LP', agents: [4] });
    await makeOffer(token, campaignId, { name: 'Offer', url: 'https://offer.example/x?sub={clickid}' });
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    const bot = (await linkTest({ campaignId, userAgent: googlebot })).body.data;
    expect(bot.visitor).toMatchObject({ device: 'desktop', bot: true });
    expect(bot.result).toBe('fallback');
    expect(bot.fallback).toEqual({ reason: 'unrouted', status: 404, url: '' });
    expect(bot.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'no_eligible',
        'Nothing can serve a desktop visitor: no active landing page with a share above 0 for this device.',
      ],
      ['bot', 'This user agent is a bot: its visit would be stored as filtered and not counted.'],
    ]);
    const tablet = (await linkTest({ campaignId, device: 'tablet' })).body.data;
    expect(tablet.result).toBe('routed');
    expect(tablet.offerUrl).toBe(`https://offer.example/x?sub=${tablet.clickId}`);
    expect(tablet.warnings).toEqual([]);
  });

  it('warns of a paused campaign and answers its fallback', async () => {
    const campaignId = await makeCampaign(token, {
      name: 'Paused',
      active: 0,
      custom_url: 'https://fallback.example/x',
      affiliate_network: 'maxweb',
    });
    await makeOffer(token, campaignId);
    const data = (await linkTest({ campaignId })).body.data;
    expect(data.result).toBe('fallback');
    expect(data.fallback).toEqual({ reason: 'inactive', status: 302, url: 'https://fallback.example/x' });
    expect(data.offer).toBeNull();
    expect(data.warnings.map((w) => w.code)).toEqual(['campaign_paused']);
    expect(data.warnings[0].message).toBe(
      'This campaign is paused: visitors go to its custom URL, else to a “Link not available” page, and are stored as filtered visits, never counted.',
    );
  });

  it('warns of an offer URL without the click-id macro, and of landing pages without the click-through link', async () => {
    const campaignId = await makeCampaign(token, { name: 'Warnings', campaignType: 'landing_page' });
    await makeLanding(token, campaignId, { name: 'Good LP', url: 'https://good.example.com/lp' });
    await makeLanding(token, campaignId, { name: 'Bare LP', url: 'https://bare.example.com/lp' });
    await makeLanding(token, campaignId, { name: 'Moved LP', url: 'https://moved.example.com/lp' });
    await makeOffer(token, campaignId, { name: 'No macro', url: 'https://offer.example/buy' });
    await makeOffer(token, campaignId, {
      name: 'With macro',
      url: 'https://offer.example/buy?aff_sub={clickid}',
    });
    await makeOffer(token, campaignId, { name: 'Own parameter', postback: 's2' });
    const data = (await linkTest({ campaignId, checkPages: 1 })).body.data;
    expect(data.warnings.map((w) => [w.code, w.message]).sort()).toEqual(
      [
        [
          'offer_no_click_id',
          'Offer “No macro” has no {clickid} macro in its URL and no network click-id parameter is set: the click id is added as clickid=…, which your affiliate network may not read, so its conversions could not be matched.',
        ],
        [
          'lp_no_click_link',
          `Landing page “Bare LP” has no link to the click-through URL (/click/${campaignId}): its visitors cannot reach an offer and no landing-page click is counted.`,
        ],
        [
          'lp_unchecked',
          'Landing page “Moved LP” could not be checked for the click-through link: its address cannot be fetched (IP addresses are not allowed).',
        ],
      ].sort(),
    );
    // The redirect to a metadata address was never followed.
    expect(calls.map((c) => new URL(c.url).hostname).sort()).toEqual([
      'bare.example.com',
      'good.example.com',
      'moved.example.com',
    ]);
  });

  it('refuses bad input with the 422 envelope, other users’ campaigns with 404, and no token with 401', async () => {
    const none = await linkTest({});
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ message: 'Paste a campaign link or pick a campaign.' });
    const bad = await linkTest({ link: 'https://tracker.example.com/somewhere/else' });
    expect(bad.status).toBe(422);
    expect((bad.body as any).errors.link[0]).toMatch(/^This is not a campaign link of this tracker/);
    const fields = await linkTest({ campaignId: 1, device: 'tv', country: 'USA', runs: 0 });
    expect((fields.body as any).errors).toEqual({
      device: ['Choose desktop, mobile or tablet.'],
      country: ['Country must be a two-letter code such as US.'],
      runs: ['Runs must be a whole number from 1 to 10,000.'],
    });

    const campaignId = await makeCampaign(token, { name: 'Admin only' });
    const student = await userWithRole(token, 'student');
    const refused = await linkTest({ campaignId }, student.token);
    expect(refused.status).toBe(404);
    expect((refused.body as any).message).toBe('Campaign not found.');
    const own = await makeCampaign(student.token, { name: 'Student campaign' });
    expect((await linkTest({ campaignId: own }, student.token)).status).toBe(200);
    const coach = await userWithRole(token, 'coach');
    expect((await linkTest({ campaignId: own }, coach.token)).status).toBe(200);
    expect((await api('/api/tools/link-test', { body: { campaignId } })).status).toBe(401);
  });
});

describe('link builder', () => {
  it('fills the traffic source macros, the campaign tokens and extra parameters', async () => {
    const campaignId = await makeCampaign(token, {
      name: 'Builder',
      urlAppendToken: 'ad_id',
      extratokens: [
        { token_name: 'Ad set', parameter: 'adset_id' },
        { token_name: 'Fixed', parameter: 'sub9', url_append: 'fixed' },
      ],
    });
    const res = await api<{ data: LinkBuilderAnswer }>('/api/tools/link-builder', {
      token,
      body: { campaignId, trafficSource: 'facebook', params: [{ name: 'utm_source', value: 'fb ads' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.url).toBe(
      `https://tracker.example.com/go/${campaignId}?ad_id={{ad.id}}&adset_id={{adset.id}}&sub9=fixed&utm_source=fb%20ads`,
    );
    expect(res.body.data.parameters.map((p) => p.from)).toEqual(['target', 'token', 'token', 'extra']);
    expect(res.body.data.missingTokens.map((t) => t.parameter)).toEqual([
      'ad_name',
      'adset_name',
      'campaign_id',
      'campaign_name',
      'placement',
      'site_source',
    ]);

    const mediago = await api('/api/tools/link-builder', {
      token,
      body: { campaignId, trafficSource: 'mediago' },
    });
    expect(mediago.body.data.url).toBe(
      `https://tracker.example.com/go/${campaignId}?ad_id=\${AD_ID}&sub9=fixed`,
    );
    const tiktok = await api('/api/tools/link-builder', {
      token,
      body: { campaignId, trafficSource: 'tiktok' },
    });
    expect(tiktok.body.data.url).toBe(
      `https://tracker.example.com/go/${campaignId}?ad_id=__CID__&sub9=fixed`,
    );

    // Source None, and a campaign named as in issue 27 with the spec's token from the name: the
    // target carries the placeholder, never an empty value; the editor's Campaign URL agrees.
    const probe = await makeCampaign(token, { name: 'Probe LP', urlAppendToken: 'keyword_PROBE_LP' });
    const none = await api<{ data: LinkBuilderAnswer }>('/api/tools/link-builder', {
      token,
      body: { campaignId: probe, trafficSource: '' },
    });
    expect(none.body.data.url).toBe(
      `https://tracker.example.com/go/${probe}?keyword_PROBE_LP=REPLACE_WITH_AD_ID`,
    );
    expect(none.body.data.parameters).toEqual([
      { name: 'keyword_PROBE_LP', value: 'REPLACE_WITH_AD_ID', from: 'target' },
    ]);
    const probeDetail = await api(`/api/campaign?campaignId=${probe}`, { token });
    expect(probeDetail.body.data.linkpixel.campaignURL).toBe(none.body.data.url);

    const bad = await api('/api/tools/link-builder', {
      token,
      body: { campaignId, trafficSource: 'myspace', params: [{ name: 'a b', value: '' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      'params.0.name': [
        'Parameter names may contain only letters, digits, underscore, dash, dot and brackets.',
      ],
    });
    const unknown = await api('/api/tools/link-builder', {
      token,
      body: { campaignId, trafficSource: 'myspace' },
    });
    expect(unknown.body.errors).toEqual({ trafficSource: ['Select one of the listed traffic sources.'] });

    const student = await userWithRole(token, 'student');
    const refused = await api('/api/tools/link-builder', { token: student.token, body: { campaignId } });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('Campaign not found.');
    const listing = await api(`/api/tools/test-conversions?campaignId=${campaignId}`, {
      token: student.token,
    });
    expect(listing.status).toBe(404);

    const sources = await api('/api/tools/traffic-sources', { token });
    const keys = sources.body.data.result.map((s: { key: string }) => s.key);
    for (const key of [
      'facebook',
      'tiktok',
      'taboola',
      'mediago',
      'liveintent',
      'blaze',
      'trrcpc',
      'crane',
      'trrde',
    ])
      expect(keys).toContain(key);
  });
});
