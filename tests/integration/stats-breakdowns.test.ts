import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayInZone, toDmy } from '../../schema/dates';
import { BREAKDOWN_DIMENSIONS } from '../../schema/stats-reports-api';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { waitForCount, waitForRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { targetReport } from '../factories/reports';
import { clickIdOf, DESKTOP_UA, hit, IPHONE_UA, postbackSecret } from '../factories/traffic';
import { visitEvent } from '../support/events';

// Issue 17 item 3: breakdowns by country, device type, OS, browser, referrer domain, hour and day,
// one or two levels, from the breakdown rollup the ingest transaction keeps; each breakdown's
// totals equal the report's totals; the previous period of equal length with the change.
// Traffic goes through the real tracking routes and ingest queue. Time zone: America/New_York.

const TZ = 'America/New_York';
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const FIREFOX_MAC_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0';

let token: string;
let campaignId: number;
let today: string;
let sentAt: number;

beforeAll(async () => {
  token = await setupInstallation();
  campaignId = await makeCampaign(token, { name: 'Breakdowns', campaignType: 'landing_page', cpc: '0.50' });
  await makeLanding(token, campaignId, { url: 'https://lp.example/a' });
  await makeOffer(token, campaignId, { payout: '20' });

  // 7 visits: who, from where, with which agent; 3 LP clicks; 2 conversions.
  const visits: { ua: string; cc: string; ref?: string; click?: boolean; convert?: boolean }[] = [
    { ua: DESKTOP_UA, cc: 'us', ref: 'https://www.news.example/a?b=1', click: true, convert: true },
    { ua: DESKTOP_UA, cc: 'us', ref: 'https://news.example:8443/other' },
    { ua: IPHONE_UA, cc: 'de', ref: 'https://social.example/feed', click: true, convert: true },
    { ua: IPHONE_UA, cc: 'de' },
    { ua: ANDROID_UA, cc: 'de', click: true },
    { ua: ANDROID_UA, cc: 'fr', ref: 'android-app://com.example.app' },
    { ua: FIREFOX_MAC_UA, cc: 'us', ref: 'https://social.example/' },
  ];
  sentAt = Date.now();
  const secret = await postbackSecret(campaignId);
  for (const v of visits) {
    const headers: Record<string, string> = { 'user-agent': v.ua, 'cf-ipcountry': v.cc };
    if (v.ref) headers.referer = v.ref;
    const res = await hit(`/go/${campaignId}?tid=t1`, { headers });
    expect(res.status).toBe(302);
    const clickId = clickIdOf(res);
    await waitForCount('SELECT count(*) n FROM visits WHERE click_id = ?1', [clickId], 1);
    if (v.click) expect((await hit(`/click/${campaignId}?clickid=${clickId}`)).status).toBe(302);
    if (v.convert) {
      await waitForCount('SELECT count(*) n FROM lp_clicks WHERE click_id = ?1', [clickId], 1);
      expect((await hit(`/postback?clickid=${clickId}&txid=${clickId}&secret=${secret}`)).status).toBe(200);
    }
  }
  await waitForRows('conversions', campaignId, 2);
  await waitForRows('lp_clicks', campaignId, 3);
  today = dayInZone(Date.now(), TZ);
  // Seven visits through the queue one after another: slow when the suite runs in parallel.
}, 60_000);

const range = () => `&startDate=${toDmy(today)}&endDate=${toDmy(today)}`;

async function breakdown(query: string) {
  const res = await api(`/api/stats-reports/breakdown?campaignId=${campaignId}${range()}&${query}`, {
    token,
    method: 'GET',
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The report's totals through the statistics protocol. */
async function reportTotals() {
  const body = {
    campaignId,
    startDate: toDmy(today),
    endDate: toDmy(today),
    part: 'target',
    totalOnly: true,
  };
  return (await targetReport(token, body)).targetTotal;
}

const pick = (rows: { value: string; visits: number }[]) =>
  Object.fromEntries(rows.map((r) => [r.value, r.visits]));

describe('breakdowns', () => {
  it("groups by each dimension with the report's metrics, and every breakdown's totals equal the report's", async () => {
    const report = await reportTotals();
    expect(report).toMatchObject({
      visitsTotal: 7,
      lpclicksTotal: 3,
      conversionsTotal: 2,
      revenue: 40,
      ad_spent: 3.5,
    });
    for (const by of BREAKDOWN_DIMENSIONS) {
      const data = await breakdown(`by=${by}`);
      expect(data.total, by).toMatchObject({
        visits: report.visitsTotal,
        lpclicks: report.lpclicksTotal,
        conversions: report.conversionsTotal,
        revenue: report.revenue,
        ad_spent: report.ad_spent,
        net: report.net,
        roi: report.roi_total,
      });
      // The rows add up to the totals.
      const sum = (k: string) => data.rows.reduce((s: number, r: Record<string, number>) => s + r[k], 0);
      expect([sum('visits'), sum('lpclicks'), sum('conversions')], by).toEqual([7, 3, 2]);
      expect(Math.round(sum('revenue') * 100), by).toBe(4000);
      expect(Math.round(sum('ad_spent') * 100), by).toBe(350);
    }
  });

  it('names the values: country, device, OS, browser, referrer domain, hour and day', async () => {
    expect(pick((await breakdown('by=country')).rows)).toEqual({ US: 3, DE: 3, FR: 1 });
    expect(pick((await breakdown('by=device')).rows)).toEqual({ desktop: 3, mobile: 4 });
    expect(pick((await breakdown('by=os')).rows)).toEqual({ Windows: 2, iOS: 2, Android: 2, macOS: 1 });
    expect(pick((await breakdown('by=browser')).rows)).toEqual({ Chrome: 4, Safari: 2, Firefox: 1 });
    expect(pick((await breakdown('by=referrer')).rows)).toEqual({
      'news.example': 2,
      'social.example': 2,
      '': 2,
      'com.example.app': 1,
    });
    const hours = (await breakdown('by=hour')).rows.map((r: { value: string }) => r.value);
    const localHour = (ms: number) =>
      new Intl.DateTimeFormat('en-US', { timeZone: TZ, hour: '2-digit', hourCycle: 'h23' }).format(ms);
    expect([localHour(sentAt), localHour(Date.now())]).toContain(hours[0]);
    expect((await breakdown('by=day')).rows.map((r: { value: string }) => r.value)).toEqual([today]);
    // A country's numbers: US had the desktop conversion ($20) and 3 visits at $0.50.
    const us = (await breakdown('by=country')).rows.find((r: { value: string }) => r.value === 'US');
    expect(us).toMatchObject({
      visits: 3,
      lpclicks: 1,
      conversions: 1,
      revenue: 20,
      ad_spent: 1.5,
      net: 18.5,
      cr: 33.33,
    });
  });

  it('adds a second level whose rows add up to their parent (country → device, device → country)', async () => {
    const data = await breakdown('by=country&second=device');
    const de = data.rows.find((r: { value: string }) => r.value === 'DE');
    expect(pick(de.children)).toEqual({ mobile: 3 });
    const us = data.rows.find((r: { value: string }) => r.value === 'US');
    expect(pick(us.children)).toEqual({ desktop: 3 });
    const reverse = await breakdown('by=device&second=country');
    const mobile = reverse.rows.find((r: { value: string }) => r.value === 'mobile');
    expect(pick(mobile.children)).toEqual({ DE: 3, FR: 1 });
    for (const row of [...data.rows, ...reverse.rows]) {
      const children = row.children as { visits: number; conversions: number }[];
      expect(children.reduce((s, c) => s + c.visits, 0)).toBe(row.visits);
      expect(children.reduce((s, c) => s + c.conversions, 0)).toBe(row.conversions);
    }
    const byDay = await breakdown('by=day&second=os');
    expect(pick(byDay.rows[0].children)).toEqual({ Windows: 2, iOS: 2, Android: 2, macOS: 1 });
    const osByDay = await breakdown('by=os&second=day');
    expect(osByDay.rows.find((r: { value: string }) => r.value === 'iOS').children).toMatchObject([
      { value: today, visits: 2, conversions: 1 },
    ]);
  });

  it('compares with the previous period of equal length, per metric', async () => {
    // Two visits from Germany yesterday (noon in New York), through the ingest code.
    const yesterday = addDays(today, -1);
    const noon = Date.parse(`${yesterday}T17:00:00Z`);
    const events = ['y1', 'y2'].map((id) =>
      visitEvent({
        id: `${id}-${campaignId}`,
        c: campaignId,
        at: noon,
        tgt: 't1',
        dev: 'mobile',
        cc: 'DE',
        ua: IPHONE_UA,
      }),
    );
    expect((await ingestEvents(env, events)).visits).toBe(2);
    const data = await breakdown('by=country&compare=1');
    expect(data.previousPeriod).toEqual({ start: yesterday, end: yesterday });
    expect(data.previousTotal).toMatchObject({ visits: 2, conversions: 0, ad_spent: 1 });
    expect(data.totalChange).toMatchObject({ visits: 250, ad_spent: 250, conversions: null });
    const de = data.rows.find((r: { value: string }) => r.value === 'DE');
    expect(de.previous).toMatchObject({ visits: 2 });
    expect(de.change.visits).toBe(50);
    const us = data.rows.find((r: { value: string }) => r.value === 'US');
    expect(us.previous.visits).toBe(0);
    expect(us.change.visits).toBeNull();
    // The hour of yesterday's visits is noon in New York.
    const hours = await api(
      `/api/stats-reports/breakdown?campaignId=${campaignId}&startDate=${toDmy(yesterday)}&endDate=${toDmy(yesterday)}&by=hour`,
      { token, method: 'GET' },
    );
    expect(pick(hours.body.data.rows)).toEqual({ '12': 2 });
  });

  it('refuses an unknown dimension, the same dimension twice and a bad date with 422', async () => {
    const bad = await api(`/api/stats-reports/breakdown?campaignId=${campaignId}&by=planet`, {
      token,
      method: 'GET',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.by[0]).toBe('Choose what to group by.');
    const twice = await api(`/api/stats-reports/breakdown?campaignId=${campaignId}&by=os&second=os`, {
      token,
      method: 'GET',
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors.second[0]).toBe('Choose a different second grouping.');
    const date = await api(`/api/stats-reports/breakdown?campaignId=${campaignId}&by=os&startDate=1.1.2026`, {
      token,
      method: 'GET',
    });
    expect(date.status).toBe(422);
  });
});
