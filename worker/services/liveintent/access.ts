import { LIVEINTENT_MESSAGES as M } from '../../../schema/liveintent-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { ApiError } from '../../lib/errors';
import { campaignForUser } from '../campaigns/access';
import { liveIntentAccounts } from '../settings/settings-form';

// The two access rules of the manage-liveintent screens (spec 4 §2, §6; docs/decisions/090),
// checked on every call so that hiding the screen is not the only guard.

/**
 * "A student with their own LiveIntent account": the installation's personal LiveIntent account
 * (the pli* fields of Settings) is filled in. Such a student manages LiveIntent there, not here.
 */
export async function hasLiveIntentAccount(env: Env): Promise<boolean> {
  const { personal } = await liveIntentAccounts(env);
  return Boolean(personal.advertiserId && personal.username);
}

/** The tracker campaign a manage call acts for, or 404 / 403 with the spec's words. */
export async function liveIntentCampaign(env: Env, user: AuthUser, campaignId: number) {
  const campaign = await campaignForUser(env, user, campaignId);
  if (await hasLiveIntentAccount(env)) throw new ApiError(403, M.hasOwnAccount);
  if (campaign.trafficSource !== 'liveintent') throw new ApiError(403, M.notLiveIntent);
  return campaign;
}
