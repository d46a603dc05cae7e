import { runBalanceJob } from '../services/money/balance-job';
import { registerCronJob } from './scheduled';

// The daily balance job (docs/decisions/052) on the first cron tick of every hour: it books only
// differences, so running it hourly rather than once a day costs nothing when nothing changed
// and picks up a platform's late cost corrections within the hour.
registerCronJob({
  name: 'wallet-spend',
  run: async (env, controller) => {
    if (new Date(controller.scheduledTime).getUTCMinutes() >= 5) return;
    await runBalanceJob(env, controller.scheduledTime);
  },
});
