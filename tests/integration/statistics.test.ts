import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrackEvent } from '../../schema/tracking';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { deleteCost } from '../../worker/services/statistics/costs';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { exportedFile, polledJob, writeCost } from '../factories/reports';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';
import { OTHER_SOURCE_TICKED_METRICS } from '../support/ticked-metrics';

// A campaign seeded through the real ingest code with known visits, LP clicks, conversions,
// payouts and costs; every number of the statistics screen is checked against hand arithmetic.
// The installation's time zone is America/New_York (the factories' setup).

let token: string;
let campaignId: number;
let l1: number;
let l2: number;
let o1: number;
let o2: number;

// 2026-11-10 in New York: 15:00 UTC is 10:00 EST. 03:30 UTC on the 11th is still 22:30 on the 10th.
const D1 = Date.UTC(2026, 10, 10, 15, 0);
const D1_LATE = Date.UTC(2026, 10, 11, 3, 30);
const D2 = Date.UTC(2026, 10, 11, 15, 0);

function visit(
  id: string,
  target: string,
  landing: number,
  at: number,
  extra: Partial<TrackEvent> = {},
): TrackEvent {
  return visitEvent({
    id,
    c: campaignId,
    l: landing,
    at,
    tgt: target,
    tok: { 1: target === 'A' ? 'alpha' : 'beta' },
    ...extra,
  });
}
const lpClick = (id: string, landing: number, offer: number, at: number): TrackEvent =>
  lpClickEvent({ id, c: campaignId, l: landing, o: offer, at });
const conversion = (
  id: string,
  landing: number,
  offer: number,
  at: number,
  ev: string | null = null,
  pay: number | null = null,
): TrackEvent => conversionEvent({ id, c: campaignId, l: landing, o: offer, at, ev, pay });

async function stats(body: Record<string, unknown>, auth = token) {
  return api('/api/statistics', { token: auth, body: { campaignId, startDate: '', endDate: '', ...body } });
}

const poll = (path: string, key: Record<string, string>) => polledJob(token, path, key);

beforeAll(async () => {
  token = await setupInstallation();
  campaignId = await makeCampaign(token, {
    name: 'Stats campaign',
    campaignType: 'landing_page',
    cpc: '0.50',
    extratokens: [{ token_name: 'Sub 1', parameter: 'sub1' }],
  });
  l1 = await makeLanding(token, campaignId, { name: 'hA_img1' });
  l2 = await makeLanding(token, campaignId, { name: 'hB_img1' });
  o1 = await makeOffer(token, campaignId, { name: 'Offer one', payout: '10' });
  o2 = await makeOffer(token, campaignId, { name: 'Offer two', payout: '20' });

  const events: TrackEvent[] = [];
  // Target A, day 1: 10 visits on L1, 5 LP clicks to O1, 2 purchases (offer payout $10), 4 'lp' events.
  for (let i = 0; i < 10; i++) events.push(visit(`a${i}`, 'A', l1, D1));
  for (let i = 0; i < 5; i++) events.push(lpClick(`a${i}`, l1, o1, D1 + 1000));
  events.push(conversion('a0', l1, o1, D1 + 2000), conversion('a1', l1, o1, D1 + 2000));
  for (let i = 0; i < 4; i++) events.push(conversion(`a${i}`, l1, o1, D1 + 3000, 'lp', 0));
  // A custom event without a column of its own (no payout).
  events.push(conversion('a3', l1, o1, D1 + 4000, 'webinar', 0));
  // A bot visit: stored, never counted.
  events.push(visit('bot1', 'A', l1, D1, { f: 'bot' } as Partial<TrackEvent>));
  // Target B, day 1: 6 visits on L2 (one late in the evening, New York time), 3 LP clicks to O2, 1 purchase ($20).
  for (let i = 0; i < 5; i++) events.push(visit(`b${i}`, 'B', l2, D1));
  events.push(visit('b5', 'B', l2, D1_LATE));
  for (let i = 0; i < 3; i++) events.push(lpClick(`b${i}`, l2, o2, D1 + 1000));
  events.push(conversion('b0', l2, o2, D1 + 2000));
  // Target A, day 2: 4 visits on L2, nothing else.
  for (let i = 0; i < 4; i++) events.push(visit(`c${i}`, 'A', l2, D2));
  await ingestEvents(env, events);

  // Costs of A on day 1: a hand entry of $12 and a platform sync of $15 (the sync wins).
  const manual = await api('/api/costs', {
    token,
    body: { campaignId, date: '2026-11-10', target: 'A', impressions: 900, ad_clicks: 18, spend: '12' },
  });
  expect(manual.status).toBe(200);
  await writeCost(campaignId, 'sync', {
    date: '2026-11-10',
    target: 'A',
    impressions: 1000,
    ad_clicks: 20,
    spend: 15_000_000,
  });
});

