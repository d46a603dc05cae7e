import type { Env } from '../env';

export type CronJob = { name: string; run: (env: Env, controller: ScheduledController) => Promise<void> };

/** Jobs that run on every cron tick (wrangler.toml [triggers]); later jobs add themselves here. */
const jobs: CronJob[] = [];

export function registerCronJob(job: CronJob): void {
  jobs.push(job);
}

export async function handleScheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
  // One failing job must not stop the others.
  const runs = jobs.map((job) =>
    job.run(env, controller).catch((err) => console.error('cron job failed', job.name, err)),
  );
  ctx.waitUntil(Promise.all(runs));
}
