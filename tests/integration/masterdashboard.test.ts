import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrackEvent } from '../../schema/tracking';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { writeCost } from '../factories/reports';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';

// The per-installation master-dashboard API (spec 4 §7): the credential guard, the reports with
// hand-computed numbers from real ingested events and costs, and every modify call as a
// correction row that the reports include and a revert takes back out.

const HEADER = { 'X-Master-Dashboard': 'edge-tracker-operator' };
let token: string;
let credential: string;
let c1: number;
let c2: number;

const D1 = Date.UTC(2026, 10, 10, 15, 0); // 2026-11-10 in New York
const D2 = Date.UTC(2026, 10, 11, 15, 0); // 2026-11-11

const visit = (id: string, c: number, target: string, landing: number, at: number): TrackEvent =>
  visitEvent({ id, c, l: landing, at, tgt: target });
const lpClick = (id: string, c: number, landing: number, offer: number, at: number): TrackEvent =>
  lpClickEvent({ id, c, l: landing, o: offer, at });
const conversion = (id: string, c: number, landing: number, offer: number, at: number): TrackEvent =>
  conversionEvent({ id, c, l: landing, o: offer, at });

function md(
  path: string,
  init: { body?: unknown; auth?: string | null; headers?: Record<string, string> } = {},
) {
  return api(`/api/masterdashboard/${path}`, {
    body: init.body,
    headers: {
      ...HEADER,
      ...(init.auth === null ? {} : { authorization: `Bearer ${init.auth ?? credential}` }),
      ...init.headers,
    },
  });
}

function form(fields: Record<string, string | number>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, String(v));
  return f;
}

const RANGE = 'start_date=2026-11-10&end_date=2026-11-11';

beforeAll(async () => {
  token = await setupInstallation();
  c1 = await makeCampaign(token, { name: 'Alpha', campaignType: 'landing_page', cpc: '0.50' });
  c2 = await makeCampaign(token, { name: 'Beta', campaignType: 'landing_page', cpc: '1.00' });
  const l1 = await makeLanding(token, c1, { name: 'L1' });
  const o1 = await makeOffer(token, c1, { name: 'O1', payout: '10' });
  const l2 = await makeLanding(token, c2, { name: 'L2' });
  const o2 = await makeOffer(token, c2, { name: 'O2', payout: '30' });
  const events: TrackEvent[] = [];
  // Alpha, 11-10: target A 10 visits, 5 LP clicks, 2 sales at $10; target B 4 visits (CPC $0.50).
  for (let i = 0; i < 10; i++) events.push(visit(`a${i}`, c1, 'A', l1, D1));
  for (let i = 0; i < 5; i++) events.push(lpClick(`a${i}`, c1, l1, o1, D1 + 1000));
  events.push(conversion('a0', c1, l1, o1, D1 + 2000), conversion('a1', c1, l1, o1, D1 + 2000));
  for (let i = 0; i < 4; i++) events.push(visit(`b${i}`, c1, 'B', l1, D1));
  // Alpha, 11-11: 4 visits of A without a cost row.
  for (let i = 0; i < 4; i++) events.push(visit(`c${i}`, c1, 'A', l1, D2));
  // Beta, 11-10: 3 visits (CPC $1), 1 sale at $30.
  for (let i = 0; i < 3; i++) events.push(visit(`x${i}`, c2, 'X', l2, D1));
  events.push(lpClick('x0', c2, l2, o2, D1 + 1000), conversion('x0', c2, l2, o2, D1 + 2000));
  await ingestEvents(env, events);
  // A's platform cost on 11-10: $15, 1000 impressions, 20 ad clicks.
  await writeCost(c1, 'sync', {
    date: '2026-11-10',
    target: 'A',
    impressions: 1000,
    ad_clicks: 20,
    spend: 15_000_000,
  });

  const made = await api('/api/masterdashboard-credentials', { token, body: { label: 'operator' } });
  expect(made.status).toBe(201);
  credential = made.body.data.credential;
});

