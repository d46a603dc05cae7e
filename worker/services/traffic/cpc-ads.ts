import { CREATIVE_MESSAGES as CM, type CreativeStatus } from '../../../schema/creative-status-api';
import type { Env } from '../../env';
import { cpcAds, cpcSetAdStatus, ProviderError } from '../../integrations/traffic-provider/client';
import { ApiError, fieldError } from '../../lib/errors';
import { providerFailure } from './provider-errors';

// The creative switch of a CPC campaign's target rows (spec 3 §4, §7 api/jeeng/set-ad-status;
// docs/decisions/094). A CPC campaign is an external-ad source: its targets are the provider's ad
// ids, and the switch exists only once the campaign has a campaign at the provider (the linked
// external campaign id, set by the submit on the Traffic tab). An ad the provider was never told
// about runs; `removed` is the provider's doing and shades the row.

const toStatus = (target: string, status: string): CreativeStatus => ({
  target,
  creative_status: status !== 'paused' && status !== 'removed',
  creative_id: target,
  CREATIVEID_exist: status !== 'removed',
  LINEITEM_status: '',
  lineitem_statuses: [],
  ad_id: target,
  ADID: target,
});

export async function providerCampaignId(env: Pick<Env, 'DB'>, campaignId: number): Promise<string> {
  const row = await env.DB.prepare(
    'SELECT provider_campaign_id FROM traffic_campaigns WHERE campaign_id = ?1',
  )
    .bind(campaignId)
    .first<{ provider_campaign_id: string }>();
  return row?.provider_campaign_id ?? '';
}

async function adStatuses(env: Env, providerId: string): Promise<Map<string, string>> {
  try {
    return new Map((await cpcAds(env, providerId)).map((a) => [a.id, a.status]));
  } catch (err) {
    throw providerFailure(err, CM.providerFailed);
  }
}

export async function externalCreativeStatuses(
  env: Env,
  providerId: string,
  targets: string[],
): Promise<CreativeStatus[]> {
  const ads = await adStatuses(env, providerId);
  return targets.map((t) => toStatus(t, ads.get(t) ?? 'active'));
}

/** Pauses (0) or runs (1) the ad; answers its new status. */
export async function setExternalAdStatus(
  env: Env,
  campaignId: number,
  adId: string,
  status: '1' | '0',
): Promise<CreativeStatus> {
  const providerId = await providerCampaignId(env, campaignId);
  if (!providerId) throw fieldError('campaign_id', CM.noProviderCampaign);
  try {
    await cpcSetAdStatus(env, providerId, adId, status === '1' ? 'active' : 'paused');
  } catch (err) {
    // The provider's refusal (a removed ad) is the user's to read, not a failure to retry.
    if (err instanceof ProviderError && err.kind === 'request')
      throw new ApiError(422, CM.providerFailed, { message: [CM.providerFailed, err.detail] });
    throw providerFailure(err, CM.providerFailed);
  }
  const ads = await adStatuses(env, providerId);
  return toStatus(adId, ads.get(adId) ?? 'active');
}