describe('statistics request validation', () => {
  it('checks campaign and dates in the spec order with its messages', async () => {
    const none = await api('/api/statistics', { token, body: {} });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('Select campaign first.');
    const future = await stats({ startDate: '01-01-2999', endDate: '02-01-2999' });
    expect(future.body.message).toBe('Start date should be not greater than today.');
    const reversed = await stats({ startDate: '10-11-2026', endDate: '09-11-2026' });
    expect(reversed.body.message).toBe('End date should be greater than start date.');
    const endFuture = await stats({ startDate: '10-11-2026', endDate: '01-01-2999' });
    expect(endFuture.body.message).toBe('End date should be not greater than today.');
    const badFormat = await stats({ startDate: '2026-11-10' });
    expect(badFormat.status).toBe(422);
    expect(badFormat.body.message).toBe('Dates must be written dd-MM-yyyy.');
  });

  it('answers 404 for a campaign the user may not see, and 401 without a token', async () => {
    const student = await userWithRole(token, 'student');
    const res = await stats({}, student.token);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Campaign not found.');
    expect((await api('/api/statistics', { body: { campaignId } })).status).toBe(401);
  });
});

describe('statistics tables', () => {
  it('answers offer and path tables at once and the target table through the queue', async () => {
    const res = await stats({ sortKey: 'visits', sortOrder: 'desc', force: true });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.campaignVisits).toBe(20);
    expect(data.extraTokens).toEqual([{ token_name: 'Sub 1', parameter: 'sub1', default: false }]);
    expect(data.offer.offerRecords.map((o: any) => [o.offer_name, o.visits, o.conversion, o.cr])).toEqual([
      ['Offer one', 5, 2, 40],
      ['Offer two', 3, 1, 33.33],
    ]);
    expect(data.metrics.filter((m: any) => m.ticked).map((m: any) => m.parameter)).toEqual(
      OTHER_SOURCE_TICKED_METRICS,
    );

    const target = await poll('/api/get-target-statistics', { uuid: data.queueId });
    expect(target.error).toBeNull();
    const { targetRecords, totalCount, targetTotal } = target.data.data;
    expect(totalCount).toBe(2);
    const [a, b] = targetRecords;
    expect(a).toMatchObject({
      target: 'A',
      visits: 14,
      impressions: 1000,
      clicks: 20,
      ctr: 2,
      // CPC divides by the platform's 20 clicks, not the 14 tracked visits (decision 158).
      ad_cpc: 0.85,
      ad_clicks_from: 'platform',
      lpclicks: 5,
      lpctr: 35.7,
      conversions: 2,
      revenue: 20,
      ad_spent: 17,
      net: 3,
      roi: 17.65,
      cpa: 8.5,
      cr: 14.29,
      event_lp_visits: 4,
      event_lp_visits_cpc: 4.25,
    });
    // The goal ('purchase') is the conversions column, not a custom event.
    expect(a.custom_events).toEqual({ webinar: 1 });
    expect(b.custom_events).toEqual({});
    expect(b).toMatchObject({
      target: 'B',
      visits: 6,
      lpclicks: 3,
      conversions: 1,
      revenue: 20,
      ad_spent: 3,
      net: 17,
      roi: 566.67,
      cpa: 3,
      cr: 16.67,
      ctr: 0,
      // No platform clicks were imported for B: its $3 over 6 tracked visits.
      ad_cpc: 0.5,
      ad_clicks_from: 'visits',
    });
    expect(targetTotal).toMatchObject({
      visitsTotal: 20,
      clicksTotal: 20,
      impressionsTotal: 1000,
      conversionsTotal: 3,
      crTotal: 15,
      ctrTotal: 2,
      lpclicksTotal: 8,
      lpctrTotal: 40,
      ad_spent: 20,
      revenue: 40,
      net: 20,
      roi_total: 100,
      cpa: 6.67,
      ad_cpc_total: 1,
      ad_clicks_from: 'platform',
    });

    const landing = await poll('/api/get-landing-statistics', { key: data.landingQueueKey });
    const rows = landing.data.landingRecords;
    expect(landing.data.landingCount).toBe(2);
    expect(
      rows.map((r: any) => [
        r.landing_page,
        r.visits,
        r.lpclicks,
        r.conversions,
        r.ad_spent,
        r.revenue,
        r.cpa,
        r.lpctr,
      ]),
    ).toEqual([
      ['hA_img1', 10, 5, 2, '$11.25', '$20.00', '$5.63', 50],
      ['hB_img1', 10, 3, 1, '$8.75', '$20.00', '$8.75', 30],
    ]);
    expect(rows[0].test_data).toEqual([
      { against: l2, is_significant: false, best_variant: 1, p_value: expect.any(Number) },
    ]);
    expect(rows[0].test_summary).toEqual({ better: 0, worst: 0, insignificants: 1, total_tests: 1 });
  });

  it('puts the late-evening visit on the New York day and filters by day', async () => {
    const res = await stats({ startDate: '10-11-2026', endDate: '10-11-2026', force: true });
    const target = await poll('/api/get-target-statistics', { uuid: res.body.data.queueId });
    const rows = target.data.data.targetRecords;
    expect(rows.find((r: any) => r.target === 'B').visits).toBe(6);
    expect(rows.find((r: any) => r.target === 'A').visits).toBe(10);
    expect(target.data.data.targetTotal.ad_spent).toBe(18);

    const activity = await api(
      `/api/campaign-activity?campaignId=${campaignId}&startDate=10-11-2026&endDate=11-11-2026`,
      { token },
    );
    expect(activity.body.data).toEqual([
      { date: '2026-11-10', visitors: 16 },
      { date: '2026-11-11', visitors: 4 },
    ]);
  });

  it('pages, sorts and searches the target table and answers a repeat from the stored job', async () => {
    const first = await stats({ perPage: 1, currentPage: 2, sortKey: 'visits', sortOrder: 'asc' });
    const again = await stats({ perPage: 1, currentPage: 2, sortKey: 'visits', sortOrder: 'asc' });
    expect(again.body.data.queueId).toBe(first.body.data.queueId);
    const page = await poll('/api/get-target-statistics', { uuid: first.body.data.queueId });
    expect(page.data.data.currentPage).toBe(2);
    expect(page.data.data.targetRecords.map((r: any) => r.target)).toEqual(['A']);
    const forced = await stats({
      perPage: 1,
      currentPage: 2,
      sortKey: 'visits',
      sortOrder: 'asc',
      force: true,
    });
    expect(forced.body.data.queueId).not.toBe(first.body.data.queueId);

    const search = await stats({ search: 'b', force: true });
    const found = await poll('/api/get-target-statistics', { uuid: search.body.data.queueId });
    expect(found.data.data.targetRecords.map((r: any) => r.target)).toEqual(['B']);
    expect(found.data.data.totalCount).toBe(1);
  });

  it('groups the target table by an extra token, sharing spend by visits', async () => {
    const res = await stats({ extraTokens: ['sub1'], sortKey: 'target', sortOrder: 'asc', force: true });
    const target = await poll('/api/get-target-statistics', { uuid: res.body.data.queueId });
    const rows = target.data.data.targetRecords;
    expect(rows.map((r: any) => [r.target, r.sub1, r.visits, r.conversions, r.ad_spent, r.revenue])).toEqual([
      ['A', 'alpha', 14, 2, 17, 20],
      ['B', 'beta', 6, 1, 3, 20],
    ]);
  });

  it('answers the totals alone', async () => {
    const res = await stats({ totalOnly: true, force: true });
    const total = await poll('/api/get-target-statistics', { uuid: res.body.data.queueId });
    expect(total.data.data.targetTotal.revenue).toBe(40);
  });

  it('answers 404 for an unknown or foreign job id', async () => {
    const res = await api('/api/get-target-statistics', { token, body: { uuid: 'nope' } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('This statistics request is unknown or has expired. Please search again.');
  });
});

describe('export and dashboard', () => {
  it('exports every table of the screen in a named file with one number format per column type', async () => {
    const body = {
      campaignId,
      startDate: '',
      endDate: '',
      sortKey: 'target',
      sortOrder: 'asc',
      targetData: ['target', 'visits', 'conversions', 'ad_spent', 'revenue', 'roi'],
      landingData: ['landing_page', 'visits', 'cpa'],
    };
    // A named file: the spec's Campaign.csv followed by the campaign, the range, the time zone.
    const text = await exportedFile(token, body, 'Campaign_Stats-campaign_all_time_America-New_York.csv');
    expect(text).toBe(
      [
        // Every table of the screen under its title, headers as on screen (issue 17), one number
        // format per column type: money 17.00 in every table, percent 17.65 (issue 27).
        'Targets',
        'Target,Visits,Purchase Event,Ad Spend,Revenue,ROI',
        'A,14,2,17.00,20.00,17.65',
        'B,6,1,3.00,20.00,566.67',
        '',
        'Landing pages',
        'Landing page,Visits,CPA',
        'hA_img1,10,5.63',
        'hB_img1,10,8.75',
        '',
        'Offer pages',
        'Offer page,Visits,Purchase Event,CR,Revenue',
        'Offer one,5,2,40.00,20.00',
        'Offer two,3,1,33.33,20.00',
        '',
        'Breakdown',
        'Country,Visits,LP Clicks,LP CTR,Conversions,CR,Revenue,Ad Spend,Net Profit,ROI,EPC,CPA',
        'US,20,8,40.00,3,15.00,40.00,20.00,20.00,100.00,2.00,6.67',
        'Total,20,8,40.00,3,15.00,40.00,20.00,20.00,100.00,2.00,6.67',
        '',
        // Both sources of A's cost, as the Ad costs panel lists them; the synced one counts.
        'Ad costs',
        'Date,Target,Source,Impressions,Clicks,Spend',
        '2026-11-10,A,Platform sync,1000,20,15.00',
        '2026-11-10,A,Entered,900,18,12.00',
        '',
        // The seeded bot visit, in the filtered-traffic table (docs/decisions/111).
        'Filtered traffic',
        'Day,Filtered clicks,Bot user agent,Prefetch or HEAD,Duplicate click,Other rule,Conversions on filtered clicks,Revenue on filtered clicks',
        '2026-11-10,1,1,0,0,0,0,0.00',
        'Total,1,1,0,0,0,0,0.00',
        '',
      ].join('\r\n'),
    );
  });

  it("says 'No Data To Export.' for a range without data", async () => {
    const res = await api('/api/export-statistics', {
      token,
      body: { campaignId, startDate: '01-01-2020', endDate: '02-01-2020' },
    });
    expect(res.body.data).toEqual({ downloadLink: null, message: 'No Data To Export.' });
  });

  it("answers the installation's today for the date pickers", async () => {
    const res = await api('/api/stats-today', { token });
    expect(res.status).toBe(200);
    const expected = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/New_York',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(Date.now());
    expect(res.body.data).toEqual({ today: expected, timeZone: 'America/New_York' });
    expect((await api('/api/stats-today')).status).toBe(401);
  });

  it('asks for a campaign when quick-stats-v2 names none (spec 1 §5)', async () => {
    for (const campaignId of [undefined, '', 0]) {
      const res = await api('/api/quick-stats-v2', {
        token,
        body: { campaignId, start_date: '2026-11-10', end_date: '2026-11-11' },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.campaignId).toEqual(['Please select a campaign']);
    }
  });

  it('answers quick-stats-v2 per day from form data', async () => {
    const form = new FormData();
    form.set('start_date', '2026-11-10');
    form.set('end_date', '2026-11-11');
    form.set('campaignId', String(campaignId));
    const res = await api('/api/quick-stats-v2', { token, body: form });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      liveintent: {
        reports: [
          { date: '2026-11-10', advertiserSpent: 18, clicks: 20, impressions: 1000 },
          { date: '2026-11-11', advertiserSpent: 2, clicks: 0, impressions: 0 },
        ],
      },
      visitors: [
        { date: '2026-11-10', visitors: 16, lpclicks: 8, revenue: 40 },
        { date: '2026-11-11', visitors: 4, lpclicks: 0, revenue: 0 },
      ],
      conversions: [
        { date: '2026-11-10', conversions: 3 },
        { date: '2026-11-11', conversions: 0 },
      ],
    });
  });
});

