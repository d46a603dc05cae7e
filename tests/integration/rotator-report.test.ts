import { createExecutionContext, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays, dayInZone } from '../../schema/dates';
import { createApp } from '../../worker/app';
import { forgetReportMemory } from '../../worker/services/money/report-cache';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';

// The public rotator offer report (spec 4; docs/statistics.md "Rotator offer report";
// docs/decisions/053): the numbers, the one 404, and the edge cache.

let admin: string;
let campaignId: number;
let offerA: number;
let offerB: number;
let plainOffer: number;
let today: string;
let thisMonth: string;
let prevMonth: string;
let dA: string;
let dB: string;
let dC: string;

async function placement(day: string, offer: number, visits: number, conversions: number, revenue: number) {
  await env.DB.prepare(
    `INSERT INTO placement_daily (campaign_id, day, path_id, landing_id, offer_id, visits, conversions, revenue_micros)
     VALUES (?1, ?2, 0, 0, ?3, ?4, ?5, ?6)`,
  )
    .bind(campaignId, day, offer, visits, conversions, revenue * 1e6)
    .run();
}

async function targetDay(day: string, target: string, visits: number) {
  await env.DB.prepare('INSERT INTO target_daily (campaign_id, day, target, visits) VALUES (?1, ?2, ?3, ?4)')
    .bind(campaignId, day, target, visits)
    .run();
}

async function cost(day: string, target: string, spend: string) {
  const res = await api('/api/costs', {
    token: admin,
    body: { campaignId, date: day, target, impressions: 0, ad_clicks: 0, spend },
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  admin = await setupInstallation(); // time zone America/New_York
  today = dayInZone(Date.now(), 'America/New_York');
  thisMonth = today.slice(0, 7);
  prevMonth = addDays(`${thisMonth}-01`, -1).slice(0, 7);
  dA = `${prevMonth}-05`;
  dB = `${prevMonth}-20`;
  dC = `${thisMonth}-01`;
  campaignId = await makeCampaign(admin, { name: 'Report rotator', campaignType: 'rotator', cpc: '0.6' });
  offerA = await makeOffer(admin, campaignId, {
    name: 'Alice',
    rotator_participant_email: 'Alice@Example.com',
  });
  offerB = await makeOffer(admin, campaignId, { name: 'Bob', rotator_participant_email: 'bob@example.com' });
  const plain = await makeCampaign(admin, { name: 'Not a rotator' });
  plainOffer = await makeOffer(admin, plain, { rotator_participant_email: 'alice@example.com' });

  // Day A: the rotator spent $100 (a cost row); Alice got 30 of its 100 visits.
  await placement(dA, offerA, 30, 2, 50);
  await placement(dA, offerB, 70, 1, 20);
  await targetDay(dA, '', 100);
  await cost(dA, '', '100');
  // Day B: no cost row, so spend is the campaign's CPC ($0.60) per visit; all 10 visits were Alice's.
  await placement(dB, offerA, 10, 0, 0);
  await targetDay(dB, '', 10);
  // Day C: $40 of cost; Alice got half the visits.
  await placement(dC, offerA, 50, 5, 125.5);
  await placement(dC, offerB, 50, 0, 0);
  await targetDay(dC, 't1', 100);
  await cost(dC, 't1', '40');
});

const report = (offer: number, query: string, headers: Record<string, string> = {}) =>
  SELF.fetch(`http://tracker.test/api/rotators/reports/${offer}${query}`, { headers });

async function json(res: Response) {
  return JSON.parse(await res.text());
}

describe('rotator report', () => {
  it("answers the offer's periods to its participant (any case of the email), without a token", async () => {
    const nextMonth = addDays(`${thisMonth}-28`, 7).slice(0, 7);
    const res = await report(offerA, '?email=alice%40example.com');
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({
      dates: [
        { start_date: dA, end_date: addDays(`${thisMonth}-01`, -1) },
        { start_date: `${thisMonth}-01`, end_date: addDays(`${nextMonth}-01`, -1) },
      ],
      start_date: dA,
      offer_name: 'Alice',
    });
  });

  it('answers monthly totals with the offer share of the spend', async () => {
    const res = await report(offerA, `/data?group_by=month&start_date=${dA}&email=alice@example.com`);
    expect(res.status).toBe(200);
    expect((await json(res)).data.report).toEqual([
      // $30 (30 % of $100) + $6 (10 visits at $0.60)
      { date: prevMonth, ad_spend: 36, clicks: 40, sales: 2, revenue: 50, net_profit: 14, cpc: 0.9 },
      // 50 % of $40
      { date: thisMonth, ad_spend: 20, clicks: 50, sales: 5, revenue: 125.5, net_profit: 105.5, cpc: 0.4 },
    ]);
  });

  it('answers every day of a period, days without traffic as zeros', async () => {
    const end = addDays(`${thisMonth}-01`, -1);
    const res = await report(
      offerA,
      `/data?group_by=day&start_date=${prevMonth}-01&end_date=${end}&email=alice@example.com`,
    );
    const rows = (await json(res)).data.report;
    expect(rows[0].date).toBe(`${prevMonth}-01`);
    expect(rows.at(-1).date).toBe(end);
    expect(rows.find((r: any) => r.date === dA)).toEqual({
      date: dA,
      ad_spend: 30,
      clicks: 30,
      sales: 2,
      revenue: 50,
      net_profit: 20,
      cpc: 1,
    });
    expect(rows.find((r: any) => r.date === dB)).toMatchObject({
      ad_spend: 6,
      clicks: 10,
      net_profit: -6,
      cpc: 0.6,
    });
    expect(rows.filter((r: any) => r.clicks > 0).length).toBe(2);
    const bob = await report(
      offerB,
      `/data?group_by=day&start_date=${dA}&end_date=${dA}&email=bob@example.com`,
    );
    expect((await json(bob)).data.report).toEqual([
      { date: dA, ad_spend: 70, clicks: 70, sales: 1, revenue: 20, net_profit: -50, cpc: 1 },
    ]);
  });

  it('answers the same empty 404 for a wrong email, no email, an unknown or non-rotator offer, or a bad query', async () => {
    const answers = await Promise.all([
      report(offerA, '?email=bob@example.com'),
      report(offerA, ''),
      report(999999, '?email=alice@example.com'),
      report(plainOffer, '?email=alice@example.com'),
      report(offerA, `/data?group_by=month&start_date=${dA}&email=mallory@example.com`),
      report(offerA, '/data?group_by=week&email=alice@example.com'),
      report(Number.NaN, '?email=alice@example.com'),
    ]);
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 404));
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]).message).toBe('Not found.');
  });
});

