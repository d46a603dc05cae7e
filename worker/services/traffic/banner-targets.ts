import { type CreativeStatus, noCreative } from '../../../schema/creative-status-api';
import type { Env } from '../../env';
import { imageLink } from './storage';

// A Blaze campaign's target rows are its banners (spec 3 §3 banner_url, BANNER, ADID, ad_id;
// docs/decisions/170): a target names a banner by its id here or by Blaze's id of it. The row's
// switch is the banner's Active flag, changed through api/blaze/save-banner.

type Row = { id: number; provider_banner_id: string; active: number; image_name: string; r2_key: string };

const noBanner = (target: string): CreativeStatus => ({
  ...noCreative(target),
  ad_id: '',
  ADID: '',
  BANNER: '',
  banner_url: '',
});

/** The banner of each target, for the page's target rows. */
export async function bannerCreativeStatuses(
  env: Pick<Env, 'DB' | 'JWT_SECRET'>,
  campaignId: number,
  targets: string[],
): Promise<CreativeStatus[]> {
  const { results } = await env.DB.prepare(
    `SELECT id, provider_banner_id, active, image_name, r2_key FROM banners WHERE campaign_id = ?1
       AND (CAST(id AS TEXT) IN (SELECT value FROM json_each(?2))
         OR provider_banner_id IN (SELECT value FROM json_each(?2)))`,
  )
    .bind(campaignId, JSON.stringify(targets))
    .all<Row>();
  const find = (t: string) =>
    results.find((r) => String(r.id) === t) ?? results.find((r) => r.provider_banner_id === t);
  return Promise.all(
    targets.map(async (target) => {
      const r = find(target);
      if (!r) return noBanner(target);
      return {
        ...noBanner(target),
        creative_status: r.active === 1,
        creative_id: String(r.id),
        ad_id: r.provider_banner_id,
        ADID: r.provider_banner_id,
        BANNER: String(r.id),
        banner_url: r.r2_key ? await imageLink(env, r.r2_key, r.image_name) : '',
      };
    }),
  );
}