describe('switches and alerts', () => {
  it('switches a landing page inactive and back, and refuses a deleted one', async () => {
    const off = await api('/api/update-landing-status', { token, body: { landingId: l2, status: 0 } });
    expect(off.body.data).toEqual({ status: true, active: 0, message: 'Landing page status updated.' });
    const row = await env.DB.prepare('SELECT active FROM landing_pages WHERE id = ?1')
      .bind(l2)
      .first<{ active: number }>();
    expect(row!.active).toBe(0);
    await api('/api/update-landing-status', { token, body: { landingId: l2, status: 1 } });
    const offer = await api('/api/update-offer-status', { token, body: { offerId: o2, status: 'false' } });
    expect(offer.body.data.active).toBe(0);
    const bad = await api('/api/update-offer-status', { token, body: { offerId: o1, status: 'maybe' } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Status must be 1 (active) or 0 (inactive).');
  });

  it('dismisses one alert by its index', async () => {
    await env.DB.prepare(`UPDATE campaigns SET metainfo = ?2 WHERE id = ?1`)
      .bind(campaignId, JSON.stringify({ alerts: [{ message: 'first' }, { message: 'second' }] }))
      .run();
    const res = await api(`/api/campaigns/${campaignId}/alerts/0`, { method: 'DELETE', token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ message: 'Alert dismissed', alerts: [{ message: 'second' }] });
    expect((await api(`/api/campaigns/${campaignId}/alerts/5`, { method: 'DELETE', token })).status).toBe(
      404,
    );
  });
});

describe('costs', () => {
  it('validates a cost entry with clear messages', async () => {
    const res = await api('/api/costs', { token, body: { campaignId, date: '2026-02-30', spend: '-1' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      date: ['Date must be a real day written yyyy-MM-dd.'],
      spend: ['Spend must be a number of at least 0 with up to 6 decimals.'],
    });
  });

  it('uploads costs as CSV, all or nothing', async () => {
    const upload = (text: string, name = 'costs.csv') => {
      const form = new FormData();
      form.set('campaignId', String(campaignId));
      form.set('uploads', new File([text], name, { type: 'text/csv' }));
      return api('/api/costs/upload', { token, body: form });
    };
    const wrongType = await upload('x', 'costs.txt');
    expect(wrongType.body.message).toBe('Select Valid Csv file.');
    const badLine = await upload(
      'date,target,impressions,clicks,spend\n2026-11-09,A,10,1,2.50\n2026-11-09,B,ten,1,1\n',
    );
    expect(badLine.status).toBe(422);
    expect(badLine.body.errors.uploads).toEqual([
      'Line 3: Impressions and clicks must be whole numbers of at least 0.',
    ]);
    const none = await env.DB.prepare("SELECT count(*) n FROM costs WHERE day = '2026-11-09'").first<{
      n: number;
    }>();
    expect(none!.n).toBe(0);
    const ok = await upload(
      'date,target,impressions,clicks,spend\n2026-11-09,A,10,1,2.50\n2026-11-09,B,20,2,1\n',
    );
    expect(ok.body.data).toMatchObject({ uploaded: true, rows: 2 });
    const list = await api(`/api/costs?campaignId=${campaignId}&startDate=2026-11-09&endDate=2026-11-09`, {
      token,
    });
    expect(list.body.data.result.map((r: any) => [r.target, r.source, r.spend])).toEqual([
      ['A', 'csv', 2.5],
      ['B', 'csv', 1],
    ]);
  });

  it('lets the highest source win per key and brings the next one back when it goes', async () => {
    const effective = async () =>
      env.DB.prepare(
        "SELECT has_cost, spend_micros, visits FROM target_daily WHERE campaign_id = ?1 AND day = '2026-11-11' AND target = 'A'",
      )
        .bind(campaignId)
        .first<{ has_cost: number; spend_micros: number; visits: number }>();
    // Day 2 of target A starts derived from the CPC: 4 visits x $0.50.
    expect(await effective()).toEqual({ has_cost: 0, spend_micros: 0, visits: 4 });
    await writeCost(campaignId, 'manual', { date: '2026-11-11', target: 'A', spend: 5_000_000 });
    await writeCost(campaignId, 'sync', { date: '2026-11-11', target: 'A', spend: 7_000_000 });
    expect(await effective()).toEqual({ has_cost: 1, spend_micros: 7_000_000, visits: 4 });
    await deleteCost(env, campaignId, '2026-11-11', 'A', 'sync');
    expect(await effective()).toEqual({ has_cost: 1, spend_micros: 5_000_000, visits: 4 });
    const removed = await api('/api/costs', {
      method: 'DELETE',
      token,
      body: { campaignId, date: '2026-11-11', target: 'A' },
    });
    expect(removed.body.data.message).toBe('Cost removed.');
    expect(await effective()).toEqual({ has_cost: 0, spend_micros: 0, visits: 4 });
    const again = await api('/api/costs', {
      method: 'DELETE',
      token,
      body: { campaignId, date: '2026-11-11', target: 'A' },
    });
    expect(again.status).toBe(404);
  });
});

describe('weekly rollup', () => {
  it('answers the same numbers from whole weeks, partial weeks and days', async () => {
    const totals = async (startDate: string, endDate: string) => {
      const res = await stats({ startDate, endDate, force: true });
      return (await poll('/api/get-target-statistics', { uuid: res.body.data.queueId })).data.data
        .targetTotal;
    };
    const days = await totals('10-11-2026', '11-11-2026'); // Tuesday and Wednesday: days only
    const week = await totals('09-11-2026', '15-11-2026'); // Monday to Sunday: one whole week
    const around = await totals('08-11-2026', '16-11-2026'); // and a day before and after it
    expect(around).toEqual(week);
    // The week also holds Monday the 9th, which has only the CSV costs ($2.50 + $1.00, 30 impressions, 3 clicks).
    expect(week).toEqual({
      ...days,
      ad_spent: days.ad_spent + 3.5,
      impressionsTotal: days.impressionsTotal + 30,
      clicksTotal: days.clicksTotal + 3,
      ctrTotal: week.ctrTotal,
      net: days.net - 3.5,
      roi_total: week.roi_total,
      cpa: week.cpa,
      ad_cpc_total: week.ad_cpc_total,
      lp_cpc_total: week.lp_cpc_total,
    });
    expect(days.visitsTotal).toBe(20);
  });

  it('keeps target_weekly equal to the sums of target_daily through inserts, updates and deletes', async () => {
    const compare = async () => {
      const { results } = await env.DB.prepare(
        `SELECT w.week, w.target, w.visits, w.cost_spend_micros, w.uncosted_visits,
           (SELECT sum(visits) FROM target_daily d WHERE d.campaign_id = w.campaign_id AND d.target = w.target
              AND date(d.day, '-6 days', 'weekday 1') = w.week) dv,
           (SELECT sum(has_cost * spend_micros) FROM target_daily d WHERE d.campaign_id = w.campaign_id AND d.target = w.target
              AND date(d.day, '-6 days', 'weekday 1') = w.week) ds,
           (SELECT sum((1 - has_cost) * visits) FROM target_daily d WHERE d.campaign_id = w.campaign_id AND d.target = w.target
              AND date(d.day, '-6 days', 'weekday 1') = w.week) du
         FROM target_weekly w WHERE w.campaign_id = ?1 ORDER BY w.week, w.target`,
      )
        .bind(campaignId)
        .all<Record<string, number | string>>();
      return results;
    };
    const rows = await compare();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect([r.visits, r.cost_spend_micros, r.uncosted_visits]).toEqual([r.dv, r.ds ?? 0, r.du]);
    }
    expect(rows.map((r) => [r.week, r.target, r.visits])).toEqual([
      ['2026-11-09', 'A', 14],
      ['2026-11-09', 'B', 6],
    ]);
  });
});
