import type { Env } from '../../env';
import { jobResult, runJob } from './stats-jobs';

// A poll of a job that is still queued or about to finish answers its result instead of "not
// yet" (docs/decisions/110-fresh-statistics.md), so a fast job costs the client one poll.

/** How long one poll waits for a running job before answering "not yet". */
const POLL_WAIT_MS = 400;
const WAIT_STEP_MS = 20;

/**
 * A job's answer for a poll: a queued job is run here (whoever claims it first runs it, see
 * runJob), a running one is waited for up to POLL_WAIT_MS, so a fast job is answered by the
 * first poll.
 */
export async function jobResultSoon(env: Env, id: string, userId: number) {
  let job = await jobResult(env, id, userId);
  if (!job || job.done) return job;
  if (job.status === 'queued') {
    await runJob(env, id);
    job = await jobResult(env, id, userId);
  }
  const until = Date.now() + POLL_WAIT_MS;
  while (job && !job.done && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    job = await jobResult(env, id, userId);
  }
  return job;
}
