import { CONNECTION_MESSAGES as M } from '../../../schema/connections-api';
import type { Env } from '../../env';
import { fieldError } from '../../lib/errors';
import { signText, verifyText } from '../hot-path/click-ids';

// A Facebook campaign saves only when verified (spec 2 §5). The verify call asks Facebook and,
// when Facebook knows the campaign, answers a signature of its id that the editor keeps in the
// campaign's metainfo (`verification`). The save checks that signature, so the rule holds on
// the server without asking Facebook a second time inside the save (docs/decisions/075).

const subject = (fbCampaignId: string) => `facebook-campaign:${fbCampaignId}`;

export function signFacebookVerification(
  env: Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>,
  fbCampaignId: string,
): string {
  return signText(env, subject(fbCampaignId));
}

type CampaignLike = { trafficSource: string; campaignType?: string; metainfo: Record<string, unknown> };

/** Throws the spec's 422 unless a Facebook campaign carries a verification of its Facebook id. */
export function assertFacebookVerified(
  env: Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>,
  input: CampaignLike,
): void {
  if (input.trafficSource !== 'facebook' || input.campaignType === 'rotator') return;
  const id = input.metainfo.facebook_campaign_id;
  const signature = input.metainfo.verification;
  const ok =
    typeof id === 'string' &&
    id !== '' &&
    typeof signature === 'string' &&
    input.metainfo.verified === true &&
    verifyText(env, subject(id), signature);
  if (!ok) throw fieldError('trafficSource', M.facebookUnverified);
}

/** Whether another live campaign of the installation already tracks this Facebook campaign. */
export async function trackedInternally(
  env: Pick<Env, 'DB'>,
  fbCampaignId: string,
  exceptCampaignId: number,
) {
  const row = await env.DB.prepare(
    `SELECT id FROM campaigns WHERE deleted = 0 AND is_dir = 0 AND traffic_source = 'facebook'
       AND json_valid(metainfo) AND json_extract(metainfo, '$.facebook_campaign_id') = ?1 AND id != ?2
     LIMIT 1`,
  )
    .bind(fbCampaignId, exceptCampaignId)
    .first<{ id: number }>();
  return row !== null;
}
