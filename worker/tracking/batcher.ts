import type { TrackEvent } from '../../schema/tracking';
import type { Env } from '../env';
import { deliver, recordLoss } from '../services/hot-path/ingest-delivery';

// Micro-batching of tracking events (ARCHITECTURE "The tracking hot path"): the isolate
// appends each event to an in-memory batch; the request that opens a batch flushes it in its
// own waitUntil after WINDOW_MS (or sooner once the batch is full) as ONE queue message,
// delivered by worker/services/hot-path/ingest-delivery.ts (retries, then D1, then the R2 spool).

const WINDOW_MS = 10;
const MAX_EVENTS = 100;
/** Queue messages are capped at 128 KB; stay well below. */
const MAX_BYTES = 96 * 1024;

type Batch = { events: TrackEvent[]; bytes: number; full: boolean };
let open: Batch | null = null;

/**
 * The events of requests of an installation in `durable` mode (docs/decisions/043). A request
 * may not wait on another request's promise (workerd refuses I/O across requests), so a
 * durable request sends its own events, as one message, before it answers.
 */
const durableEvents = new WeakMap<ExecutionContext, TrackEvent[]>();

/** Marks this request as durable: its events are held for waitForDurable instead of the shared batch. */
export function beginDurable(ctx: ExecutionContext): void {
  durableEvents.set(ctx, []);
}

/** Where a durable request's events went; `lost` when every store refused them (decision 126). */
export type DurableOutcome = 'none' | 'queued' | 'direct' | 'spooled' | 'lost';

/**
 * Sends this durable request's events and waits until the queue (or D1, or the R2 spool) took
 * them; answers which one did. When none did, the loss is counted at once and recorded (D1 row,
 * campaign alert) in the request's waitUntil, so the redirect does not also wait on that.
 */
export async function waitForDurable(env: Env, ctx: ExecutionContext): Promise<DurableOutcome> {
  const events = durableEvents.get(ctx);
  durableEvents.delete(ctx);
  if (!events?.length) return 'none';
  try {
    return await deliver(env, events);
  } catch {
    ctx.waitUntil(recordLoss(env, events));
    return 'lost';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Hands one event to the ingest queue, batched with the other events of the next few milliseconds. */
export function track(env: Env, ctx: ExecutionContext, event: TrackEvent): void {
  const own = durableEvents.get(ctx);
  if (own) {
    own.push(event);
    return;
  }
  const size = approximateSize(event);
  if (open && (open.full || open.events.length >= MAX_EVENTS || open.bytes + size > MAX_BYTES)) {
    open.full = true;
    open = null;
  }
  if (!open) {
    const batch: Batch = { events: [], bytes: 0, full: false };
    open = batch;
    // Only the opening request waits for the flush: no promise crosses request contexts.
    ctx.waitUntil(flushAfterWindow(env, batch));
  }
  open.events.push(event);
  open.bytes += size;
}

/**
 * An upper bound of the event's size as JSON in UTF-8, without serialising it on the hot path:
 * stored text has no control characters (clip), so a UTF-16 unit takes at most 3 bytes.
 */
function approximateSize(event: TrackEvent): number {
  if (event.k !== 'v') return 400 + 3 * event.id.length;
  let size =
    300 + 3 * (event.id.length + event.tgt.length + event.kw.length + event.ref.length + event.ua.length);
  for (const slot in event.tok) size += 16 + 3 * event.tok[slot].length;
  return size;
}

async function flushAfterWindow(env: Env, batch: Batch): Promise<void> {
  await sleep(WINDOW_MS);
  if (open === batch) open = null;
  batch.full = true;
  try {
    await deliver(env, batch.events);
  } catch {
    await recordLoss(env, batch.events);
  }
}
