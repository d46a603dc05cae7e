import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../../worker/services/ingest/days';
import { getSettings } from '../../worker/services/settings/settings';
import { writeCosts } from '../../worker/services/statistics/costs';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { waitForRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { postback, visitLink } from '../factories/traffic';

// Issue 17 item 1: a report asked for right after events are ingested includes them; a stored
// job is never reused once newer data arrived (reload shows the new numbers without Search);
// a fast job is answered by the first poll; every result says when it was made and the newest
// event it includes. Everything goes through the real Worker, ingest queue and local D1.

const token = await setupInstallation();
let campaignId: number;

beforeAll(async () => {
  campaignId = await makeCampaign(token, { name: 'Fresh stats', campaignType: 'direct_link' });
  await makeOffer(token, campaignId, { name: 'Offer', payout: '12.50' });
});

const count = (table: string, n: number) => waitForRows(table, campaignId, n);
const visit = (target: string) => visitLink(campaignId, target);

/** POST statistics, then exactly one poll of each job: a fast job must be answered by it. */
async function reportInOnePoll(body: Record<string, unknown> = {}) {
  const queued = await api('/api/statistics', {
    token,
    body: { campaignId, startDate: '', endDate: '', part: 'all', ...body },
  });
  expect(queued.status).toBe(200);
  const target = await api('/api/get-target-statistics', { token, body: { uuid: queued.body.data.queueId } });
  expect(target.status).toBe(200);
  expect(target.body.data.done).toBe(true);
  expect(target.body.data.error).toBeNull();
  return { queueId: queued.body.data.queueId as string, result: target.body.data.data.data };
}

describe('fresh statistics', () => {
  it('includes events ingested just before the request, answered in the first poll', async () => {
    const before = Date.now();
    await visit('alpha');
    await visit('alpha');
    await visit('beta');
    await count('visits', 3);
    const { result } = await reportInOnePoll();
    expect(result.targetTotal.visitsTotal).toBe(3);
    expect(
      result.targetRecords.map((r: { target: string; visits: number }) => [r.target, r.visits]).sort(),
    ).toEqual([
      ['alpha', 2],
      ['beta', 1],
    ]);
    const newest = await env.DB.prepare('SELECT max(created_at) t FROM visits WHERE campaign_id = ?1')
      .bind(campaignId)
      .first<{ t: number }>();
    expect(result.newestEventAt).toBe(newest!.t);
    expect(result.newestEventAt).toBeGreaterThanOrEqual(before);
    expect(result.generatedAt).toBeGreaterThanOrEqual(result.newestEventAt);
    expect(result.generatedAt).toBeLessThanOrEqual(Date.now());
  });

  it('answers a repeat from the stored job while no new data arrived, and recomputes once it did', async () => {
    const first = await reportInOnePoll();
    const repeat = await reportInOnePoll();
    expect(repeat.queueId).toBe(first.queueId); // the 30-second reuse still works

    // A postback arrives (the case of the issue: reload kept showing 0 conversions and $0).
    const clickId = await visit('gamma');
    await count('visits', 4);
    const converted = await postback(clickId, 'txid=T-1');
    expect(converted.status).toBe(200);
    await count('conversions', 1);

    const reload = await reportInOnePoll();
    expect(reload.queueId).not.toBe(first.queueId);
    expect(reload.result.targetTotal).toMatchObject({ visitsTotal: 4, conversionsTotal: 1, revenue: 12.5 });
    const conversionAt = await env.DB.prepare('SELECT created_at t FROM conversions WHERE campaign_id = ?1')
      .bind(campaignId)
      .first<{ t: number }>();
    expect(reload.result.newestEventAt).toBe(conversionAt!.t);
    expect(reload.result.generatedAt).toBeGreaterThan(first.result.generatedAt);
  });

  it('recomputes after costs change, too', async () => {
    const before = await reportInOnePoll();
    const { time_zone } = await getSettings(env);
    await writeCosts(
      env,
      campaignId,
      'manual',
      [
        {
          date: dayIn(Date.now(), time_zone),
          target: 'alpha',
          impressions: 0,
          ad_clicks: 0,
          spend: 7_000_000,
        },
      ],
      null,
    );
    const after = await reportInOnePoll();
    expect(after.queueId).not.toBe(before.queueId);
    expect(after.result.targetTotal.ad_spent).not.toBe(before.result.targetTotal.ad_spent);
  });

  it('answers the totals job in the first poll, with the totals of the search and its stamp', async () => {
    const queued = await api('/api/statistics', {
      token,
      body: { campaignId, startDate: '', endDate: '', part: 'target', totalOnly: true, search: 'alp' },
    });
    const total = await api('/api/get-target-statistics', {
      token,
      body: { uuid: queued.body.data.queueId },
    });
    expect(total.body.data.done).toBe(true);
    // Totals follow the target search (issue 17 item 5): only alpha's 2 visits.
    expect(total.body.data.data.data.targetTotal.visitsTotal).toBe(2);
    expect(total.body.data.data.data.newestEventAt).toBeGreaterThan(0);
  });
});
