import type { Env } from '../env';

export type QueueHandler = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;

/** Consumers by queue name; each job module registers its queue here. */
const consumers: Record<string, QueueHandler> = {};

export function registerConsumer(queue: string, handler: QueueHandler): void {
  consumers[queue] = handler;
}

export async function handleQueue(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const consumer = consumers[batch.queue.replace(/-dlq$/, '')];
  if (!consumer) {
    // An unknown queue is a deployment mistake: keep the messages for a retry, never drop them.
    console.error('no consumer for queue', batch.queue);
    batch.retryAll();
    return;
  }
  await consumer(batch, env, ctx);
}
