import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getSettings } from '../settings/settings';
import { liveIntentCampaign } from './access';
import type { LiContext } from './manage';
import { liveIntentSession } from './session';

/** Access rules, then the platform session, for the tracker campaign a LiveIntent call names. */
export async function liveIntentContext(
  env: Env,
  user: AuthUser,
  campaignId: number,
  requestUrl: string,
): Promise<LiContext> {
  const campaign = await liveIntentCampaign(env, user, campaignId);
  const settings = await getSettings(env);
  const origin = (settings.base_url || new URL(requestUrl).origin).replace(/\/+$/, '');
  return { env, session: await liveIntentSession(env, campaign.createdBy), campaignId, origin };
}
