import type { Env } from '../env';
import { getSettings } from '../services/settings';
import { beginDurable, waitForDurable } from './batcher';
import { handleTracking } from './handler';

// The tracking routes' entry point. In the default `batched` mode a click is answered at once
// and its event reaches the queue within the batch window (docs/tracking.md "When a click is
// durable"); an installation in `durable` mode (setting tracking_mode) answers only after the
// queue accepted the events of the request (docs/decisions/043).

export async function trackingAnswer(request: Request, env: Env, ctx: ExecutionContext) {
  // The API never tracks; and a failed settings read is handleTracking's to answer.
  const api = request.url.indexOf('/api/') === request.url.indexOf('/', 8);
  const settings = api ? null : await getSettings(env).catch(() => null);
  if (settings?.tracking_mode !== 'durable') return handleTracking(request, env, ctx);
  beginDurable(ctx);
  try {
    return await handleTracking(request, env, ctx);
  } finally {
    await waitForDurable(env, ctx);
  }
}
