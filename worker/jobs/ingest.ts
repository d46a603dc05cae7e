import { type IngestMessage, isTrackEvent, type TrackEvent } from '../../schema/tracking';
import type { Env } from '../env';
import { deliver, SPOOL_PREFIX } from '../services/hot-path/ingest-delivery';
import { ingestEvents } from '../services/ingest/ingest';
import { enqueuePostbacks } from '../services/postbacks/postbacks';

// The ingest consumer (docs/tracking.md "Ingest"): writes the micro-batches of the hot path
// into the raw tables and rollups, exactly once. A landing-page click or conversion whose visit
// is not written yet is retried (the whole message; written events are skipped on replay) and
// kept as an orphan on its last attempt. Malformed messages and events go to R2 dead letters.

export const INGEST_QUEUE = 'tracker-ingest';
/** Deliveries of a message before an event still missing its visit is kept as an orphan. */
export const MAX_RESOLVE_ATTEMPTS = 3;
/** Events per D1 transaction: several messages are written together up to this many. */
const CHUNK_EVENTS = 500;
const DEAD_LETTER_PREFIX = 'dead-letters/';

const resolveDelay = (attempts: number) => Math.min(60, 10 * 2 ** (attempts - 1));
const failureDelay = (attempts: number) => Math.min(300, 5 * 4 ** (attempts - 1));

async function deadLetter(
  env: Env,
  queue: string,
  message: Message<unknown>,
  reason: string,
  body?: unknown,
) {
  const day = new Date().toISOString().slice(0, 10);
  await env.BUCKET.put(
    `${DEAD_LETTER_PREFIX}${queue}/${day}/${message.id}.json`,
    JSON.stringify({
      id: message.id,
      queue,
      reason,
      attempts: message.attempts,
      timestamp: message.timestamp,
      body: body ?? message.body,
    }),
    { httpMetadata: { contentType: 'application/json' } },
  );
}

export async function consumeIngest(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  if (batch.queue.endsWith('-dlq')) {
    // Messages that exhausted their retries: keep them for inspection and replay.
    for (const message of batch.messages) {
      await deadLetter(env, batch.queue, message, 'retries exhausted');
      message.ack();
    }
    return;
  }

  type Item = { message: Message<unknown>; events: TrackEvent[] };
  const items: Item[] = [];
  for (const message of batch.messages) {
    const body = message.body as IngestMessage | null;
    if (body?.v !== 1 || !Array.isArray(body.events)) {
      await deadLetter(env, batch.queue, message, 'malformed message');
      message.ack();
      continue;
    }
    const events = body.events.filter(isTrackEvent);
    if (events.length !== body.events.length) {
      const bad = body.events.filter((e) => !isTrackEvent(e));
      await deadLetter(env, batch.queue, message, 'malformed events', { v: 1, events: bad });
    }
    items.push({ message, events });
  }

  let chunk: Item[] = [];
  let size = 0;
  const chunks: Item[][] = [];
  for (const item of items) {
    if (chunk.length && size + item.events.length > CHUNK_EVENTS) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(item);
    size += item.events.length;
  }
  if (chunk.length) chunks.push(chunk);

  for (const part of chunks) {
    const events: TrackEvent[] = [];
    const owner: Item[] = [];
    for (const item of part) {
      for (const e of item.events) {
        events.push(e);
        owner.push(item);
      }
    }
    try {
      const result = await ingestEvents(
        env,
        events,
        (i) => owner[i].message.attempts >= MAX_RESOLVE_ATTEMPTS,
      );
      const waiting = new Set(result.unresolved.map((i) => owner[i]));
      for (const item of part) {
        if (waiting.has(item)) item.message.retry({ delaySeconds: resolveDelay(item.message.attempts) });
        else item.message.ack();
      }
      if (result.postbackIds.length) {
        // A failed send is not fatal: the sweeper re-sends pending postbacks.
        await enqueuePostbacks(env, result.postbackIds).catch((err) =>
          console.error('postback enqueue failed', err),
        );
      }
    } catch (err) {
      console.error('ingest write failed; messages will be retried', err);
      for (const item of part) item.message.retry({ delaySeconds: failureDelay(item.message.attempts) });
    }
  }
}

/** Events the hot path could neither queue nor write go to R2; this puts them back on the queue. */
export async function replaySpool(env: Env, limit = 50): Promise<number> {
  const listed = await env.BUCKET.list({ prefix: SPOOL_PREFIX, limit });
  let replayed = 0;
  for (const object of listed.objects) {
    const stored = await env.BUCKET.get(object.key);
    if (!stored) continue;
    const message = (await stored.json()) as IngestMessage;
    const outcome = await deliver(env, message.events);
    // A message that had to be spooled again is under a new key; either way this copy is done.
    await env.BUCKET.delete(object.key);
    if (outcome !== 'spooled') replayed += message.events.length;
  }
  return replayed;
}
