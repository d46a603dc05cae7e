import { createApp } from './app';
import type { Env } from './env';
import { handleQueue } from './jobs/queue';
// Job modules register their queue consumers and cron jobs when imported.
import './jobs/ingest';
import './jobs/postbacks';
import './jobs/statistics';
import './jobs/optimizer';
import { handleScheduled } from './jobs/scheduled';

const { app } = createApp();

export default {
  fetch: app.fetch,
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
