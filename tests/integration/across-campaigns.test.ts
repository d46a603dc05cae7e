import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayInZone } from '../../schema/dates';
import type { TrackEvent } from '../../schema/tracking';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { targetReport, writeCost } from '../factories/reports';
import { conversionEvent, visitEvent } from '../support/events';

// The campaigns list's metric columns and the all-campaigns dashboard against the per-campaign
// reports: three campaigns (two in a folder, one in its subfolder) with visits, conversions,
// payouts, a synced cost and CPC-derived spend, today and on a past day. Time zone: New York.

let token: string;
let a: number;
let b: number;
let c: number;
let folder: number;
let sub: number;
let studentToken: string;
let studentCampaign: number;
const PAST = '2026-11-10';
const PAST_MS = Date.UTC(2026, 10, 10, 15, 0);
const today = () => dayInZone(Date.now(), 'America/New_York');

const visit = (campaign: number, id: string, at: number, target = 'T'): TrackEvent =>
  visitEvent({ id, c: campaign, at, tgt: target });
const conversion = (campaign: number, id: string, at: number, pay: number): TrackEvent =>
  conversionEvent({ id, c: campaign, at, pay });

function traffic(campaign: number, prefix: string, at: number, visits: number, payouts: number[]) {
  const events: TrackEvent[] = [];
  for (let i = 0; i < visits; i++) events.push(visit(campaign, `${prefix}${i}`, at, i % 2 ? 'T1' : 'T2'));
  for (const [i, pay] of payouts.entries())
    events.push(conversion(campaign, `${prefix}${i}`, at + 1000, Math.round(pay * 1_000_000)));
  return events;
}

async function folderWith(name: string, dir: number, ids: number[]) {
  const res = await api('/api/add-campaign-folder', { token, body: { name, dir, moveCampaigns: ids } });
  expect(res.status).toBe(201);
  return res.body.data.folder.campaignId as number;
}

/** One campaign's report: the dashboard's per-campaign series summed over its days. */
async function report(campaignId: number, start: string, end: string, auth = token) {
  const res = await api('/api/quick-stats-v2', {
    token: auth,
    body: { campaignId, start_date: start, end_date: end },
  });
  expect(res.status).toBe(200);
  return sumSeries(res.body.data);
}

function sumSeries(q: any) {
  const cents = (x: number) => Math.round(x * 100);
  return {
    visits: q.visitors.reduce((s: number, v: any) => s + v.visitors, 0),
    revenue: q.visitors.reduce((s: number, v: any) => s + cents(v.revenue), 0),
    spend: q.liveintent.reports.reduce((s: number, v: any) => s + cents(v.advertiserSpent), 0),
    conversions: q.conversions.reduce((s: number, v: any) => s + v.conversions, 0),
  };
}

/** The target table's totals of the statistics screen for one campaign and range. */
async function targetTotals(campaignId: number, start: string, end: string) {
  const dmy = (d: string) => d.split('-').reverse().join('-');
  const body = { campaignId, startDate: dmy(start), endDate: dmy(end), force: true };
  return (await targetReport(token, body)).targetTotal;
}

const metrics = async (query = '', auth = token) => {
  const res = await api(`/api/campaign-metrics${query}`, { token: auth });
  expect(res.status).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  token = await setupInstallation();
  a = await makeCampaign(token, { name: 'Alpha push', cpc: '0.10', trafficSource: 'taboola' });
  b = await makeCampaign(token, { name: 'Beta native', cpc: '0.25', campaignType: 'landing_page' });
  c = await makeCampaign(token, { name: 'Gamma search', cpc: '0' });
  folder = await folderWith('Europe', 0, [a, b]);
  sub = await folderWith('Germany', folder, [b]);
  const student = await userWithRole(token, 'student');
  studentToken = student.token;
  studentCampaign = await makeCampaign(studentToken, { name: 'Student own', cpc: '1' });

  const now = Date.now() - 60_000;
  await ingestEvents(env, [
    ...traffic(a, 'a', now, 10, [12.5, 7]),
    ...traffic(b, 'b', now, 7, [30]),
    ...traffic(c, 'c', now, 4, []),
    ...traffic(studentCampaign, 's', now, 3, [5]),
    ...traffic(a, 'pa', PAST_MS, 6, [4]),
    ...traffic(b, 'pb', PAST_MS, 2, []),
  ]);
  // A synced cost for one of A's targets today replaces its CPC-derived spend ($1.11 instead of 5 x $0.10).
  await writeCost(a, 'sync', {
    date: today(),
    target: 'T1',
    impressions: 500,
    ad_clicks: 9,
    spend: 1_110_000,
  });
});

