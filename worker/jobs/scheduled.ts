import type { Env } from '../env';
import { archiveRawEvents } from '../services/archive/raw-archive';
import { getSettings } from '../services/settings/settings';
import { walletSpendJob } from './balances';
import { replaySpool } from './ingest';
import { enqueueOperatorRefresh } from './operator';
import { optimizeCampaigns, raiseSystemAlerts, reportAllLandingTests } from './optimizer';
import { schedulePlatformSyncs } from './platform-jobs';
import { sweepPostbacks } from './postbacks';
import { cleanupStatsJobs } from './statistics';

export type CronJob = { name: string; run: (env: Env, controller: ScheduledController) => Promise<void> };

/** Every job that runs on each cron tick (wrangler.toml [triggers], every five minutes). */
export const CRON_JOBS: readonly CronJob[] = [
  { name: 'ingest-spool-replay', run: async (env) => void (await replaySpool(env)) },
  { name: 'postback-sweeper', run: sweepPostbacks },
  { name: 'stats-jobs-cleanup', run: cleanupStatsJobs },
  { name: 'landing-optimizer', run: optimizeCampaigns },
  { name: 'landing-test-reporting', run: reportAllLandingTests },
  { name: 'wallet-spend', run: walletSpendJob },
  { name: 'platform-cost-sync', run: schedulePlatformSyncs },
  { name: 'operator-refresh', run: async (env) => void (await enqueueOperatorRefresh(env)) },
  { name: 'system-alerts', run: async (env) => raiseSystemAlerts(env, (await getSettings(env)).time_zone) },
  { name: 'raw-archive', run: async (env) => void (await archiveRawEvents(env)) },
];

export async function handleScheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
  // One failing job must not stop the others.
  const runs = CRON_JOBS.map((job) =>
    job.run(env, controller).catch((err) => console.error('cron job failed', job.name, err)),
  );
  ctx.waitUntil(Promise.all(runs));
}
