import type { Env } from '../env';
import { type Settings, trackingSettings } from '../services/settings/settings';
import { beginDurable, waitForDurable } from './batcher';
import { handleTracking } from './handler';
import { temporarilyUnavailable } from './pages';

// The tracking routes' entry point. In the default `batched` mode a click is answered at once
// and its event reaches the queue within the batch window (docs/tracking.md "When a click is
// durable"); an installation in `durable` mode (setting tracking_mode) answers only after the
// queue, D1 or the R2 spool accepted the events of the request (docs/decisions/043, 126).

export async function trackingAnswer(request: Request, env: Env, ctx: ExecutionContext) {
  // The API never tracks. Settings come from the click's cache (docs/decisions/100): no D1 wait
  // while any copy exists, and a failed check keeps the copy, so the mode is the last known one.
  const api = request.url.indexOf('/api/') === request.url.indexOf('/', 8);
  if (api) return handleTracking(request, env, ctx);
  let settings: Settings | Promise<Settings> | undefined = trackingSettings(env, ctx);
  if (settings instanceof Promise) {
    try {
      settings = await settings;
    } catch (err) {
      // No copy and D1 unreadable: the mode is unknown, so never silently batched; this request
      // is answered as durable mode answers (decision 126), through a second read of its routes.
      console.error('tracking: settings unreadable, answering in durable mode', err);
      settings = undefined;
    }
  }
  if (settings && settings.tracking_mode !== 'durable') return handleTracking(request, env, ctx, settings);
  beginDurable(ctx);
  try {
    return await handleTracking(request, env, ctx, settings);
  } catch (err) {
    // Only the second settings read throws here (handleTracking answers its own failures).
    console.error('tracking: settings unreadable twice', err);
    return temporarilyUnavailable();
  } finally {
    await waitForDurable(env, ctx);
  }
}
