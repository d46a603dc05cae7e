import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrackEvent } from '../../schema/tracking';
import worker from '../../worker/index';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { enqueueDueSyncs, SYNC_INTERVAL_MS } from '../../worker/services/integrations/cost-sync';
import { setCredential } from '../../worker/services/integrations/credentials';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { campaignAlerts } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { targetReport } from '../factories/reports';
import { conversionEvent, visitEvent } from '../support/events';
import { type ExpectedRow, expectedRows, resetScenario, scenario } from '../support/platform-fakes';
import { consume, messageBatch } from '../support/queues';

// The scheduled cost import against the Facebook and TikTok fakes: the costs table holds the
// fake's numbers exactly, a re-run changes nothing, a platform correction replaces the old
// numbers, the statistics API shows the imported spend with ROI and CPA, and a failing platform
// raises an alert that a later success clears. The installation's time zone is New York.

const SINCE = '2026-11-10';
const UNTIL = '2026-11-12';
const FB_CAMPAIGN = '120209900000001';

let token: string;
let campaignId: number;
let expected: ExpectedRow[];

type CostRow = {
  day: string;
  target: string;
  source: string;
  impressions: number;
  ad_clicks: number;
  spend_micros: number;
};

async function costs(id = campaignId, source = 'facebook'): Promise<CostRow[]> {
  const { results } = await env.DB.prepare(
    `SELECT day, target, source, impressions, ad_clicks, spend_micros FROM costs
     WHERE campaign_id = ?1 AND source = ?2 ORDER BY day, target`,
  )
    .bind(id, source)
    .all<CostRow>();
  return results;
}

const asCosts = (rows: ExpectedRow[], source = 'facebook') =>
  rows
    .map((r) => ({
      day: r.date,
      target: r.ad_id,
      source,
      impressions: r.impressions,
      ad_clicks: r.clicks,
      spend_micros: r.spend_micros,
    }))
    .sort((a, b) => a.day.localeCompare(b.day) || a.target.localeCompare(b.target));

/** Runs one sync message through the Worker's queue handler; answers how the message ended. */
async function runSync(id: number, platform: string, attempts = 1) {
  const batch = messageBatch('tracker-stats', [
    {
      id: `sync-${id}-${platform}`,
      attempts,
      body: { kind: 'platform-sync', campaignId: id, platform, since: SINCE, until: UNTIL },
    },
  ]);
  // getQueueResult does not report a retry's delay: the spy keeps what the consumer asked for.
  const retry = vi.spyOn(batch.messages[0], 'retry');
  const result = await consume(batch);
  return { ...result, retryDelays: retry.mock.calls.map(([options]) => options?.delaySeconds) };
}

const alerts = (id = campaignId) => campaignAlerts(id);

/** The failed-sync alerts only (the account's time zone has an alert of its own). */
const syncAlerts = async (id = campaignId) =>
  (await alerts(id)).filter((a) => a.key.startsWith('platform-sync:'));

const visit = (id: string, target: string, at: number): TrackEvent =>
  visitEvent({ id, c: campaignId, at, tgt: target });
const sale = (id: string, offer: number, at: number): TrackEvent =>
  conversionEvent({ id, c: campaignId, o: offer, at });

beforeAll(async () => {
  token = await setupInstallation();
  campaignId = await makeCampaign(token, { name: 'Synced from Facebook', cpc: '0.10' });
  const offer = await makeOffer(token, campaignId, { name: 'Offer', payout: '50' });
  await setCredential(env, 'facebook', null, { token: 'fb-sync-token' });
  const link = await api('/api/integrations/campaign-link', {
    token,
    body: { campaignId, platform: 'facebook', externalCampaignId: FB_CAMPAIGN },
  });
  expect(link.status).toBe(200);
  expect(link.body.data.message).toBe('The campaign link was saved.');
  expected = await expectedRows('facebook', FB_CAMPAIGN, SINCE, UNTIL);
  // Our own numbers for the first ad on the 10th (15:00 UTC is 10:00 in New York): 8 visits, 2 sales of $50.
  const adId = expected[0].ad_id;
  const at = Date.UTC(2026, 10, 10, 15);
  const events: TrackEvent[] = [];
  for (let i = 0; i < 8; i++) events.push(visit(`v${i}`, adId, at));
  events.push(sale('v0', offer, at + 1000), sale('v1', offer, at + 1000));
  await ingestEvents(env, events);
});

