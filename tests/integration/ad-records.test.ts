import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrackEvent } from '../../schema/tracking';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { setCredential } from '../../worker/services/integrations/credentials';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { conversionEvent, visitEvent } from '../support/events';
import { expectedRows, scenario } from '../support/platform-fakes';
import { consume, messageBatch } from '../support/queues';

// The ad performance records (spec 4 §3, §4, §9): POST starts a job on the statistics queue,
// GET polls it; rows join the platform's clicks, impressions and spend per ad with our own
// visits and conversions of the same ad id (the target).

const START = '2026-11-10';
const END = '2026-11-11';
const TB_CAMPAIGN = '4400777';

let token: string;
let campaignId: number;

async function start(id: number, body: Record<string, unknown> = {}) {
  return api('/api/facebook/ad-performance', {
    token,
    body: { campaignId: id, startDate: START, endDate: END, ...body },
  });
}

async function poll(uuid: string, auth = token) {
  return api(`/api/facebook/ad-performance/${uuid}`, { token: auth });
}

/** Runs the job's queue message; answers how it ended. */
async function runJob(jobId: string, queue = 'tracker-stats') {
  return consume(messageBatch(queue, [{ id: `job-${jobId}`, body: { kind: 'ad-records', jobId } }]));
}

beforeAll(async () => {
  token = await setupInstallation();
  await setCredential(env, 'taboola', null, { clientId: 'tb-client', token: 'tb-secret' });
  await setCredential(env, 'facebook', null, { token: 'fb-records-token' });
  campaignId = await makeCampaign(token, { name: 'Taboola records' });
  const offer = await makeOffer(token, campaignId, { name: 'Offer', payout: '30' });
  const linked = await api('/api/integrations/campaign-link', {
    token,
    body: { campaignId, platform: 'taboola', externalCampaignId: TB_CAMPAIGN, externalAccountId: 'acct-1' },
  });
  expect(linked.status).toBe(200);
  const [first] = await expectedRows('taboola', TB_CAMPAIGN, START, START);
  // 5 visits and one sale on the first ad, on the 10th (New York).
  const at = Date.UTC(2026, 10, 10, 15);
  const events: TrackEvent[] = [];
  for (let i = 0; i < 5; i++) {
    events.push(visitEvent({ id: `r${i}`, c: campaignId, at, tgt: first.ad_id }));
  }
  events.push(conversionEvent({ id: 'r0', c: campaignId, o: offer, at: at + 1000 }));
  await ingestEvents(env, events);
});

