import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, freshIp } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { waitForRows } from '../factories/db';
import { setupInstallation, userWithRole } from '../factories/install';
import { polledJob } from '../factories/reports';
import { clickIdOf, hit, postbackSecret } from '../factories/traffic';

// The statistics screen's reports of campaigns seeded through the real tracking routes: the
// target and landing tables grouped by several extra tokens at once, and the aggregator's
// elements read from the landing pages' content. The hand-checked numbers of one seeded campaign
// are in statistics.test.ts.

let token: string;

const poll = (path: string, key: Record<string, string>) => polledJob(token, path, key);

beforeAll(async () => {
  token = await setupInstallation();
});

describe('grouping by several extra tokens at once (spec 3 §3 request fields)', () => {
  // A campaign of its own, seeded through the real tracking routes: ad click, LP click, postback.
  let id: number;
  let landing: number;

  const rowsOf = (records: any[], keys: string[]) =>
    records
      .map((r) => keys.map((k) => r[k]))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  async function grouped(body: Record<string, unknown>) {
    const res = await api('/api/statistics', {
      token,
      body: { campaignId: id, startDate: '', endDate: '', perPage: 50, force: true, ...body },
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  beforeAll(async () => {
    id = await makeCampaign(token, {
      name: 'Two tokens',
      campaignType: 'landing_page',
      cpc: '0.50',
      extratokens: [
        { token_name: 'Sub 1', parameter: 'sub1' },
        { token_name: 'Placement', parameter: 'placement' },
      ],
    });
    landing = await makeLanding(token, id, { name: 'Only page', url: 'https://lp.example/two' });
    await makeOffer(token, id, { name: 'Offer', url: 'https://offer.example/two', payout: '10' });

    // [target, query of the tokens, LP clicks, payouts of the postbacks ('' = the offer's $10)]
    const plan: [string, string, number, string[]][] = [
      ['T1', 'sub1=a&placement=top', 1, ['', '5.50']],
      ['T1', 'sub1=a&placement=top', 1, []],
      ['T1', 'sub1=a&placement=top', 0, []],
      ['T1', 'sub1=a&placement=side', 1, []],
      ['T1', 'sub1=a&placement=side', 0, []],
      ['T1', 'sub1=b&placement=top', 1, ['20']],
      ['T2', 'sub1=b&placement=side', 0, []],
      ['T2', 'sub1=b&placement=side', 0, []],
      ['T2', '', 0, []],
    ];
    const secret = await postbackSecret(id);
    let tx = 0;
    for (const [target, tokens, lpClicks, payouts] of plan) {
      const visit = await hit(`/go/${id}?tid=${target}${tokens ? `&${tokens}` : ''}`, {
        headers: { 'cf-connecting-ip': freshIp() },
      });
      expect(visit.status).toBe(302);
      const clickId = clickIdOf(visit);
      if (lpClicks) expect((await hit(`/click/${id}?clickid=${clickId}`)).status).toBe(302);
      for (const payout of payouts) {
        tx += 1;
        const pb = await hit(
          `/postback?clickid=${clickId}&txid=TX-${tx}${payout ? `&payout=${payout}` : ''}&secret=${secret}`,
        );
        expect(pb.status).toBe(200);
      }
    }
    await waitForRows('visits', id, 9);
    await waitForRows('lp_clicks', id, 4);
    await waitForRows('conversions', id, 3);
  });

  it('groups the target table by two tokens: visits, conversions, revenue and spend per pair, and totals', async () => {
    const data = await grouped({ extraTokens: ['sub1', 'placement'] });
    const target = (await poll('/api/get-target-statistics', { uuid: data.queueId })).data.data;
    // Spend is CPC $0.50 x visits per target, shared among its groups by visits.
    expect(
      rowsOf(target.targetRecords, [
        'target',
        'sub1',
        'placement',
        'visits',
        'conversions',
        'revenue',
        'ad_spent',
      ]),
    ).toEqual([
      ['T1', 'a', 'side', 2, 0, 0, 1],
      ['T1', 'a', 'top', 3, 2, 15.5, 1.5],
      ['T1', 'b', 'top', 1, 1, 20, 0.5],
      ['T2', '', '', 1, 0, 0, 0.5],
      ['T2', 'b', 'side', 2, 0, 0, 1],
    ]);
    expect(target.totalCount).toBe(5);
    expect(target.targetTotal).toMatchObject({
      visitsTotal: 9,
      conversionsTotal: 3,
      lpclicksTotal: 4,
      revenue: 35.5,
      ad_spent: 4.5,
      net: 31,
    });
  });

  it("takes the spec's token objects (ticked) and extraTokenFields together, and leaves out rows without a value (noInputTokens)", async () => {
    const data = await grouped({
      extraTokens: [
        { token_name: 'Sub 1', parameter: 'sub1', default: false, ticked: true },
        { token_name: 'Placement', parameter: 'placement', default: false, ticked: false },
      ],
      extraTokenFields: ['placement'],
      noInputTokens: ['placement'],
    });
    const target = (await poll('/api/get-target-statistics', { uuid: data.queueId })).data.data;
    expect(rowsOf(target.targetRecords, ['target', 'sub1', 'placement', 'visits', 'revenue'])).toEqual([
      ['T1', 'a', 'side', 2, 0],
      ['T1', 'a', 'top', 3, 15.5],
      ['T1', 'b', 'top', 1, 20],
      ['T2', 'b', 'side', 2, 0],
    ]);
    expect(target.targetTotal).toMatchObject({
      visitsTotal: 8,
      conversionsTotal: 3,
      revenue: 35.5,
      ad_spent: 4,
    });

    // Only the ticked token: one column, the pairs of each target summed.
    const one = await grouped({
      extraTokens: [
        { parameter: 'sub1', ticked: true },
        { parameter: 'placement', ticked: false },
      ],
    });
    const rows = (await poll('/api/get-target-statistics', { uuid: one.queueId })).data.data.targetRecords;
    expect(rowsOf(rows, ['target', 'sub1', 'visits', 'conversions'])).toEqual([
      ['T1', 'a', 5, 2],
      ['T1', 'b', 1, 1],
      ['T2', '', 1, 0],
      ['T2', 'b', 2, 0],
    ]);
    expect(rows.every((r: any) => !('placement' in r))).toBe(true);
  });

  it('carries only the metrics of metricParams in the target rows', async () => {
    const data = await grouped({ metricParams: ['roi', { parameter: 'cpa', ticked: false }] });
    const rows = (await poll('/api/get-target-statistics', { uuid: data.queueId })).data.data.targetRecords;
    const t1 = rows.find((r: any) => r.target === 'T1');
    // Revenue $35.50 on $3.00 of spend.
    expect(t1).toMatchObject({ target: 'T1', visits: 6, conversions: 3, roi: 1083.33 });
    for (const dropped of ['cpa', 'cr', 'epc', 'lpctr', 'ad_spent', 'revenue', 'net'])
      expect(t1).not.toHaveProperty(dropped);
  });

  it('groups the landing table by extra tokens (landingExtraTokens, landingExtraTokenFields)', async () => {
    const data = await grouped({ landingExtraTokens: ['placement'], landingExtraTokenFields: ['sub1'] });
    const result = await poll('/api/get-landing-statistics', { key: data.landingQueueKey });
    expect(
      rowsOf(result.data.landingRecords, [
        'page_id',
        'placement',
        'sub1',
        'visits',
        'lpclicks',
        'conversions',
        'revenue',
        'ad_spent',
      ]),
    ).toEqual([
      [landing, '', '', 1, 0, 0, '$0.00', '$0.50'],
      [landing, 'side', 'a', 2, 1, 0, '$0.00', '$1.00'],
      [landing, 'side', 'b', 2, 0, 0, '$0.00', '$1.00'],
      [landing, 'top', 'a', 3, 2, 2, '$15.50', '$1.50'],
      [landing, 'top', 'b', 1, 1, 1, '$20.00', '$0.50'],
    ]);
    expect(result.data.landingCount).toBe(5);
    expect(result.data.landingTotal).toMatchObject({ visitsTotal: 9, conversionsTotal: 3, revenue: 35.5 });

    const kept = await grouped({ landingExtraTokens: ['placement'], noInputTokens: true });
    const only = await poll('/api/get-landing-statistics', { key: kept.landingQueueKey });
    expect(rowsOf(only.data.landingRecords, ['placement', 'visits', 'lpclicks'])).toEqual([
      ['side', 4, 1],
      ['top', 4, 3],
    ]);
    expect(only.data.landingTotal).toMatchObject({ visitsTotal: 8, ad_spent: 4 });
  });

  it('refuses an unknown token or metric with a 422 naming the field', async () => {
    const token1 = await api('/api/statistics', {
      token,
      body: { campaignId: id, startDate: '', endDate: '', extraTokens: ['sub1', 'nope'] },
    });
    expect(token1.status).toBe(422);
    expect(token1.body.errors).toEqual({
      extraTokens: ['Unknown extra token "nope". Choose one of the campaign\'s extra tokens.'],
    });
    const landingToken = await api('/api/statistics', {
      token,
      body: { campaignId: id, startDate: '', endDate: '', landingExtraTokenFields: ['zzz'] },
    });
    expect(landingToken.status).toBe(422);
    expect(Object.keys(landingToken.body.errors)).toEqual(['landingExtraTokens']);
    const metric = await api('/api/statistics', {
      token,
      body: { campaignId: id, startDate: '', endDate: '', metricParams: ['roi', 'bogus'] },
    });
    expect(metric.status).toBe(422);
    expect(metric.body.errors.metricParams).toEqual(['Unknown metric "bogus".']);
  });

  it('exports the grouped rows with both token columns', async () => {
    const res = await api('/api/export-statistics', {
      token,
      body: {
        campaignId: id,
        startDate: '',
        endDate: '',
        extraTokens: ['sub1', 'placement'],
        noInputTokens: ['sub1'],
        targetData: ['target', 'sub1', 'placement', 'visits', 'conversions', 'revenue'],
        landingData: ['landing_page', 'visits'],
        sortKey: 'visits',
        sortOrder: 'desc',
      },
    });
    expect(res.status).toBe(200);
    const file = await api(res.body.data.downloadLink);
    const lines = String(file.body).trim().split(/\r?\n/);
    // Token columns are titled by the token's name, as on screen.
    expect(lines.slice(0, 2)).toEqual(['Targets', 'Target,Sub 1,Placement,Visits,Purchase Event,Revenue']);
    expect(lines.slice(2, 6).sort()).toEqual([
      'T1,a,side,2,0,0.00',
      'T1,a,top,3,2,15.50',
      'T1,b,top,1,1,20.00',
      'T2,b,side,2,0,0.00',
    ]);
  });
});

describe('aggregator elements classified from their content (get-landing-elements-data)', () => {
  let id: number;
  const realFetch = globalThis.fetch;
  const PAGE_A = `<html><body>
    <h2 data-element="headlineA">  Big savings on <em>shoes</em> </h2>
    <a href="/buy" data-element="hero1">
      <IMG src="https://cdn.example/hero.png" alt="Shoes">
    </a>
  </body></html>`;

  beforeAll(async () => {
    id = await makeCampaign(token, { name: 'Elements', campaignType: 'landing_page' });
    await makeLanding(token, id, { name: 'headlineA_hero1', url: 'https://lp.example/elements-a' });
    await makeLanding(token, id, { name: 'headlineB_hero1', url: 'https://lp.example/elements-b' });
    // The landing pages' own server: page A answers its HTML, page B fails.
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url === 'https://lp.example/elements-a')
        return new Response(PAGE_A, { headers: { 'content-type': 'text/html' } });
      if (url === 'https://lp.example/elements-b') return new Response('down', { status: 500 });
      return realFetch(input, init);
    }) as typeof fetch;
  });
  afterAll(() => {
    globalThis.fetch = realFetch;
  });

  const elements = (query: Record<string, string>, auth = token) =>
    api(`/api/landing/get-landing-elements-data?${new URLSearchParams(query)}`, { token: auth });

  it('answers the aggregated elements with the URLs their content is read from', async () => {
    const queued = await api('/api/queue-aggregate', {
      token,
      body: { campaignId: id, startDate: '', endDate: '', force: true },
    });
    expect(queued.status).toBe(200);
    const result = (await poll('/api/get-aggregate', { uuid: queued.body.data.uuid })).data;
    expect(result.positions.map((p: any[]) => p.map((e) => [e.page, e.urls]))).toEqual([
      [
        ['headlineA', ['https://lp.example/elements-a']],
        ['headlineB', ['https://lp.example/elements-b']],
      ],
      [['hero1', ['https://lp.example/elements-a', 'https://lp.example/elements-b']]],
    ]);
  });

  it("reads a page's elements: an image is a cta, text is a header; each with its tests", async () => {
    const res = await elements({ campaignId: String(id), url: 'https://lp.example/elements-a' });
    expect(res.status).toBe(200);
    expect(res.body.data.error).toBeNull();
    expect(res.body.data.variations).toEqual([
      { name: 'headlineA', content: 'Big savings on <em>shoes</em>', tagType: 'header' },
      { name: 'hero1', content: '<IMG src="https://cdn.example/hero.png" alt="Shoes">', tagType: 'cta' },
    ]);
    // headlineA is tested against headlineB (same position); hero1 is alone at its position.
    expect(
      res.body.data.test_datas.map((t: any) => [
        t.name,
        t.data.map((d: any) => [d.against, d.is_significant]),
      ]),
    ).toEqual([
      ['headlineA', [['headlineB', false]]],
      ['hero1', []],
    ]);
  });

  it('says why a page could not be read, without failing the request', async () => {
    const res = await elements({ campaignId: String(id), url: 'https://lp.example/elements-b' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      variations: [],
      test_datas: [],
      error: 'The landing page could not be read (HTTP 500).',
    });
  });

  it("reads only the campaign's own landing pages, for users who may see the campaign", async () => {
    const other = await elements({ campaignId: String(id), url: 'https://evil.example/' });
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual({ url: ["This URL is not one of the campaign's landing pages."] });
    const missing = await elements({ campaignId: String(id) });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ url: ['Landing page URL is required.'] });
    const noCampaign = await elements({ url: 'https://lp.example/elements-a' });
    expect(noCampaign.status).toBe(422);
    expect(noCampaign.body.errors.campaignId).toEqual(['Select campaign first.']);
    const student = await userWithRole(token, 'student');
    const foreign = await elements(
      { campaignId: String(id), url: 'https://lp.example/elements-a' },
      student.token,
    );
    expect(foreign.status).toBe(404);
  });
});
