import { type Context, Hono } from 'hono';
import {
  campaignScopeSchema,
  type ForceSyncAnswer,
  LIVEINTENT_MESSAGES as M,
} from '../../schema/liveintent-api';
import { type LiveIntentStatus, STATS_MESSAGES } from '../../schema/stats-api';
import type { AppEnv } from '../env';
import { requireAuth } from '../lib/auth';
import { ApiError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { campaignForUser } from '../services/campaigns/access';
import {
  dismissForceSyncCompleted,
  forceSyncStatus,
  startForceSync,
  stopForceSync,
} from '../services/liveintent/force-sync';
import { dismissLiveIntentError, liveIntentStatus } from '../services/statistics/stats-status';

// The statistics screen's force sync of LiveIntent costs (spec 3 §4, §7; docs/decisions/091).

async function liveIntentCampaignId(c: Context<AppEnv>) {
  const { campaignId } = parseInput(campaignScopeSchema, await readBody(c), ['campaignId']);
  const campaign = await campaignForUser(c.env, c.get('user'), campaignId);
  if (campaign.trafficSource !== 'liveintent') throw new ApiError(403, M.notLiveIntent);
  return campaignId;
}

export const forceSyncRoutes = new Hono<AppEnv>()
  .post('/liveintent-force-sync', requireAuth, async (c) => {
    const id = await liveIntentCampaignId(c);
    return c.json({ data: (await startForceSync(c.env, id, c.get('user').id)) satisfies ForceSyncAnswer });
  })
  .post('/liveintent-stop-force-sync', requireAuth, async (c) => {
    const id = await liveIntentCampaignId(c);
    return c.json({ data: (await stopForceSync(c.env, id)) satisfies ForceSyncAnswer });
  })
  .post('/liveintent-get-force-sync-status', requireAuth, async (c) => {
    const id = await liveIntentCampaignId(c);
    return c.json({ data: (await forceSyncStatus(c.env, id)) satisfies ForceSyncAnswer });
  })
  .post('/liveintent-update-force-sync-completed-status', requireAuth, async (c) => {
    const id = await liveIntentCampaignId(c);
    return c.json({ data: (await dismissForceSyncCompleted(c.env, id)) satisfies ForceSyncAnswer });
  })
  // The statistics screen's toast of the LiveIntent sync error, dismissed until a newer error
  // (spec 3 §8 hideNotif; docs/decisions/169).
  .post('/liveintent-dismiss-sync-error', requireAuth, async (c) => {
    const id = await liveIntentCampaignId(c);
    if (!(await dismissLiveIntentError(c.env, id))) throw new ApiError(404, STATS_MESSAGES.noSyncError);
    const status = await liveIntentStatus(c.env, { id, trafficSource: 'liveintent' });
    return c.json({ data: status satisfies LiveIntentStatus });
  });
