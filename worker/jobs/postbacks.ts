import type { Env } from '../env';
import {
  deliverPostback,
  enqueuePostbacks,
  MAX_POSTBACK_ATTEMPTS,
  stalePostbackIds,
} from '../services/postbacks/postbacks';

// Delivers postbacks to traffic sources from the queue, with retries and backoff; every
// attempt is recorded in postback_log. A cron sweep re-sends pending ones whose message was lost.

export const POSTBACK_QUEUE = 'tracker-postbacks';
/** Pending postbacks untouched this long are re-sent (longer than the longest retry delay). */
const STALE_AFTER_MS = 15 * 60 * 1000;

const retryDelay = (attempts: number) => Math.min(900, 30 * 2 ** (attempts - 1));

export async function consumePostbacks(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  if (batch.queue.endsWith('-dlq')) return giveUp(batch, env);
  for (const message of batch.messages) {
    const id = Number((message.body as { id?: unknown } | null)?.id);
    if (!Number.isInteger(id) || id < 1) {
      message.ack();
      continue;
    }
    try {
      const outcome = await deliverPostback(env, id);
      if (outcome === 'retry' && message.attempts < MAX_POSTBACK_ATTEMPTS) {
        message.retry({ delaySeconds: retryDelay(message.attempts) });
      } else {
        message.ack();
      }
    } catch (err) {
      console.error('postback delivery failed', id, err);
      message.retry({ delaySeconds: retryDelay(message.attempts) });
    }
  }
}

/** A postback whose message died after every retry: marked failed (the alert cron reports it), never lost silently. */
async function giveUp(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const id = Number((message.body as { id?: unknown } | null)?.id);
    if (Number.isInteger(id) && id > 0) {
      await env.DB.prepare(
        "UPDATE postback_log SET status = 'failed', error = ?2, updated_at = ?3 WHERE id = ?1 AND status = 'pending'",
      )
        .bind(id, 'Gave up after every retry (dead-letter queue).', Date.now())
        .run();
    }
    message.ack();
  }
}

/** Cron: re-sends pending postbacks whose queue message was lost. */
export async function sweepPostbacks(env: Env): Promise<void> {
  const ids = await stalePostbackIds(env, STALE_AFTER_MS);
  if (ids.length) await enqueuePostbacks(env, ids);
}