describe('scheduled cost import', () => {
  it("writes the fake's impressions, clicks and spend per day and ad, and a re-run changes nothing", async () => {
    expect(expected).toHaveLength(9);
    const first = await runSync(campaignId, 'facebook');
    expect(first.explicitAcks).toEqual([`sync-${campaignId}-facebook`]);
    expect(await costs()).toEqual(asCosts(expected));

    const status = await api(`/api/integrations/sync-status?campaignId=${campaignId}`, { token });
    expect(status.status).toBe(200);
    expect(status.body.data.links).toEqual([
      expect.objectContaining({
        platform: 'facebook',
        externalCampaignId: FB_CAMPAIGN,
        lastError: '',
        syncedFrom: SINCE,
        syncedTo: UNTIL,
        rowsImported: 9,
        lastSuccessAt: expect.any(Number),
      }),
    ]);

    await runSync(campaignId, 'facebook');
    expect(await costs()).toEqual(asCosts(expected));
    const { n } = (await env.DB.prepare('SELECT count(*) AS n FROM costs WHERE campaign_id = ?1')
      .bind(campaignId)
      .first<{ n: number }>())!;
    expect(n).toBe(9);
  });

  it('replaces the old numbers when the platform corrects a past day', async () => {
    const fix = expected[1];
    await scenario(FB_CAMPAIGN, {
      revise: { day: fix.date, ad_id: fix.ad_id, impressions: 1234, clicks: 56, spend: '78.90' },
    });
    try {
      await runSync(campaignId, 'facebook');
      const rows = await costs();
      expect(rows).toHaveLength(9);
      expect(rows.find((r) => r.day === fix.date && r.target === fix.ad_id)).toEqual({
        day: fix.date,
        target: fix.ad_id,
        source: 'facebook',
        impressions: 1234,
        ad_clicks: 56,
        spend_micros: 78_900_000,
      });
      const others = rows.filter((r) => !(r.day === fix.date && r.target === fix.ad_id));
      expect(others).toEqual(
        asCosts(expected).filter((r) => !(r.day === fix.date && r.target === fix.ad_id)),
      );
    } finally {
      await resetScenario(FB_CAMPAIGN);
      await runSync(campaignId, 'facebook');
    }
    expect(await costs()).toEqual(asCosts(expected));
  });

  it('keeps a hand entry under the platform row and the statistics show the imported spend, ROI and CPA', async () => {
    const ad = expected[0];
    const hand = await api('/api/costs', {
      token,
      body: { campaignId, date: ad.date, target: ad.ad_id, impressions: 1, ad_clicks: 1, spend: '1' },
    });
    expect(hand.status).toBe(200);
    // The hand row is kept, the platform's wins (docs/statistics.md), and a re-sync leaves the hand row alone.
    await runSync(campaignId, 'facebook');
    const manual = await costs(campaignId, 'manual');
    expect(manual).toEqual([
      {
        day: ad.date,
        target: ad.ad_id,
        source: 'manual',
        impressions: 1,
        ad_clicks: 1,
        spend_micros: 1_000_000,
      },
    ]);

    const body = { campaignId, startDate: '10-11-2026', endDate: '10-11-2026', force: true };
    const target = await targetReport(token, body);
    const records = target.targetRecords as any[];
    const row = records.find((r) => r.target === ad.ad_id);
    const spend = ad.spend_micros / 1_000_000;
    expect(row).toMatchObject({
      visits: 8,
      impressions: ad.impressions,
      clicks: ad.clicks,
      conversions: 2,
      revenue: 100,
      ad_spent: spend,
      roi: Math.round(((100 - spend) / spend) * 10_000) / 100,
      cpa: Math.round((spend / 2) * 100) / 100,
    });
    const dayTotal = expected.filter((r) => r.date === SINCE).reduce((s, r) => s + r.spend_micros, 0);
    expect(target.targetTotal.ad_spent).toBe(dayTotal / 1_000_000);
  });

  it("raises an alert with the platform message on failure, retries after the usage header's wait, and clears it on success", async () => {
    // Facebook's wait comes in X-Business-Use-Case-Usage, in minutes: 2 minutes is 120 s.
    await scenario(FB_CAMPAIGN, { fail: 'fail-429', retryAfter: 2 });
    try {
      const limited = await runSync(campaignId, 'facebook');
      expect(limited.retryMessages).toEqual([{ msgId: `sync-${campaignId}-facebook` }]);
      expect(limited.retryDelays).toEqual([120]);
      expect(await syncAlerts()).toEqual([
        expect.objectContaining({
          type: 'sync',
          key: 'platform-sync:facebook',
          message: 'Facebook costs could not be imported: (#17) User request limit reached',
        }),
      ]);
      // A 500 is retried with backoff (30 s doubling per attempt); the alert is not raised twice.
      await scenario(FB_CAMPAIGN, { fail: 'fail-500' });
      const broken = await runSync(campaignId, 'facebook', 3);
      expect(broken.retryDelays).toEqual([120]);
      expect(await syncAlerts()).toHaveLength(1);
      // An expired token is not retried: only the user can fix it.
      await scenario(FB_CAMPAIGN, { fail: 'fail-401' });
      const refused = await runSync(campaignId, 'facebook');
      expect(refused.retryMessages).toEqual([]);
      expect(refused.explicitAcks).toEqual([`sync-${campaignId}-facebook`]);
      const status = await api(`/api/integrations/sync-status?campaignId=${campaignId}`, { token });
      expect(status.body.data.links[0].lastError).toBe(
        'Facebook: Error validating access token: Session has expired on Monday, 23-Nov-26 10:00:00 PST.',
      );
    } finally {
      await resetScenario(FB_CAMPAIGN);
    }
    // The numbers imported before the failures are still there.
    expect(await costs()).toEqual(asCosts(expected));
    await runSync(campaignId, 'facebook');
    expect(await syncAlerts()).toEqual([]);
    const status = await api(`/api/integrations/sync-status?campaignId=${campaignId}`, { token });
    expect(status.body.data.links[0].lastError).toBe('');
  });

  it('imports TikTok costs under their own source', async () => {
    const id = await makeCampaign(token, { name: 'Synced from TikTok' });
    await setCredential(env, 'tiktok', null, { token: 'tt-sync-token' });
    const link = await api('/api/integrations/campaign-link', {
      token,
      body: {
        campaignId: id,
        platform: 'tiktok',
        externalCampaignId: '1780000000099',
        externalAccountId: '7000000009',
      },
    });
    expect(link.status).toBe(200);
    await runSync(id, 'tiktok');
    expect(await costs(id, 'tiktok')).toEqual(
      asCosts(await expectedRows('tiktok', '1780000000099', SINCE, UNTIL), 'tiktok'),
    );
  });
});

