import type { Banner } from '../../../schema/traffic-api';
import type { Env } from '../../env';
import { currentPlacement, listBanners } from './banners';

export { jeengDetail } from './cpc';

// The traffic-provider fields of the campaign detail (spec 2 §3).

export async function blazeDetail(
  env: Env,
  campaignId: number,
): Promise<{ banners: Banner[]; placement: string | null }> {
  return { banners: await listBanners(env, campaignId), placement: await currentPlacement(env, campaignId) };
}
