import type { IngestMessage, TrackEvent } from '../../schema/tracking';
import type { Env } from '../env';
import { ingestEvents } from './ingest';

// How a group of tracking events reaches storage (docs/decisions/014-hot-path.md): one ingest
// queue message, retried; then written to D1 directly; then spooled to R2 for the replay cron
// (worker/jobs/ingest.ts). A click is never dropped silently. The hot path's micro-batcher
// (worker/tracking/batcher.ts) and the spool replay both deliver through here.

const SEND_DELAYS_MS = [0, 25, 100];
export const SPOOL_PREFIX = 'ingest-spool/';

/** Numbers of the deliveries in this isolate, for the benchmark and tests. */
export const deliveryStats = { messages: 0, events: 0, sendFailures: 0, directWrites: 0, spooled: 0 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends events as one ingest message; on failure writes them to D1, else to the R2 spool. */
export async function deliver(env: Env, events: TrackEvent[]): Promise<'queued' | 'direct' | 'spooled'> {
  if (events.length === 0) return 'queued';
  const message: IngestMessage = { v: 1, events };
  for (const delay of SEND_DELAYS_MS) {
    if (delay) await sleep(delay);
    try {
      await env.INGEST_QUEUE.send(message, { contentType: 'json' });
      deliveryStats.messages += 1;
      deliveryStats.events += events.length;
      return 'queued';
    } catch (err) {
      deliveryStats.sendFailures += 1;
      console.warn('ingest queue send failed', err);
    }
  }
  try {
    await ingestEvents(env, events);
    deliveryStats.directWrites += events.length;
    return 'direct';
  } catch (err) {
    console.error('direct ingest write failed, spooling to R2', err);
  }
  const key = `${SPOOL_PREFIX}${Date.now()}-${crypto.randomUUID()}.json`;
  try {
    await env.BUCKET.put(key, JSON.stringify(message), { httpMetadata: { contentType: 'application/json' } });
    deliveryStats.spooled += events.length;
    return 'spooled';
  } catch (err) {
    // Nothing else is left: log every event so that it can be recovered from the logs.
    console.error('tracking events could not be stored', JSON.stringify(message), err);
    throw err;
  }
}
