import type { Env } from '../env';
import { trackingSettings } from '../services/settings';
import { beginDurable, waitForDurable } from './batcher';
import { handleTracking } from './handler';

// The tracking routes' entry point. In the default `batched` mode a click is answered at once
// and its event reaches the queue within the batch window (docs/tracking.md "When a click is
// durable"); an installation in `durable` mode (setting tracking_mode) answers only after the
// queue accepted the events of the request (docs/decisions/043).

export async function trackingAnswer(request: Request, env: Env, ctx: ExecutionContext) {
  // The API never tracks; and a failed settings read is handleTracking's to answer. Settings
  // come from the click's cache (docs/decisions/100): no D1 wait while any copy exists.
  const api = request.url.indexOf('/api/') === request.url.indexOf('/', 8);
  if (api) return handleTracking(request, env, ctx);
  let settings = trackingSettings(env, ctx);
  if (settings instanceof Promise) {
    try {
      settings = await settings;
    } catch {
      return handleTracking(request, env, ctx);
    }
  }
  if (settings.tracking_mode !== 'durable') return handleTracking(request, env, ctx, settings);
  beginDurable(ctx);
  try {
    return await handleTracking(request, env, ctx, settings);
  } finally {
    await waitForDurable(env, ctx);
  }
}