describe('GET /api/campaign-metrics', () => {
  it('defaults to today in the installation time zone and equals each campaign report', async () => {
    const data = await metrics();
    expect(data).toMatchObject({ start: today(), end: today(), timeZone: 'America/New_York' });
    const row = (id: number) => data.rows.find((r: any) => r.campaignId === id);
    expect(row(a).metrics).toEqual({
      visits: 10,
      conversions: 2,
      revenue: 19.5,
      // T1: synced $1.11; T2: 5 visits x $0.10
      spend: 1.61,
      profit: 17.89,
      roi: 1111.18,
      cr: 20,
      epc: 1.95,
    });
    for (const id of [a, b, c, studentCampaign]) {
      const r = await report(id, today(), today());
      const m = row(id).metrics;
      expect([m.visits, Math.round(m.revenue * 100), Math.round(m.spend * 100), m.conversions]).toEqual([
        r.visits,
        r.revenue,
        r.spend,
        r.conversions,
      ]);
    }
  });

  it('sums folders over every campaign inside them and totals over all campaigns', async () => {
    const data = await metrics();
    const row = (id: number) => data.rows.find((r: any) => r.campaignId === id);
    const reports = await Promise.all([a, b, c, studentCampaign].map((id) => report(id, today(), today())));
    const sum = (key: 'visits' | 'revenue' | 'spend' | 'conversions', list = reports) =>
      list.reduce((s, r) => s + r[key], 0);
    expect(data.totals.visits).toBe(sum('visits'));
    expect(data.totals.visits).toBe(24);
    expect(Math.round(data.totals.revenue * 100)).toBe(sum('revenue'));
    expect(Math.round(data.totals.spend * 100)).toBe(sum('spend'));
    expect(data.totals.conversions).toBe(sum('conversions'));
    // Europe holds A and (through Germany) B; Germany holds B only.
    const europe = row(folder);
    expect(europe).toMatchObject({ is_dir: 1, folder: '' });
    expect(europe.metrics.visits).toBe(reports[0].visits + reports[1].visits);
    expect(Math.round(europe.metrics.revenue * 100)).toBe(reports[0].revenue + reports[1].revenue);
    expect(row(sub).metrics.visits).toBe(7);
    expect(row(sub).folder).toBe('Europe');
    expect(row(b).folder).toBe('Europe / Germany');
    expect(row(a)).toMatchObject({ folder: 'Europe', trafficSource: 'taboola', active: 1 });
  });

  it('equals the statistics screen target totals over a chosen range', async () => {
    const data = await metrics(`?start=${PAST}&end=${today()}`);
    expect(data.start).toBe(PAST);
    for (const id of [a, b, c]) {
      const t = await targetTotals(id, PAST, today());
      const m = data.rows.find((r: any) => r.campaignId === id).metrics;
      expect({
        visits: m.visits,
        conversions: m.conversions,
        revenue: m.revenue,
        spend: m.spend,
        roi: m.roi,
      }).toEqual({
        visits: t.visitsTotal,
        conversions: t.conversionsTotal,
        revenue: t.revenue,
        spend: t.ad_spent,
        roi: t.roi_total,
      });
    }
    const past = await metrics(`?start=${PAST}&end=${PAST}`);
    expect(past.rows.find((r: any) => r.campaignId === a).metrics).toMatchObject({
      visits: 6,
      conversions: 1,
      revenue: 4,
      spend: 0.6,
    });
    expect(past.totals.visits).toBe(8);
  });

  it('shows a student only their own campaigns, and refuses bad dates with 422', async () => {
    const mine = await metrics('', studentToken);
    expect(mine.rows.map((r: any) => r.name)).toEqual(['Student own']);
    expect(mine.totals).toMatchObject({ visits: 3, conversions: 1, revenue: 5, spend: 3 });
    const bad = await api('/api/campaign-metrics?start=10-11-2026', { token });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Dates must be written yyyy-MM-dd.');
    const reversed = await api(`/api/campaign-metrics?start=${today()}&end=${PAST}`, { token });
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors.end).toEqual(['End date should be greater than start date.']);
    expect((await api('/api/campaign-metrics')).status).toBe(401);
  });
});

describe('POST /api/quick-stats-all', () => {
  it('equals the sum of the per-campaign reports, day by day', async () => {
    const res = await api('/api/quick-stats-all', { token, body: { start_date: PAST, end_date: today() } });
    expect(res.status).toBe(200);
    const all = res.body.data;
    expect(all.visitors.map((v: any) => v.date)).toEqual([PAST, today()]);
    const per = await Promise.all([a, b, c, studentCampaign].map((id) => report(id, PAST, today())));
    const total = sumSeries(all);
    for (const key of ['visits', 'revenue', 'spend', 'conversions'] as const)
      expect(total[key]).toBe(per.reduce((s, r) => s + r[key], 0));
    expect(total.visits).toBe(32);
    expect(all.liveintent.reports.find((r: any) => r.date === today())).toMatchObject({
      clicks: 9,
      impressions: 500,
    });
    const student = await api('/api/quick-stats-all', { token: studentToken, body: {} });
    expect(sumSeries(student.body.data)).toEqual({ visits: 3, revenue: 500, spend: 300, conversions: 1 });
  });
});
