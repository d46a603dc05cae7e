import { createApp } from './app';
import type { Env } from './env';
import { handleQueue } from './jobs/queue';
import { handleScheduled } from './jobs/scheduled';
import { trackingAnswer } from './tracking/durable';

const { app } = createApp();

export default {
  // Tracking links first, without the API's middleware: they are the hot path (docs/decisions/014).
  // Only what is not a tracking link reaches the app (the API, then the SPA's assets).
  fetch: async (request, env, ctx) =>
    (await trackingAnswer(request, env, ctx)) ?? app.fetch(request, env, ctx),
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
