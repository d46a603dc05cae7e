import type { Env } from '../env';
import { consumeIngest, INGEST_QUEUE } from './ingest';
import { consumeOperator, OPERATOR_QUEUE } from './operator';
import { consumePostbacks, POSTBACK_QUEUE } from './postbacks';
import { consumeStats, STATS_QUEUE } from './statistics';

export type QueueHandler = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;

/**
 * Every queue consumer, by queue name (wrangler.toml [[queues.consumers]]). A queue's dead-letter
 * queue (`<name>-dlq`) goes to the same consumer, which tells them apart by batch.queue.
 */
export const CONSUMERS: Readonly<Record<string, QueueHandler>> = {
  [INGEST_QUEUE]: consumeIngest,
  [POSTBACK_QUEUE]: consumePostbacks,
  [STATS_QUEUE]: consumeStats,
  [OPERATOR_QUEUE]: consumeOperator,
};

/**
 * The consumer of a queue by its name: as in wrangler.toml, or with an installation's name in front
 * (`acme-tracker-ingest`, `npm run deploy -- --name acme`, docs/decisions/128), and a dead-letter
 * queue's `-dlq` after it.
 */
export function consumerFor(queue: string): QueueHandler | undefined {
  const base = queue.replace(/-dlq$/, '');
  if (Object.hasOwn(CONSUMERS, base)) return CONSUMERS[base];
  const match = Object.keys(CONSUMERS).find((name) => base.endsWith(`-${name}`));
  return match ? CONSUMERS[match] : undefined;
}

export async function handleQueue(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const consumer = consumerFor(batch.queue);
  if (!consumer) {
    // An unknown queue is a deployment mistake: keep the messages for a retry, never drop them.
    console.error('no consumer for queue', batch.queue);
    batch.retryAll();
    return;
  }
  await consumer(batch, env, ctx);
}
