// The soak run's Worker (tests/soak/soak.mjs): the product's Worker as deployed, plus one route
// that runs the raw archive as if days had passed, so a run's clicks of today can be archived.
// Never deployed.

import type { Env } from '../../worker/env';
import worker from '../../worker/index';
import { archiveRawEvents } from '../../worker/services/archive/raw-archive';

const DAY = 86_400_000;

export default {
  ...worker,
  async fetch(request: Request<unknown, IncomingRequestCfProperties>, env: Env, ctx: ExecutionContext) {
    if (new URL(request.url).pathname === '/__soak/archive') {
      // Three days from now with an age of one day: every day of the run is past the cutoff.
      const run = await archiveRawEvents(
        { ...env, RAW_ARCHIVE_AFTER_DAYS: '1' },
        { now: Date.now() + 3 * DAY, maxDays: 50 },
      );
      return Response.json(run);
    }
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
