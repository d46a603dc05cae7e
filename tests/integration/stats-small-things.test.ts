import { beforeAll, describe, expect, it } from 'vitest';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { waitForRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { exportedFile, targetReport } from '../factories/reports';
import { postback, visitLink } from '../factories/traffic';

// Issue 17 item 5 (statistics parts): totals follow the target search, export headers are the
// column titles the screen shows, and events posted back appear as columns when they occur.

const token = await setupInstallation();
let campaignId: number;

beforeAll(async () => {
  campaignId = await makeCampaign(token, { name: 'Small things', campaignType: 'direct_link', cpc: '1' });
  await makeOffer(token, campaignId, { payout: '10' });
  const a = await visitLink(campaignId, 'apple');
  await visitLink(campaignId, 'apple');
  const b = await visitLink(campaignId, 'banana');
  await waitForRows('visits', campaignId, 3);
  expect((await postback(a, 'event=ATC1')).status).toBe(200);
  expect((await postback(b, 'event=signup')).status).toBe(200);
  expect((await postback(b, 'txid=S-1')).status).toBe(200);
  await waitForRows('conversions', campaignId, 3);
});

const targetResult = (body: Record<string, unknown>) =>
  targetReport(token, { campaignId, startDate: '', endDate: '', part: 'target', ...body });

describe('statistics small things', () => {
  it('totals follow the target search, in the table answer and the totals job', async () => {
    const all = await targetResult({});
    expect(all.targetTotal).toMatchObject({ visitsTotal: 3, conversionsTotal: 1, revenue: 10, ad_spent: 3 });
    const apple = await targetResult({ search: 'APP' });
    expect(apple.targetRecords.map((r: { target: string }) => r.target)).toEqual(['apple']);
    expect(apple.targetTotal).toMatchObject({ visitsTotal: 2, conversionsTotal: 0, revenue: 0, ad_spent: 2 });
    const totalsOnly = await targetResult({ search: 'banana', totalOnly: true });
    expect(totalsOnly.targetTotal).toMatchObject({ visitsTotal: 1, conversionsTotal: 1, revenue: 10 });
  });

  it('shows a named event that occurred as its column even when the picker leaves it out, and custom events', async () => {
    const result = await targetResult({ metricParams: ['cr'] });
    expect(result.eventColumns).toEqual(['event_atc1_visits']);
    const apple = result.targetRecords.find((r: { target: string }) => r.target === 'apple');
    expect(apple.event_atc1_visits).toBe(1);
    expect(apple.cr).toBe(0);
    expect(apple.revenue).toBeUndefined(); // not asked for, did not occur as an event
    const banana = result.targetRecords.find((r: { target: string }) => r.target === 'banana');
    expect(banana.custom_events).toEqual({ signup: 1 });
  });

  it('exports with the titles the screen shows, custom event columns included', async () => {
    const text = await exportedFile(token, {
      campaignId,
      startDate: '',
      endDate: '',
      sortKey: 'target',
      sortOrder: 'asc',
      targetData: [
        'target',
        'visits',
        'conversions',
        'event_atc1_visits',
        'ad_spent',
        'epc',
        'custom:signup',
      ],
    });
    expect(text.split('\r\n').slice(0, 4)).toEqual([
      'Targets',
      'Target,Visits,Purchase Event,ATC1 Event Clicks,Ad Spend,EPC,signup',
      'apple,2,0,1,2.00,0.00,0',
      'banana,1,1,0,1.00,10.00,1',
    ]);
  });
});
