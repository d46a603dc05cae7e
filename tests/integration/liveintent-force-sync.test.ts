import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FORCE_SYNC_MESSAGES as F, LIVEINTENT_MESSAGES as M } from '../../schema/liveintent-api';
import type { Env } from '../../worker/env';
import { setCredential } from '../../worker/services/integrations/credentials';
import {
  type ForceSyncMessage,
  forceSyncStatus,
  runForceSyncDay,
  startForceSync,
  stopForceSync,
} from '../../worker/services/liveintent/force-sync';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';
import { expectedRows, resetScenario, scenario } from '../support/platform-fakes';

// The force sync of LiveIntent costs (issue 13, spec 3 §4, §7): the whole pipeline through the
// statistics queue, and its states one day at a time (stop mid-way, a platform error).

let token: string;

beforeAll(async () => {
  token = await setupInstallation();
  await setCredential(env, 'liveintent', null, { clientId: 'li-user', token: 'li-pass' });
});

/** A liveintent campaign linked to the LiveIntent campaign `ref`. */
async function linked(ref: string) {
  const id = await makeCampaign(token, { name: `Force ${ref}`, trafficSource: 'liveintent' });
  const link = await api('/api/integrations/campaign-link', {
    token,
    body: { campaignId: id, platform: 'liveintent', externalCampaignId: ref },
  });
  expect(link.status).toBe(200);
  return id;
}

const call = (verb: string, campaignId: number) => api(`/api/${verb}`, { token, body: { campaignId } });

async function liveintentCosts(id: number) {
  const rows = await env.DB.prepare(
    "SELECT day, target, impressions, ad_clicks, spend_micros FROM costs WHERE campaign_id = ?1 AND source = 'liveintent' ORDER BY day, target",
  )
    .bind(id)
    .all();
  return rows.results;
}

async function range(id: number) {
  return (await env.DB.prepare('SELECT since, until FROM liveintent_force_sync WHERE campaign_id = ?1')
    .bind(id)
    .first<{ since: string; until: string }>())!;
}

/** The service with a queue that only records what it was sent, so each day runs when the test says. */
function manualQueue() {
  const sent: ForceSyncMessage[] = [];
  const testEnv = {
    ...env,
    STATS_QUEUE: { send: async (m: ForceSyncMessage) => void sent.push(m) },
  } as unknown as Env;
  return { sent, testEnv };
}

describe('force sync through the statistics queue', () => {
  it('imports every day of the report into the costs and says it is done', async () => {
    const id = await linked('li-force-1');
    const idle = await call('liveintent-get-force-sync-status', id);
    expect(idle.body.data).toEqual({ status: 'idle', message: '', progressLogs: [], completedMessage: '' });

    const started = await call('liveintent-force-sync', id);
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ status: 'started', message: F.started, progressLogs: [] });

    await vi.waitUntil(
      async () => (await call('liveintent-get-force-sync-status', id)).body.data.status === 'done',
      {
        timeout: 15_000,
        interval: 200,
      },
    );
    const { since, until } = await range(id);
    const done = (await call('liveintent-get-force-sync-status', id)).body.data;
    expect(done.message).toBe(F.completed);
    expect(done.progressLogs).toHaveLength(7);
    expect(done.progressLogs[0]).toMatch(new RegExp(`^${since}: 3 rows, \\$\\d+\\.\\d{2} spend$`));
    expect(done.completedMessage).toBe(`LiveIntent costs were synced from ${since} to ${until}.`);

    const want = (await expectedRows('liveintent', 'li-force-1', since, until))
      .map((r) => ({
        day: r.date,
        target: r.ad_id,
        impressions: r.impressions,
        ad_clicks: r.clicks,
        spend_micros: r.spend_micros,
      }))
      .sort((a, b) => (a.day + a.target).localeCompare(b.day + b.target));
    expect(want).toHaveLength(21);
    expect(await liveintentCosts(id)).toEqual(want);

    const dismissed = await call('liveintent-update-force-sync-completed-status', id);
    expect(dismissed.body.data).toMatchObject({ status: 'done', completedMessage: '' });
  });

  it('refuses a campaign of another traffic source, and one with nothing to sync', async () => {
    const other = await makeCampaign(token, { name: 'Not native', trafficSource: 'taboola' });
    const refused = await call('liveintent-force-sync', other);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(M.notLiveIntent);
    const unlinked = await makeCampaign(token, { name: 'Unlinked', trafficSource: 'liveintent' });
    const nothing = await call('liveintent-force-sync', unlinked);
    expect(nothing.status).toBe(422);
    expect(nothing.body.message).toBe(F.nothingToSync);
    expect((await call('liveintent-force-sync', 0)).status).toBe(422);
  });
});

describe('force sync, one day at a time', () => {
  it('honours a stop between days and keeps the days already imported', async () => {
    const id = await linked('li-force-stop');
    const { sent, testEnv } = manualQueue();
    await startForceSync(testEnv, id, 1);
    expect(sent).toHaveLength(1);
    expect(await runForceSyncDay(testEnv, sent[0], 1)).toBe('next');
    expect(await runForceSyncDay(testEnv, sent[1], 1)).toBe('next');
    const midway = await forceSyncStatus(testEnv, id);
    expect(midway.status).toBe('in-progress');
    expect(midway.message).toBe('Syncing LiveIntent costs: 2 of 7 days done.');
    expect(midway.progressLogs).toHaveLength(2);
    expect((await call('liveintent-force-sync', id)).status).toBe(409);

    await stopForceSync(testEnv, id);
    expect(await runForceSyncDay(testEnv, sent[2], 1)).toBe('finished');
    expect(sent).toHaveLength(3);
    const stopped = await forceSyncStatus(testEnv, id);
    expect(stopped).toMatchObject({ status: 'idle', message: F.stopped });
    expect(stopped.progressLogs).toHaveLength(2);
    const days = new Set((await liveintentCosts(id)).map((r) => r.day));
    expect(days.size).toBe(2);
  });

  it('stops with the error status when LiveIntent refuses, and retries a 500 before giving up', async () => {
    const id = await linked('li-force-err');
    const { sent, testEnv } = manualQueue();
    await startForceSync(testEnv, id, 1);
    await scenario('li-force-err', { fail: 'fail-500' });
    try {
      expect(await runForceSyncDay(testEnv, sent[0], 1)).toBe('retry');
      expect((await forceSyncStatus(testEnv, id)).status).toBe('started');
      expect(await runForceSyncDay(testEnv, sent[0], 3)).toBe('finished');
      const failed = await forceSyncStatus(testEnv, id);
      expect(failed.status).toBe('error');
      expect(failed.message).toMatch(/^Force sync failed on \d{4}-\d{2}-\d{2}: E0500 SRV: server$/);

      await scenario('li-force-err', { fail: 'fail-401' });
      await startForceSync(testEnv, id, 1);
      expect(await runForceSyncDay(testEnv, sent[1], 1)).toBe('finished');
      expect(await forceSyncStatus(testEnv, id)).toMatchObject({ status: 'error' });
      expect((await forceSyncStatus(testEnv, id)).message).toMatch(/E0401 AUTH: token$/);
      // A message of the earlier run does nothing once a new run has started.
      expect(await runForceSyncDay(testEnv, sent[0], 1)).toBe('finished');
    } finally {
      await resetScenario('li-force-err');
    }
    expect(await liveintentCosts(id)).toEqual([]);
  });
});
