import { eq } from 'drizzle-orm';
import { liveintentForceSync } from '../../../schema/liveintent';
import { FORCE_SYNC_MESSAGES as F, type ForceSyncAnswer } from '../../../schema/liveintent-api';
import type { Env } from '../../env';
import { type AdDay, PlatformError } from '../../integrations/http';
import { getDb } from '../../lib/db';
import { ApiError } from '../../lib/errors';
import { dayIn } from '../ingest/days';
import { replacePlatformCosts } from '../integrations/cost-sync';
import { fetchAdDays } from '../integrations/platform-reports';
import { getSettings } from '../settings/settings';
import { liveIntentAccounts } from '../settings/settings-form';
import { linkedRows } from './objects';

// Force sync of a campaign's LiveIntent costs (spec 3 §4, §7; docs/decisions/091): a job on the
// statistics queue that imports the platform's report one day per message into the costs table,
// so a stop is honoured between days and no message runs long. The row is the state the panel
// polls: idle, started, in-progress, error, done.

export type ForceSyncMessage = { kind: 'liveintent-force-sync'; campaignId: number; runId: string };

export const isForceSyncMessage = (body: unknown): body is ForceSyncMessage =>
  (body as { kind?: unknown } | null)?.kind === 'liveintent-force-sync';

/** 'All' days of Settings is capped here: a force sync is for recent corrections. */
const MAX_DAYS = 90;
/** A retryable failure (429, 5xx, timeout) gets this many tries of the same day. */
const FORCE_SYNC_ATTEMPTS = 3;

const addDays = (day: string, n: number) => {
  const t = Date.parse(`${day}T00:00:00Z`) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
};
const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

type Row = typeof liveintentForceSync.$inferSelect;

function answer(row: Row | undefined): ForceSyncAnswer {
  if (!row) return { status: 'idle', message: '', progressLogs: [], completedMessage: '' };
  let logs: string[] = [];
  try {
    const parsed = JSON.parse(row.progressLogs);
    if (Array.isArray(parsed)) logs = parsed.map(String);
  } catch {
    logs = [];
  }
  return {
    status: row.status,
    message: row.message,
    progressLogs: logs,
    completedMessage: row.completedMessage,
  };
}

const read = (env: Env, campaignId: number) =>
  getDb(env).select().from(liveintentForceSync).where(eq(liveintentForceSync.campaignId, campaignId)).get();

export async function forceSyncStatus(env: Env, campaignId: number) {
  return answer(await read(env, campaignId));
}

/** The LiveIntent campaigns whose report a campaign's costs come from. */
async function platformCampaigns(env: Env, campaignId: number): Promise<string[]> {
  const link = await env.DB.prepare(
    "SELECT external_campaign_id FROM platform_sync WHERE campaign_id = ?1 AND platform = 'liveintent' AND enabled = 1",
  )
    .bind(campaignId)
    .first<{ external_campaign_id: string }>();
  const managed = (await linkedRows(env, campaignId, 'campaign')).map((r) => r.refId);
  return [...new Set([link?.external_campaign_id ?? '', ...managed].filter(Boolean))];
}

export async function startForceSync(env: Env, campaignId: number, userId: number) {
  const current = await read(env, campaignId);
  if (
    current &&
    (current.status === 'started' || current.status === 'in-progress') &&
    current.stopRequested === 0
  ) {
    throw new ApiError(409, F.running);
  }
  if ((await platformCampaigns(env, campaignId)).length === 0) throw new ApiError(422, F.nothingToSync);
  const settings = await getSettings(env);
  const { own } = await liveIntentAccounts(env);
  const wanted = own.retrieveNumDays > 0 ? Math.min(own.retrieveNumDays, MAX_DAYS) : MAX_DAYS;
  const until = dayIn(Date.now(), settings.time_zone);
  const since = addDays(until, -(wanted - 1));
  const runId = crypto.randomUUID();
  const values = {
    runId,
    status: 'started' as const,
    message: F.started,
    progressLogs: '[]',
    since,
    until,
    nextDay: since,
    stopRequested: 0,
    startedBy: userId,
    completedMessage: '',
    updatedAt: Date.now(),
  };
  await getDb(env)
    .insert(liveintentForceSync)
    .values({ campaignId, ...values })
    .onConflictDoUpdate({ target: liveintentForceSync.campaignId, set: values })
    .run();
  await env.STATS_QUEUE.send({ kind: 'liveintent-force-sync', campaignId, runId } satisfies ForceSyncMessage);
  return forceSyncStatus(env, campaignId);
}

