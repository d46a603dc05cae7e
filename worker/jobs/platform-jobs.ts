import type { Env } from '../env';
import { PlatformError } from '../integrations/http';
import {
  type AdRecordsMessage,
  cleanupAdRecords,
  failAdRecords,
  runAdRecords,
} from '../services/integrations/ad-records';
import {
  enqueueDueSyncs,
  giveUpSync,
  isPlatform,
  type PlatformSyncMessage,
  syncCampaignCosts,
} from '../services/integrations/cost-sync';

// Platform work on the statistics queue (docs/decisions/073): the scheduled cost sync and the ad
// performance records. A 429 is retried after the platform's Retry-After, a 5xx or a timeout with
// exponential backoff; refused credentials or a bad request are not retried (the alert says why).

export type PlatformMessage = PlatformSyncMessage | AdRecordsMessage;

const MAX_DELAY_SECONDS = 15 * 60;

export function isPlatformMessage(body: unknown): body is PlatformMessage {
  const kind = (body as { kind?: unknown } | null)?.kind;
  return kind === 'platform-sync' || kind === 'ad-records';
}

/** Seconds before the next try: the platform's Retry-After, else 30 s doubling per attempt. */
export function retryDelaySeconds(err: PlatformError, attempts: number): number {
  const backoff = 30 * 2 ** Math.max(0, attempts - 1);
  return Math.min(MAX_DELAY_SECONDS, Math.max(1, err.retryAfterSeconds ?? backoff));
}

/** One platform message of a statistics-queue batch (or of its dead-letter queue). */
export async function handlePlatformMessage(
  message: Message<unknown>,
  env: Env,
  deadLetter: boolean,
): Promise<void> {
  const body = message.body as PlatformMessage;
  if (body.kind === 'ad-records') {
    if (deadLetter) {
      await failAdRecords(env, body.jobId, 'The ad platform did not answer. Please try again later.');
      message.ack();
      return;
    }
    try {
      await runAdRecords(env, body.jobId);
      message.ack();
    } catch (err) {
      if (err instanceof PlatformError)
        message.retry({ delaySeconds: retryDelaySeconds(err, message.attempts) });
      else {
        console.error('ad records message failed', body.jobId, err);
        message.retry({ delaySeconds: 10 });
      }
    }
    return;
  }
  if (!Number.isInteger(body.campaignId) || !isPlatform(body.platform)) {
    console.error('platform sync message without a campaign or platform', body);
    message.ack();
    return;
  }
  if (deadLetter) {
    await giveUpSync(env, body.campaignId, body.platform);
    message.ack();
    return;
  }
  const window = body.since && body.until ? { since: body.since, until: body.until } : undefined;
  const outcome = await syncCampaignCosts(env, body.campaignId, body.platform, window);
  if (outcome.status === 'failed' && outcome.error.retryable) {
    message.retry({ delaySeconds: retryDelaySeconds(outcome.error, message.attempts) });
  } else {
    message.ack();
  }
}

/** Cron: queue the due cost syncs and drop day-old ad record jobs. */
export async function schedulePlatformSyncs(env: Env): Promise<void> {
  await enqueueDueSyncs(env);
  await cleanupAdRecords(env);
}
