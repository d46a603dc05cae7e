import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import worker from '../../worker/index';

/** One message of a queue batch; its delivery attempt is the first unless `attempts` says otherwise. */
type Delivery = { id: string; body: unknown; attempts?: number };

/** A batch of `queue`'s messages as the platform hands it to the Worker. */
export function messageBatch(queue: string, messages: Delivery[]) {
  return createMessageBatch(
    queue,
    messages.map(({ id, body, attempts = 1 }) => ({ id, timestamp: new Date(), attempts, body })),
  );
}

/**
 * Runs `batch` through the Worker's queue handler; answers how its messages ended (acks and
 * retries) once the work the handler left running has settled.
 */
export async function consume(batch: ReturnType<typeof messageBatch>) {
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}
