import { createApp } from './app';
import type { Env } from './env';
import { handleQueue } from './jobs/queue';
import { handleScheduled } from './jobs/scheduled';

const { app } = createApp();

export default {
  fetch: app.fetch,
  queue: handleQueue,
  scheduled: handleScheduled,
} satisfies ExportedHandler<Env>;
