import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { STATS_MESSAGES } from '../../schema/stats-api';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';
import { visitEvent } from '../support/events';

// The parts of POST /api/statistics that describe the campaign's state (issue 30 part A,
// spec 3 §3, §7, §8; docs/decisions/169): forceSyncCompletedStatus, liveintentStatus, each extra
// token's `default` and target.totalCount, each computed from what it describes.

let token: string;
const AT = Date.UTC(2026, 10, 10, 15, 0);

const stats = (campaignId: number, body: Record<string, unknown> = {}) =>
  api('/api/statistics', { token, body: { campaignId, startDate: '', endDate: '', ...body } });

async function liveIntentCampaign(name: string) {
  const id = await makeCampaign(token, { name, trafficSource: 'liveintent' });
  const link = await api('/api/integrations/campaign-link', {
    token,
    body: { campaignId: id, platform: 'liveintent', externalCampaignId: `li-${id}` },
  });
  expect(link.status).toBe(200);
  return id;
}

const syncError = (id: number, message: string, at: number) =>
  env.DB.prepare(
    "UPDATE platform_sync SET last_error = ?2, last_error_at = ?3 WHERE campaign_id = ?1 AND platform = 'liveintent'",
  )
    .bind(id, message, at)
    .run();

beforeAll(async () => {
  token = await setupInstallation();
});

describe('POST /api/statistics: the state answers', () => {
  it('answers no force sync message and no LiveIntent error for a campaign of another source', async () => {
    const id = await makeCampaign(token, { name: 'State taboola', trafficSource: 'taboola' });
    const res = await stats(id);
    expect(res.status).toBe(200);
    expect(res.body.data.forceSyncCompletedStatus).toBeNull();
    expect(res.body.data.liveintentStatus).toEqual({ error: false, hideNotif: true, message: '' });
  });

  it("answers the force sync's completed message until it is dismissed", async () => {
    const id = await liveIntentCampaign('State force sync');
    expect((await stats(id)).body.data.forceSyncCompletedStatus).toBeNull();
    await env.DB.prepare(
      "INSERT INTO liveintent_force_sync (campaign_id, status, message, completed_message, updated_at) VALUES (?1, 'done', 'Force sync completed.', 'Force sync completed: 3 days imported.', ?2)",
    )
      .bind(id, Date.now())
      .run();
    expect((await stats(id)).body.data.forceSyncCompletedStatus).toBe(
      'Force sync completed: 3 days imported.',
    );
    const dismissed = await api('/api/liveintent-update-force-sync-completed-status', {
      token,
      body: { campaignId: id },
    });
    expect(dismissed.status).toBe(200);
    expect((await stats(id)).body.data.forceSyncCompletedStatus).toBeNull();
  });

  it("answers the LiveIntent sync's last error, hidden once dismissed and shown again when a newer one comes", async () => {
    const id = await liveIntentCampaign('State LiveIntent error');
    expect((await stats(id)).body.data.liveintentStatus).toEqual({
      error: false,
      hideNotif: true,
      message: '',
    });
    // Nothing to dismiss yet.
    const early = await api('/api/liveintent-dismiss-sync-error', { token, body: { campaignId: id } });
    expect(early.status).toBe(404);
    expect(early.body.message).toBe(STATS_MESSAGES.noSyncError);

    await syncError(id, 'LiveIntent refused the credentials (401).', 1_000);
    expect((await stats(id)).body.data.liveintentStatus).toEqual({
      error: true,
      hideNotif: false,
      message: 'LiveIntent refused the credentials (401).',
    });

    const dismissed = await api('/api/liveintent-dismiss-sync-error', { token, body: { campaignId: id } });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data).toEqual({
      error: true,
      hideNotif: true,
      message: 'LiveIntent refused the credentials (401).',
    });
    expect((await stats(id)).body.data.liveintentStatus.hideNotif).toBe(true);

    await syncError(id, 'LiveIntent did not answer in time.', 2_000);
    expect((await stats(id)).body.data.liveintentStatus).toEqual({
      error: true,
      hideNotif: false,
      message: 'LiveIntent did not answer in time.',
    });
  });

  it('refuses the dismissal for a campaign that is not LiveIntent', async () => {
    const id = await makeCampaign(token, { name: 'State dismiss taboola', trafficSource: 'taboola' });
    const res = await api('/api/liveintent-dismiss-sync-error', { token, body: { campaignId: id } });
    expect(res.status).toBe(403);
  });

  it("marks as default the extra tokens of the traffic source's template", async () => {
    const id = await makeCampaign(token, {
      name: 'State tokens',
      trafficSource: 'taboola',
      extratokens: [
        { token_name: 'Site', parameter: 'site' },
        { token_name: 'My sub', parameter: 'sub1' },
        { token_name: 'Item', parameter: 'campaign_item_id' },
      ],
    });
    const tokens = (await stats(id)).body.data.extraTokens;
    expect(tokens).toEqual([
      { token_name: 'Site', parameter: 'site', default: true },
      { token_name: 'My sub', parameter: 'sub1', default: false },
      { token_name: 'Item', parameter: 'campaign_item_id', default: true },
    ]);
  });

  it('answers the target row count once the target job has run', async () => {
    const id = await makeCampaign(token, { name: 'State targets' });
    await ingestEvents(
      env,
      ['A', 'B', 'C', 'A'].map((tgt, i) => visitEvent({ id: `state-v${i}`, c: id, at: AT + i, tgt })),
    );
    const first = await stats(id);
    expect(first.status).toBe(200);
    // The first answer comes before its job runs.
    expect(first.body.data.target).toEqual({ currentPage: 1, totalCount: null });
    const queueId = first.body.data.queueId;
    await vi.waitUntil(
      async () => {
        const job = await api('/api/get-target-statistics', { token, body: { uuid: queueId } });
        return job.body.data.done;
      },
      { timeout: 15_000, interval: 100 },
    );
    // The same request again reuses the job that ran: three targets (A, B, C).
    const again = await stats(id);
    expect(again.body.data.queueId).toBe(queueId);
    expect(again.body.data.target).toEqual({ currentPage: 1, totalCount: 3 });
    const searched = await stats(id, { search: 'b' });
    expect(searched.body.data.target.totalCount).toBeNull();
  });
});