describe('the credential guard', () => {
  it('answers 401 without a credential, with a wrong one, a user token or another installation’s', async () => {
    const other = await api('/api/masterdashboard-credentials', { token, body: { label: 'soon revoked' } });
    const revoked = other.body.data.credential as string;
    expect(
      (await api(`/api/masterdashboard-credentials/${other.body.data.id}`, { token, method: 'DELETE' }))
        .status,
    ).toBe(200);
    const callers: [string, Parameters<typeof md>[1]][] = [
      ['none', { auth: null }],
      ['wrong', { auth: `${credential.slice(0, -4)}AAAA` }],
      ['user token', { auth: token }],
      ['another installation', { auth: 'mdk_9rS3dA0f2YzJp4hQ1m8ZkV7bWc6nTx5eLu0oIyPq3Gs' }],
      ['revoked', { auth: revoked }],
      ['no custom header', { headers: { 'X-Master-Dashboard': 'something-else' } }],
    ];
    for (const [who, init] of callers) {
      const res = await md(`reports?${RANGE}`, init);
      expect([who, res.status]).toEqual([who, 401]);
      expect(res.body.message).toBe('Unauthenticated.');
    }
    const write = await md('modify-adspend', {
      auth: token,
      body: form({ campaign_id: c1, ad_spend: '1', start_date: '2026-11-10', end_date: '2026-11-10' }),
    });
    expect(write.status).toBe(401);
    expect(await md(`reports?${RANGE}`).then((r) => r.status)).toBe(200);
  });

  it('lets only an admin manage credentials, never showing a stored one again', async () => {
    const student = await userWithRole(token, 'student');
    expect((await api('/api/masterdashboard-credentials', { token: student.token, body: {} })).status).toBe(
      403,
    );
    expect((await api('/api/masterdashboard-credentials', { body: {} })).status).toBe(401);
    const list = await api('/api/masterdashboard-credentials', { token });
    expect(list.body.data.credentials[0]).toEqual({
      id: 1,
      label: 'operator',
      created_at: expect.any(Number),
      revoked_at: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(credential);
  });
});

describe('reports', () => {
  it('answers campaigns, days with every graph series and the total, from rollups and costs', async () => {
    const res = await md(`reports?${RANGE}`);
    expect(res.status).toBe(200);
    const r = res.body.data;
    // Alpha: spend 15 (A, sync) + 4 x 0.50 (B) on 11-10, 4 x 0.50 on 11-11 = 19; revenue 20.
    expect(r.campaigns).toEqual([
      {
        campaign_id: c1,
        name: 'Alpha',
        ad_spend: 19,
        revenue: 20,
        conversions: 2,
        cpa: 9.5,
        ad_clicks: 20,
        net_profit: 1,
        landing_page_ctr: 27.78,
        ad_ctr: 2,
        roi: 5.26,
        visits: 18,
        lp_clicks: 5,
        impressions: 1000,
      },
      {
        campaign_id: c2,
        name: 'Beta',
        ad_spend: 3,
        revenue: 30,
        conversions: 1,
        cpa: 3,
        ad_clicks: 0,
        net_profit: 27,
        landing_page_ctr: 33.33,
        ad_ctr: 0,
        roi: 900,
        visits: 3,
        lp_clicks: 1,
        impressions: 0,
      },
    ]);
    // 11-10: spend 17 + 3 = 20, revenue 50, 17 visits, 6 LP clicks, 3 sales.
    expect(r.days[0]).toEqual({
      date: '2026-11-10',
      ad_spend_micros: 20_000_000,
      revenue_micros: 50_000_000,
      ad_spend: 20,
      revenue: 50,
      conversions: 3,
      cpa: 6.67,
      ad_clicks: 20,
      net_profit: 30,
      landing_page_ctr: 35.29,
      ad_ctr: 2,
      roi: 150,
      visits: 17,
      lp_clicks: 6,
      impressions: 1000,
      ad_spent: 20,
      cpc: 1.18,
      cplpc: 3.33,
      epc: 2.94,
    });
    expect(r.days[1]).toMatchObject({
      date: '2026-11-11',
      ad_spent: 2,
      revenue: 0,
      net_profit: -2,
      roi: -100,
      cpc: 0.5,
      cpa: 0,
    });
    expect(r.total).toMatchObject({
      ad_spend: 22,
      revenue: 50,
      net_profit: 28,
      roi: 127.27,
      conversions: 3,
      visits: 21,
    });
  });

  it('answers one campaign’s days and total, every day of the range present', async () => {
    const data = await md(`campaign-data?campaign_id=${c2}&start_date=2026-11-09&end_date=2026-11-11`);
    expect(data.body.data.name).toBe('Beta');
    expect(data.body.data.days.map((d: { date: string; ad_spent: number }) => [d.date, d.ad_spent])).toEqual([
      ['2026-11-09', 0],
      ['2026-11-10', 3],
      ['2026-11-11', 0],
    ]);
    expect(data.body.data.days[1]).toMatchObject({
      revenue: 30,
      net_profit: 27,
      roi: 900,
      cpc: 1,
      cpa: 3,
      cplpc: 3,
      epc: 10,
    });
    const total = await md(`campaign-total?campaign_id=${c1}&${RANGE}`);
    expect(total.body.data.total).toMatchObject({ ad_spend: 19, revenue: 20, roi: 5.26, net_profit: 1 });
    const campaigns = await md('campaigns');
    expect(campaigns.body.data.campaigns).toEqual([
      { campaign_id: c1, name: 'Alpha' },
      { campaign_id: c2, name: 'Beta' },
    ]);
  });

  it('rejects bad dates with 422 and an unknown campaign with 404', async () => {
    const reversed = await md('reports?start_date=2026-11-11&end_date=2026-11-10');
    expect(reversed.status).toBe(422);
    expect(reversed.body.message).toBe('End date should be greater than start date.');
    const bad = await md('reports?start_date=10-11-2026&end_date=2026-11-10');
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Dates must be real days written yyyy-MM-dd.');
    expect((await md(`campaign-total?campaign_id=999&${RANGE}`)).status).toBe(404);
  });
});

describe('modify calls as corrections', () => {
  const day1 = { campaign_id: 0, start_date: '2026-11-10', end_date: '2026-11-10' };
  async function alphaDay(date: string) {
    const res = await md(`campaign-data?campaign_id=${c1}&start_date=${date}&end_date=${date}`);
    return res.body.data.days[0];
  }
  async function modify(verb: string, fields: Record<string, string | number>) {
    const res = await md(verb, { body: form({ ...day1, campaign_id: c1, ...fields }) });
    expect([verb, res.status]).toEqual([verb, 200]);
    expect(res.body.data.status_code).toBe(200);
    return res.body.data.corrections as {
      id: number;
      field: string;
      value: number;
      source: string;
      created_by: string;
    }[];
  }

  it('writes each modify call as operator rows the reports include, tracked numbers untouched', async () => {
    const trackedBefore = await env.DB.prepare(
      'SELECT sum(spend_micros) s, sum(visits) v, sum(conversions) c, sum(revenue_micros) r FROM target_daily WHERE campaign_id = ?1',
    )
      .bind(c1)
      .first();
    const spend = await modify('modify-adspend', {
      ad_spend: '5',
      start_date: '2026-11-11',
      end_date: '2026-11-11',
    });
    expect(spend).toEqual([
      expect.objectContaining({
        field: 'spend',
        value: 5_000_000,
        source: 'operator',
        created_by: 'operator:operator',
      }),
    ]);
    expect(await alphaDay('2026-11-11')).toMatchObject({ ad_spent: 5, net_profit: -5, cpc: 1.25 });

    await modify('modify-conversion', {
      conversion: 3,
      payout: '7.5',
      start_date: '2026-11-11',
      end_date: '2026-11-11',
    });
    expect(await alphaDay('2026-11-11')).toMatchObject({
      conversions: 3,
      revenue: 22.5,
      net_profit: 17.5,
      roi: 350,
    });

    // 11-10 of Alpha as tracked: 14 visits, 5 LP clicks, 2 sales, $20, spend $17, 1000 impressions, 20 ad clicks.
    expect(await modify('modify-cpa', { cpa: '4' })).toEqual([expect.objectContaining({ value: 8_000_000 })]);
    expect((await alphaDay('2026-11-10')).ad_spent).toBe(8);
    expect(await modify('modify-cpc', { cpc: '1' })).toEqual([
      expect.objectContaining({ value: 14_000_000 }),
    ]);
    expect((await alphaDay('2026-11-10')).ad_spent).toBe(14);
    await modify('modify-lpcpc', { lpcpc: '2' });
    expect((await alphaDay('2026-11-10')).ad_spent).toBe(10);
    await modify('modify-adctr', { ad_ctr: '4' });
    expect(await alphaDay('2026-11-10')).toMatchObject({ impressions: 500, ad_ctr: 4 });
    await modify('modify-adclicks', { ad_clicks: 30 });
    expect(await alphaDay('2026-11-10')).toMatchObject({ ad_clicks: 30, ad_ctr: 6 });
    await modify('modify-revenue', { revenue: '25' });
    expect(await alphaDay('2026-11-10')).toMatchObject({ revenue: 25, net_profit: 15, roi: 150 });

    const row = await md('modify-row', {
      body: form({
        campaign_id: c1,
        sid_token: 'A',
        ad_clicks: 40,
        ad_spend: '12',
        conversions: 5,
        payout: '6',
        date: '2026-11-10',
      }),
    });
    expect(row.status).toBe(200);
    expect(
      row.body.data.corrections.map((c: { field: string; value: number }) => [c.field, c.value]),
    ).toEqual([
      ['ad_clicks', 40],
      ['spend', 12_000_000],
      ['conversions', 5],
      ['revenue', 30_000_000],
    ]);
    expect(await alphaDay('2026-11-10')).toMatchObject({
      ad_spent: 12,
      ad_clicks: 40,
      conversions: 5,
      revenue: 30,
      cpa: 2.4,
    });
    // The installation's total now: Alpha 12 + 5 spend, 30 + 22.5 revenue; Beta 3 and 30.
    const total = await md(`reports?${RANGE}`);
    expect(total.body.data.total).toMatchObject({
      ad_spend: 20,
      revenue: 82.5,
      net_profit: 62.5,
      conversions: 9,
    });

    const trackedAfter = await env.DB.prepare(
      'SELECT sum(spend_micros) s, sum(visits) v, sum(conversions) c, sum(revenue_micros) r FROM target_daily WHERE campaign_id = ?1',
    )
      .bind(c1)
      .first();
    expect(trackedAfter).toEqual(trackedBefore);

    // Reverting modify-row's four rows brings back the corrections before it.
    for (const c of row.body.data.corrections) {
      const undo = await md('revert-correction', { body: { id: c.id } });
      expect(undo.status).toBe(200);
      expect(undo.body.data.corrections[0].reverted_by).toBe('operator:operator');
    }
    expect(await alphaDay('2026-11-10')).toMatchObject({
      ad_spent: 10,
      ad_clicks: 30,
      conversions: 2,
      revenue: 25,
    });
    expect((await md('revert-correction', { body: { id: row.body.data.corrections[0].id } })).status).toBe(
      404,
    );

    const listed = await md(`corrections?campaign_id=${c1}&${RANGE}`);
    expect(listed.body.data.corrections).toHaveLength(13);
    expect(
      listed.body.data.corrections.filter((c: { reverted_at: number | null }) => c.reverted_at !== null),
    ).toHaveLength(4);
  });

  it('rejects bad values with 422 and writes nothing', async () => {
    const before = await env.DB.prepare('SELECT count(*) n FROM operator_corrections').first<{ n: number }>();
    const bad = await md('modify-adspend', { body: form({ ...day1, campaign_id: c1, ad_spend: 'ten' }) });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Amounts must be numbers of at least 0 with up to 6 decimals.');
    const ctr = await md('modify-adctr', { body: form({ ...day1, campaign_id: c1, ad_ctr: '0' }) });
    expect(ctr.body.message).toBe('Percentages must be numbers above 0 and at most 100.');
    const noCampaign = await md('modify-row', {
      body: form({ ad_clicks: 1, ad_spend: '1', conversions: 1, payout: '1', date: '2026-11-10' }),
    });
    expect(noCampaign.body.message).toBe('Select campaign first.');
    const after = await env.DB.prepare('SELECT count(*) n FROM operator_corrections').first<{ n: number }>();
    expect(after).toEqual(before);
  });
});
