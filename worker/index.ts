import { createApp } from './app';
import type { Env } from './env';
import { handleQueue } from './jobs/queue';
// Job modules register their queue consumers and cron jobs when imported.
import './jobs/ingest';
import './jobs/postbacks';
import './jobs/statistics';
import './jobs/optimizer';
import { handleScheduled } from './jobs/scheduled';
import { trackingAnswer } from './tracking/durable';

const { app } = createApp();

export default {
  // Tracking links first, without the API's middleware: they are the hot path (docs/decisions/014).
  fetch: async (request, env, ctx) =>
    (await trackingAnswer(request, env, ctx)) ?? app.fetch(request, env, ctx),
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
