import type { IngestMessage, TrackEvent } from '../../../schema/tracking';
import type { Env } from '../../env';
import { raiseAlert } from '../campaigns/alerts';
import { ingestEvents } from '../ingest/ingest';

// How a group of tracking events reaches storage (docs/decisions/014-hot-path.md): one ingest
// queue message, retried; then written to D1 directly; then spooled to R2 for the replay cron
// (worker/jobs/ingest.ts). A click is never dropped silently. The hot path's micro-batcher
// (worker/tracking/batcher.ts) and the spool replay both deliver through here.

const SEND_DELAYS_MS = [0, 25, 100];
export const SPOOL_PREFIX = 'ingest-spool/';

/**
 * Numbers of the deliveries in this isolate, for the benchmark and tests. `lost`: events that
 * every store refused (the queue, D1 and R2; docs/decisions/126).
 */
export const deliveryStats = {
  messages: 0,
  events: 0,
  sendFailures: 0,
  directWrites: 0,
  spooled: 0,
  lost: 0,
};

/** The settings row that counts lost events across isolates (not a setting: never in the API). */
export const LOST_EVENTS_KEY = 'tracking_lost_events';
/** Lost events this isolate could not yet add to LOST_EVENTS_KEY (D1 was down too). */
let unrecordedLoss = 0;

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

/**
 * Counts events of answered tracking requests that no store took (docs/decisions/126): at once in
 * this isolate, then, best effort, in D1 (the LOST_EVENTS_KEY row, with the losses of this
 * isolate that an earlier attempt could not add) and as an alert on each campaign concerned.
 * deliver() has already logged the events themselves. Never throws.
 */
export async function recordLoss(env: Pick<Env, 'DB'>, events: TrackEvent[]): Promise<void> {
  if (events.length === 0) return;
  deliveryStats.lost += events.length;
  // Taken whole, so that concurrent losses never write the same count twice.
  const count = unrecordedLoss + events.length;
  unrecordedLoss = 0;
  console.error(`tracking: ${events.length} events lost (queue, D1 and R2 refused them)`);
  try {
    await env.DB.prepare(
      `INSERT INTO settings (key, value) VALUES ('${LOST_EVENTS_KEY}', ?1)
       ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + ?1, updated_at = unixepoch() * 1000`,
    )
      .bind(count)
      .run();
  } catch (err) {
    unrecordedLoss += count;
    console.error(`tracking: ${count} lost events could not be counted in D1`, err);
  }
  const now = Date.now();
  const day = new Date(now).toISOString().slice(0, 10);
  const campaigns = [...new Set(events.map((e) => e.c))].slice(0, 20);
  for (const campaignId of campaigns) {
    try {
      await raiseAlert(env, campaignId, {
        type: 'tracking',
        key: `tracking-lost-${day}`,
        message: `Some clicks of ${day} (UTC) could not be stored: the queue, the database and the file store all refused them. The visitors were redirected; the clicks are missing from the statistics.`,
        created_at: now,
      });
    } catch (err) {
      console.error(`tracking: the lost-clicks alert of campaign ${campaignId} could not be raised`, err);
    }
  }
}
