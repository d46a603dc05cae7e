import type { Env } from '../env';
import { type ForceSyncMessage, failForceSync, runForceSyncDay } from '../services/liveintent/force-sync';

// The LiveIntent force sync's messages on the statistics queue (docs/decisions/091): one day per
// message; a retryable platform failure retries the same day with a short backoff.

export async function handleForceSyncMessage(message: Message<unknown>, env: Env, deadLetter: boolean) {
  const body = message.body as ForceSyncMessage;
  if (deadLetter) {
    await failForceSync(env, body);
    message.ack();
    return;
  }
  try {
    const outcome = await runForceSyncDay(env, body, message.attempts);
    if (outcome === 'retry') message.retry({ delaySeconds: 5 * message.attempts });
    else message.ack();
  } catch (err) {
    console.error('force sync message failed', body.campaignId, err);
    message.retry({ delaySeconds: 10 });
  }
}