describe('rotator report at the edge', () => {
  it('serves a cached answer with Cache-Control and ETag without touching D1', async () => {
    const path = `/data?group_by=month&start_date=${dA}&email=alice@example.com&cache=1`;
    const first = await report(offerA, path);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, max-age=60');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const body = await first.text();
    await vi.waitUntil(async () => (await report(offerA, path)).headers.get('x-report-cache') === 'hit', {
      timeout: 5000,
    });

    // The same request against a database that fails on any use: the answer comes from the cache.
    let touched = 0;
    const brokenDb = new Proxy(env.DB, {
      get() {
        touched += 1;
        throw new Error('D1 must not be read on a cache hit');
      },
    });
    const { app } = createApp();
    // First from the Cache API (the isolate's memory emptied), then from the isolate's memory.
    forgetReportMemory();
    for (let i = 0; i < 2; i++) {
      const ctx = createExecutionContext();
      const hit = await app.fetch(
        new Request(`http://tracker.test/api/rotators/reports/${offerA}${path}`),
        { ...env, DB: brokenDb },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(hit.status).toBe(200);
      expect(hit.headers.get('x-report-cache')).toBe('hit');
      expect(await hit.text()).toBe(body);
      expect(hit.headers.get('etag')).toBe(etag);
    }
    expect(touched).toBe(0);

    const notModified = await report(offerA, path, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    // Another email is another key: it is checked against D1 and refused.
    expect((await report(offerA, path.replace('alice', 'mallory'))).status).toBe(404);
  });
});