describe('every platform', () => {
  it.each([
    ['taboola', '4400555', 'acct-9', { clientId: 'tb-client', token: 'tb-secret' }],
    ['mediago', '55555', '', { token: 'mg-token' }],
    ['liveintent', 'li-camp-55', '', { clientId: 'li-user', token: 'li-pass' }],
  ] as const)('imports %s costs exactly', async (platform, external, account, credential) => {
    const id = await makeCampaign(token, { name: `Synced from ${platform}` });
    await setCredential(env, platform, null, credential);
    await api('/api/integrations/campaign-link', {
      token,
      body: { campaignId: id, platform, externalCampaignId: external, externalAccountId: account },
    });
    expect((await runSync(id, platform)).explicitAcks).toEqual([`sync-${id}-${platform}`]);
    const want = asCosts(await expectedRows(platform, external, SINCE, UNTIL), platform);
    expect(want).toHaveLength(9);
    expect(await costs(id, platform)).toEqual(want);
  });

  it('says a platform is not connected when no credential is stored, and does not retry', async () => {
    const id = await makeCampaign(token, { name: 'No TikTok token' });
    await api('/api/integrations/campaign-link', {
      token,
      body: { campaignId: id, platform: 'tiktok', externalCampaignId: '1', externalAccountId: '2' },
    });
    await env.DB.prepare("DELETE FROM platform_credentials WHERE platform = 'tiktok'").run();
    const result = await runSync(id, 'tiktok');
    expect(result.retryMessages).toEqual([]);
    expect(await alerts(id)).toEqual([
      expect.objectContaining({
        type: 'sync',
        message: 'TikTok costs could not be imported: TikTok is not connected.',
      }),
    ]);
  });
});