describe('ad performance records', () => {
  it('answers not done until the job ran, then every ad with our visits and conversions', async () => {
    // The message the POST queues is held back, so the job runs only when the test says so.
    const send = vi.spyOn(env.STATS_QUEUE, 'send').mockResolvedValue(undefined as never);
    let sent: unknown[][];
    const started = await start(campaignId).finally(() => {
      sent = [...send.mock.calls];
      send.mockRestore();
    });
    expect(started.status).toBe(200);
    const { uuid } = started.body.data;
    expect(sent!).toEqual([[{ kind: 'ad-records', jobId: uuid }]]);
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await poll(uuid)).body.data).toEqual({ done: false, data: [], error: null });

    expect((await runJob(uuid)).explicitAcks).toEqual([`job-${uuid}`]);
    const answer = (await poll(uuid)).body.data;
    expect(answer.done).toBe(true);
    expect(answer.error).toBeNull();

    const rows = await expectedRows('taboola', TB_CAMPAIGN, START, END);
    const firstAd = rows[0].ad_id;
    const want = [...new Set(rows.map((r) => r.ad_id))].map((id) => {
      const mine = rows.filter((r) => r.ad_id === id);
      const clicks = mine.reduce((s, r) => s + r.clicks, 0);
      const impressions = mine.reduce((s, r) => s + r.impressions, 0);
      const spend = mine.reduce((s, r) => s + r.spend_micros, 0) / 1_000_000;
      return {
        id,
        ad_name: mine[0].ad_name,
        visits: id === firstAd ? 5 : 0,
        clicks,
        impressions,
        conversions: id === firstAd ? 1 : 0,
        ctr: Math.round((clicks / impressions) * 10_000) / 100,
        cpc: Math.round((spend / clicks) * 100) / 100,
        spend: Math.round(spend * 100) / 100,
      };
    });
    want.sort((a, b) => b.spend - a.spend);
    expect(answer.data).toEqual(want);
    expect(answer.data).toHaveLength(3);
  });

  it('links a verified Facebook campaign by itself', async () => {
    const id = await makeCampaign(token, { name: 'Facebook records' });
    await env.DB.prepare(
      `UPDATE campaigns SET traffic_source = 'facebook', metainfo = json('{"facebook_campaign_id":"120209900000077","verified":true}') WHERE id = ?1`,
    )
      .bind(id)
      .run();
    const started = await start(id);
    expect(started.status).toBe(200);
    await runJob(started.body.data.uuid);
    const answer = (await poll(started.body.data.uuid)).body.data;
    expect(answer.done).toBe(true);
    const fb = await expectedRows('facebook', '120209900000077', START, END);
    expect(answer.data.map((r: any) => r.id).sort()).toEqual([...new Set(fb.map((r) => r.ad_id))].sort());
    const total = answer.data.reduce((s: number, r: any) => s + r.impressions, 0);
    expect(total).toBe(fb.reduce((s, r) => s + r.impressions, 0));
  });

  it('retries a platform that failed for now, and ends with its message when it gives up', async () => {
    const id = await makeCampaign(token, { name: 'Flaky platform' });
    await api('/api/integrations/campaign-link', {
      token,
      body: {
        campaignId: id,
        platform: 'taboola',
        externalCampaignId: 'fail-500-campaign',
        externalAccountId: 'acct-1',
      },
    });
    const { uuid } = (await start(id)).body.data;
    const first = await runJob(uuid);
    expect(first.retryMessages).toEqual([{ msgId: `job-${uuid}` }]);
    expect((await poll(uuid)).body.data.done).toBe(false);
    await runJob(uuid, 'tracker-stats-dlq');
    expect((await poll(uuid)).body.data).toEqual({
      done: true,
      data: [],
      error: 'The ad platform did not answer. Please try again later.',
    });
  });

  it('ends at once with the platform message when the credentials are refused', async () => {
    const id = await makeCampaign(token, { name: 'Refused' });
    await setCredential(env, 'tiktok', null, { token: 'fail-401-token' });
    await api('/api/integrations/campaign-link', {
      token,
      body: {
        campaignId: id,
        platform: 'tiktok',
        externalCampaignId: '17800001',
        externalAccountId: '70001',
      },
    });
    const { uuid } = (await start(id)).body.data;
    expect((await runJob(uuid)).retryMessages).toEqual([]);
    expect((await poll(uuid)).body.data).toEqual({
      done: true,
      data: [],
      error: 'TikTok: The access token is invalid or has expired.',
    });
  });

  it("shows spend in another currency only at the link's rate, and says so without one (decision 147)", async () => {
    const id = await makeCampaign(token, { name: 'Taboola in pounds' });
    await scenario('acct-gbp', { currency: 'GBP', timezone: 'UTC' });
    const link = (usdRate?: string) =>
      api('/api/integrations/campaign-link', {
        token,
        body: {
          campaignId: id,
          platform: 'taboola',
          externalCampaignId: '4400888',
          externalAccountId: 'acct-gbp',
          usdRate,
        },
      });
    await link();
    const first = (await start(id)).body.data.uuid;
    expect((await runJob(first)).retryMessages).toEqual([]);
    expect((await poll(first)).body.data).toEqual({
      done: true,
      data: [],
      error:
        "Taboola bills this ad account in GBP, and its spend is not imported as US dollars. Enter on the campaign's Taboola link how many US dollars one GBP is worth; the next sync then imports the spend converted at that rate.",
    });
    await link('1.25');
    const second = (await start(id)).body.data.uuid;
    await runJob(second);
    const records = (await poll(second)).body.data.data as { id: string; spend: number }[];
    const pounds = new Map<string, number>();
    for (const r of await expectedRows('taboola', '4400888', START, END))
      pounds.set(r.ad_id, (pounds.get(r.ad_id) ?? 0) + r.spend_micros);
    expect(records).toHaveLength(3);
    for (const r of records)
      expect(r.spend).toBe(Math.round(((pounds.get(r.id) ?? 0) * 1.25) / 10_000) / 100);
  });

  it('refuses bad input, campaigns without a records platform, and other users', async () => {
    const bad = await start(campaignId, { startDate: '10-11-2026', endDate: '2026-11-01' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ startDate: ['Enter a valid date (YYYY-MM-DD).'] });
    const reversed = await start(campaignId, { startDate: END, endDate: START });
    expect(reversed.body.errors).toEqual({ endDate: ['The end date cannot be before the start date.'] });
    const plain = await makeCampaign(token, { name: 'No platform' });
    const refused = await start(plain);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      'Ad records are available for Facebook, TikTok and Taboola campaigns only.',
    );
    const { uuid } = (await start(campaignId)).body.data;
    const student = await userWithRole(token, 'student');
    expect((await poll(uuid, student.token)).status).toBe(404);
    expect((await api('/api/facebook/ad-performance', { body: { campaignId } })).status).toBe(401);
  });
});