/** Asks a running sync to stop; the job stops before its next day (spec 3 §4). */
export async function stopForceSync(env: Env, campaignId: number) {
  const current = await read(env, campaignId);
  if (current && (current.status === 'started' || current.status === 'in-progress')) {
    await getDb(env)
      .update(liveintentForceSync)
      .set({ stopRequested: 1, updatedAt: Date.now() })
      .where(eq(liveintentForceSync.campaignId, campaignId))
      .run();
  }
  return forceSyncStatus(env, campaignId);
}

/** Dismisses the completed message. */
export async function dismissForceSyncCompleted(env: Env, campaignId: number) {
  await getDb(env)
    .update(liveintentForceSync)
    .set({ completedMessage: '', updatedAt: Date.now() })
    .where(eq(liveintentForceSync.campaignId, campaignId))
    .run();
  return forceSyncStatus(env, campaignId);
}

async function save(env: Env, campaignId: number, set: Partial<Row>) {
  await getDb(env)
    .update(liveintentForceSync)
    .set({ ...set, updatedAt: Date.now() })
    .where(eq(liveintentForceSync.campaignId, campaignId))
    .run();
}

const dollars = (micros: number) => `$${(micros / 1_000_000).toFixed(2)}`;

/**
 * One day of a run. Answers what the queue should do with the message: 'next' (another message
 * for the next day was sent), 'finished' (done, stopped, failed or stale) or 'retry'.
 */
export async function runForceSyncDay(
  env: Env,
  msg: ForceSyncMessage,
  attempts: number,
): Promise<'next' | 'finished' | 'retry'> {
  const row = await read(env, msg.campaignId);
  // A message of an older run (restarted since) or of a finished one does nothing.
  if (!row || row.runId !== msg.runId || !(row.status === 'started' || row.status === 'in-progress'))
    return 'finished';
  if (row.stopRequested) {
    await save(env, msg.campaignId, { status: 'idle', message: F.stopped, stopRequested: 0 });
    return 'finished';
  }
  const day = row.nextDay;
  const total = daysBetween(row.since, row.until) + 1;
  const index = daysBetween(row.since, day) + 1;
  const owner = await env.DB.prepare('SELECT created_by FROM campaigns WHERE id = ?1')
    .bind(msg.campaignId)
    .first<{ created_by: number | null }>();
  let rows: AdDay[] = [];
  try {
    for (const ref of await platformCampaigns(env, msg.campaignId)) {
      const link = {
        campaignId: msg.campaignId,
        platform: 'liveintent' as const,
        externalAccountId: '',
        externalCampaignId: ref,
        ownerId: owner?.created_by ?? null,
      };
      rows = rows.concat(await fetchAdDays(env, link, day, day));
    }
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.retryable && attempts < FORCE_SYNC_ATTEMPTS) return 'retry';
    await save(env, msg.campaignId, {
      status: 'error',
      message: `Force sync failed on ${day}: ${err.detail}`,
    });
    return 'finished';
  }
  const count = await replacePlatformCosts(env, msg.campaignId, 'liveintent', rows, day, day);
  const spend = rows.reduce((sum, r) => sum + r.spendMicros, 0);
  const logs = [...answer(row).progressLogs, `${day}: ${count} rows, ${dollars(spend)} spend`];
  if (day >= row.until) {
    await save(env, msg.campaignId, {
      status: 'done',
      message: F.completed,
      progressLogs: JSON.stringify(logs),
      completedMessage: `LiveIntent costs were synced from ${row.since} to ${row.until}.`,
    });
    return 'finished';
  }
  await save(env, msg.campaignId, {
    status: 'in-progress',
    message: `Syncing LiveIntent costs: ${index} of ${total} days done.`,
    progressLogs: JSON.stringify(logs),
    nextDay: addDays(day, 1),
  });
  await env.STATS_QUEUE.send(msg);
  return 'next';
}

/** A run whose message reached the dead-letter queue. */
export async function failForceSync(env: Env, msg: ForceSyncMessage) {
  const row = await read(env, msg.campaignId);
  if (row?.runId === msg.runId && (row.status === 'started' || row.status === 'in-progress')) {
    await save(env, msg.campaignId, {
      status: 'error',
      message: 'Force sync failed: LiveIntent did not answer.',
    });
  }
}