describe('the cron', () => {
  it('queues one sync per linked campaign that is due, and not again within the interval', async () => {
    const id = await makeCampaign(token, { name: 'Due for a sync' });
    await api('/api/integrations/campaign-link', {
      token,
      body: { campaignId: id, platform: 'mediago', externalCampaignId: '55077' },
    });
    const send = vi.spyOn(env.STATS_QUEUE, 'sendBatch');
    try {
      const now = Date.now();
      expect(await enqueueDueSyncs(env, now)).toBeGreaterThanOrEqual(1);
      const bodies = send.mock.calls.flatMap(([msgs]) => [...msgs].map((m) => m.body));
      expect(bodies).toContainEqual({ kind: 'platform-sync', campaignId: id, platform: 'mediago' });
      expect(await enqueueDueSyncs(env, now + 1000)).toBe(0);
      expect(await enqueueDueSyncs(env, now + SYNC_INTERVAL_MS + 1)).toBeGreaterThanOrEqual(1);
    } finally {
      send.mockRestore();
    }
  });

  it('runs from the scheduled handler, linking a verified Facebook campaign by itself', async () => {
    const id = await makeCampaign(token, { name: 'Verified in the editor' });
    await env.DB.prepare(
      `UPDATE campaigns SET traffic_source = 'facebook', metainfo = json('{"facebook_campaign_id":"120209900000055","verified":true}') WHERE id = ?1`,
    )
      .bind(id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ scheduledTime: new Date(), cron: '*/5 * * * *' }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const link = await env.DB.prepare(
      'SELECT external_campaign_id, queued_at FROM platform_sync WHERE campaign_id = ?1',
    )
      .bind(id)
      .first<{ external_campaign_id: string; queued_at: number | null }>();
    expect(link?.external_campaign_id).toBe('120209900000055');
    expect(link?.queued_at).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('link and sync validation', () => {
  it('refuses a bad link with 422 messages and a foreign campaign with 404', async () => {
    const bad = await api('/api/integrations/campaign-link', {
      token,
      body: { campaignId, platform: 'myspace' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      platform: ['Select a valid platform.'],
      externalCampaignId: ['The campaign id on the platform is required.'],
    });
    const unknown = await api('/api/integrations/sync-now', {
      token,
      body: { campaignId: 999999, platform: 'facebook' },
    });
    expect(unknown.status).toBe(404);
    const unlinked = await api('/api/integrations/sync-now', {
      token,
      body: { campaignId, platform: 'taboola' },
    });
    expect(unlinked.status).toBe(422);
    expect(unlinked.body.message).toBe('This campaign is not linked to a campaign on its traffic source.');
    const queued = await api('/api/integrations/sync-now', {
      token,
      body: { campaignId, platform: 'facebook' },
    });
    expect(queued.body.data.message).toBe('The cost import was queued.');
    expect((await api(`/api/integrations/sync-status?campaignId=${campaignId}`)).status).toBe(401);
  });
});

describe("money and days in the platform's terms (docs/decisions/147)", () => {
  type Priced = {
    day: string;
    target: string;
    currency: string;
    platform_spend_micros: number;
    spend_micros: number;
  };
  async function priced(id: number, source: string): Promise<Priced[]> {
    const { results } = await env.DB.prepare(
      `SELECT day, target, currency, platform_spend_micros, spend_micros FROM costs
       WHERE campaign_id = ?1 AND source = ?2 ORDER BY day, target`,
    )
      .bind(id, source)
      .all<Priced>();
    return results;
  }
  const byDayAndTarget = (a: Priced, b: Priced) =>
    a.day.localeCompare(b.day) || a.target.localeCompare(b.target);
  const link = (body: Record<string, unknown>) => api('/api/integrations/campaign-link', { token, body });
  /** A new campaign linked to `platform` with a stored credential. */
  async function linkedCampaign(
    name: string,
    platform: 'tiktok' | 'taboola',
    externalCampaignId: string,
    externalAccountId: string,
    credential: { token: string; clientId?: string },
  ) {
    const id = await makeCampaign(token, { name });
    await setCredential(env, platform, null, credential);
    expect((await link({ campaignId: id, platform, externalCampaignId, externalAccountId })).status).toBe(
      200,
    );
    return id;
  }
  const status = async (id: number) =>
    (await api(`/api/integrations/sync-status?campaignId=${id}`, { token })).body.data.links[0];

  it('same currency and time zone: stores US dollars as billed, with no alert', async () => {
    const id = await linkedCampaign('TikTok in dollars', 'tiktok', '1780000000077', '7000000077', {
      token: 'tt-sync-token',
    });
    await scenario('7000000077', { currency: 'USD', timezone: 'America/New_York' });
    expect((await runSync(id, 'tiktok')).explicitAcks).toEqual([`sync-${id}-tiktok`]);
    const want = (await expectedRows('tiktok', '1780000000077', SINCE, UNTIL)).map((r) => ({
      day: r.date,
      target: r.ad_id,
      currency: 'USD',
      platform_spend_micros: r.spend_micros,
      spend_micros: r.spend_micros,
    }));
    expect(await priced(id, 'tiktok')).toEqual(want.sort(byDayAndTarget));
    expect(await alerts(id)).toEqual([]);
    expect(await status(id)).toMatchObject({
      accountCurrency: 'USD',
      accountTimeZone: 'America/New_York',
      usdRate: '',
    });
  });

  it('other currency: stores nothing as dollars and alerts until a rate is entered, then converts at that rate', async () => {
    const id = await makeCampaign(token, { name: 'Facebook in euros' });
    await scenario('act_777000111', { currency: 'EUR', timezone: 'America/New_York' });
    const fbCampaign = '120209900000077';
    await link({
      campaignId: id,
      platform: 'facebook',
      externalCampaignId: fbCampaign,
      externalAccountId: '777000111',
    });
    const first = await runSync(id, 'facebook');
    // Not a platform failure: nothing to retry until the user acts.
    expect(first.retryMessages).toEqual([]);
    expect(first.explicitAcks).toEqual([`sync-${id}-facebook`]);
    expect(await priced(id, 'facebook')).toEqual([]);
    expect(await alerts(id)).toEqual([
      expect.objectContaining({
        type: 'sync',
        key: 'platform-currency:facebook',
        message:
          "Facebook bills this ad account in EUR, and its spend is not imported as US dollars. Enter on the campaign's Facebook link how many US dollars one EUR is worth; the next sync then imports the spend converted at that rate.",
      }),
    ]);
    expect(await status(id)).toMatchObject({
      accountCurrency: 'EUR',
      lastError: "Spend is in EUR: enter a US-dollar rate on the campaign's link in its editor to import it.",
    });

    const bad = await link({
      campaignId: id,
      platform: 'facebook',
      externalCampaignId: fbCampaign,
      usdRate: '-1',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      usdRate: [
        "Enter the rate as US dollars for one unit of the ad account's currency (a positive number, up to 6 decimals).",
      ],
    });
    const saved = await link({
      campaignId: id,
      platform: 'facebook',
      externalCampaignId: fbCampaign,
      externalAccountId: '777000111',
      usdRate: '1.08',
    });
    expect(saved.status).toBe(200);
    await runSync(id, 'facebook');
    const want = (await expectedRows('facebook', fbCampaign, SINCE, UNTIL)).map((r) => ({
      day: r.date,
      target: r.ad_id,
      currency: 'EUR',
      platform_spend_micros: r.spend_micros,
      spend_micros: Math.round((r.spend_micros * 108) / 100),
    }));
    expect(want).toHaveLength(9);
    expect(await priced(id, 'facebook')).toEqual(want.sort(byDayAndTarget));
    expect(await alerts(id)).toEqual([]);
    expect(await status(id)).toMatchObject({ accountCurrency: 'EUR', usdRate: '1.08', lastError: '' });
  });

  it("other time zone: keeps the platform's dates and says how days are mapped, until the zones match", async () => {
    const id = await linkedCampaign('Taboola in Berlin', 'taboola', '4400777', 'acct-berlin', {
      clientId: 'tb-client',
      token: 'tb-secret',
    });
    await scenario('acct-berlin', { currency: 'USD', timezone: 'Europe/Berlin' });
    await runSync(id, 'taboola');
    const expectedDays = (await expectedRows('taboola', '4400777', SINCE, UNTIL)).map((r) => r.date);
    expect([...new Set((await priced(id, 'taboola')).map((r) => r.day))]).toEqual([...new Set(expectedDays)]);
    expect(await alerts(id)).toEqual([
      expect.objectContaining({
        type: 'sync',
        key: 'platform-timezone:taboola',
        message:
          "Taboola counts this ad account's days in Europe/Berlin; this installation counts days in America/New_York. Each Taboola day's spend is stored on the same date here, so a date's spend and its visits cover different hours. Set the installation time zone or the ad account time zone so that they match.",
      }),
    ]);
    expect(await status(id)).toMatchObject({ accountTimeZone: 'Europe/Berlin' });
    await scenario('acct-berlin', { timezone: 'America/New_York' });
    await runSync(id, 'taboola');
    expect(await alerts(id)).toEqual([]);
  });
});

describe('a Facebook token that runs out (docs/decisions/146)', () => {
  it('alerts the campaigns it syncs a week before it runs out, and the alert goes with a new token', async () => {
    const now = Date.now();
    // Three days left (relative to now, so the test does not age).
    await setCredential(env, 'facebook', null, { token: 'fb-sync-token', expiresAt: now + 3 * 86_400_000 });
    await runSync(campaignId, 'facebook');
    const day = new Date(now + 3 * 86_400_000).toISOString().slice(0, 10);
    expect((await alerts()).filter((a) => a.key === 'platform-token:facebook')).toEqual([
      expect.objectContaining({
        type: 'sync',
        message: `The Facebook connection that imports this campaign's spend runs out on ${day} (UTC). Connect Facebook again in Integrations before then, or the cost import stops.`,
      }),
    ]);
    await setCredential(env, 'facebook', null, { token: 'fb-sync-token', expiresAt: now + 60 * 86_400_000 });
    await runSync(campaignId, 'facebook');
    expect((await alerts()).filter((a) => a.key === 'platform-token:facebook')).toEqual([]);
  });
});
