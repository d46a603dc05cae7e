import type { Env } from '../env';
import { isForceSyncMessage } from '../services/liveintent/force-sync';
import { JOB_RETENTION_MS, runJob } from '../services/statistics/stats-jobs';
import { handleForceSyncMessage } from './liveintent-force-sync';
import { handlePlatformMessage, isPlatformMessage } from './platform-jobs';

export const STATS_QUEUE = 'tracker-stats';

/** The statistics queue: each message names a stored job; running it twice does nothing. */
export async function consumeStats(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    // Cost syncs and ad records share this queue (worker/jobs/platform-jobs.ts).
    if (isPlatformMessage(message.body)) {
      await handlePlatformMessage(message, env, batch.queue.endsWith('-dlq'));
      continue;
    }
    if (isForceSyncMessage(message.body)) {
      await handleForceSyncMessage(message, env, batch.queue.endsWith('-dlq'));
      continue;
    }
    const jobId = (message.body as { jobId?: unknown })?.jobId;
    if (typeof jobId !== 'string') {
      console.error('stats message without a job id', message.body);
      message.ack();
      continue;
    }
    if (batch.queue.endsWith('-dlq')) {
      await env.DB.prepare(
        "UPDATE stats_jobs SET status = 'error', error = ?2 WHERE id = ?1 AND status IN ('queued', 'running')",
      )
        .bind(jobId, 'The statistics could not be computed. Please try again.')
        .run();
      message.ack();
      continue;
    }
    try {
      await runJob(env, jobId);
      message.ack();
    } catch (err) {
      console.error('stats job crashed', jobId, err);
      message.retry({ delaySeconds: 2 });
    }
  }
}

/** Cron: stored statistics jobs are kept for a day. */
export async function cleanupStatsJobs(env: Env): Promise<void> {
  await env.DB.prepare('DELETE FROM stats_jobs WHERE created_at < ?1')
    .bind(Date.now() - JOB_RETENTION_MS)
    .run();
}
