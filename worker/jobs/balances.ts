import type { Env } from '../env';
import { runBalanceJob } from '../services/money/balance-job';

// The daily balance job (docs/decisions/052) on the first cron tick of every hour: it books only
// differences, so running it hourly rather than once a day costs nothing when nothing changed
// and picks up a platform's late cost corrections within the hour.
export async function walletSpendJob(env: Env, controller: ScheduledController): Promise<void> {
  if (new Date(controller.scheduledTime).getUTCMinutes() >= 5) return;
  await runBalanceJob(env, controller.scheduledTime);
}
