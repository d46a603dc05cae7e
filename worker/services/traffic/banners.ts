import {
  BANNER_IMAGE_EXTENSIONS,
  BANNER_IMAGE_MAX_BYTES,
  type Banner,
  type BannerFields,
  type BlazeZone,
  TRAFFIC_MESSAGES as M,
  UPLOAD_BATCH_SIZE,
} from '../../../schema/traffic-api';
import type { Env } from '../../env';
import {
  type BlazeBannerInput,
  blazeDeleteBanners,
  blazeSaveBanner,
  blazeSavePlacement,
  blazeSetBannersActive,
  blazeZones,
} from '../../integrations/traffic-provider/client';
import type { AuthUser } from '../../lib/auth';
import { ApiError, fieldError } from '../../lib/errors';
import { type CampaignRow, campaignForUser } from '../campaigns/access';
import { providerFailure } from './provider-errors';
import { type CheckedImage, checkImage, deleteCampaignFiles, imageLink, putCampaignImage } from './storage';

// Tab 7, blaze banners and placement (spec 2 §3, §7, §8). The provider is told first; only what
// it accepted is written to R2 and D1, one banner at a time, so a failure never leaves a banner
// here that the provider does not have.

/** A banners row: the answer's fields but the signed link, with its campaign and R2 key. */
type BannerRow = Omit<Banner, 'image_url'> & { campaign_id: number; r2_key: string };

/** The provider's reference of our campaign. */
export const campaignRef = (campaignId: number) => `campaign-${campaignId}`;

export async function blazeCampaignForUser(env: Env, user: AuthUser, id: number): Promise<CampaignRow> {
  const campaign = await campaignForUser(env, user, id);
  if (campaign.trafficSource !== 'blaze') throw fieldError('campaign_id', M.notBlaze);
  return campaign;
}

async function bannerRows(env: Env, campaignId: number, ids?: number[]): Promise<BannerRow[]> {
  const filter = ids ? ' AND id IN (SELECT value FROM json_each(?2))' : '';
  const stmt = env.DB.prepare(`SELECT * FROM banners WHERE campaign_id = ?1${filter} ORDER BY id`);
  const { results } = await (ids
    ? stmt.bind(campaignId, JSON.stringify(ids))
    : stmt.bind(campaignId)
  ).all<BannerRow>();
  return results;
}

async function toBanner(env: Env, r: BannerRow): Promise<Banner> {
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    placement_type: r.placement_type,
    width: r.width,
    height: r.height,
    active: r.active,
    image_name: r.image_name,
    image_url: await imageLink(env, r.r2_key, r.image_name),
    provider_banner_id: r.provider_banner_id,
  };
}

export async function listBanners(env: Env, campaignId: number): Promise<Banner[]> {
  return Promise.all((await bannerRows(env, campaignId)).map((r) => toBanner(env, r)));
}

/** Every file checked before anything is sent: one bad file refuses the whole request. */
async function checkedImages(files: File[]): Promise<CheckedImage[]> {
  const out: CheckedImage[] = [];
  for (const file of files) {
    const checked = await checkImage(file, BANNER_IMAGE_EXTENSIONS, BANNER_IMAGE_MAX_BYTES);
    if ('problem' in checked) {
      const message =
        checked.problem === 'size' ? M.imageSize : checked.problem === 'name' ? M.imageName : M.imageType;
      throw fieldError('images', `${message} (${checked.name})`);
    }
    out.push(checked);
  }
  return out;
}

const uniqueName = (name: string) => `${crypto.randomUUID().slice(0, 8)}-${name}`;

/** The banner as Blaze takes it: the form's fields and, when one is sent, the checked image. */
function blazeBanner(
  campaign: CampaignRow,
  fields: BannerFields,
  image: BlazeBannerInput['image'],
): BlazeBannerInput {
  return {
    campaignRef: campaignRef(campaign.id),
    name: fields.name,
    url: fields.url,
    placementType: fields.type,
    width: fields.width,
    height: fields.height,
    active: fields.active,
    image,
  };
}

/** The banner's own columns in the order the INSERT and UPDATE below name them (name … active). */
const fieldValues = (f: BannerFields) => [f.name, f.url, f.type, f.width, f.height, f.active];

/** Creates one banner per image (at least one, at most a batch of 5). */
export async function createBanners(
  env: Env,
  campaign: CampaignRow,
  fields: BannerFields,
  files: File[],
): Promise<Banner[]> {
  if (files.length === 0) throw fieldError('images', M.bannerImageRequired);
  if (files.length > UPLOAD_BATCH_SIZE) throw fieldError('images', M.bannerBatch);
  const images = await checkedImages(files);
  const saved: Banner[] = [];
  for (const image of images) {
    let providerId: string;
    try {
      providerId = await blazeSaveBanner(env, blazeBanner(campaign, fields, image));
    } catch (err) {
      throw providerFailure(err, M.saveBannerFailed);
    }
    const key = await putCampaignImage(env, 'banners', campaign.id, uniqueName(image.name), image);
    const row = await env.DB.prepare(
      `INSERT INTO banners (campaign_id, provider_banner_id, name, url, placement_type, width, height, active,
         image_name, r2_key, content_type, size)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) RETURNING *`,
    )
      .bind(
        campaign.id,
        providerId,
        ...fieldValues(fields),
        image.name,
        key,
        image.contentType,
        image.bytes.length,
      )
      .first<BannerRow>();
    if (row) saved.push(await toBanner(env, row));
  }
  return saved;
}

/** Edits one banner; at most one new image replaces the old one. */
export async function updateBanner(
  env: Env,
  campaign: CampaignRow,
  id: number,
  fields: BannerFields,
  files: File[],
): Promise<Banner> {
  if (files.length > 1) throw fieldError('images', M.bannerOneImage);
  const [current] = await bannerRows(env, campaign.id, [id]);
  if (!current) throw new ApiError(404, M.bannerNotFound);
  const [image] = await checkedImages(files);
  try {
    await blazeSaveBanner(env, blazeBanner(campaign, fields, image), current.provider_banner_id);
  } catch (err) {
    throw providerFailure(err, M.updateBannerFailed);
  }
  let file = {
    name: current.image_name,
    key: current.r2_key,
    type: null as string | null,
    size: null as number | null,
  };
  if (image) {
    const key = await putCampaignImage(env, 'banners', campaign.id, uniqueName(image.name), image);
    file = { name: image.name, key, type: image.contentType, size: image.bytes.length };
  }
  const row = await env.DB.prepare(
    `UPDATE banners SET name = ?2, url = ?3, placement_type = ?4, width = ?5, height = ?6, active = ?7,
       image_name = ?8, r2_key = ?9, content_type = coalesce(?10, content_type), size = coalesce(?11, size),
       updated_at = ?12
     WHERE id = ?1 RETURNING *`,
  )
    .bind(id, ...fieldValues(fields), file.name, file.key, file.type, file.size, Date.now())
    .first<BannerRow>();
  if (image) await deleteCampaignFiles(env, 'banners', campaign.id, [current.r2_key]);
  return toBanner(env, row ?? current);
}

async function existingRows(env: Env, campaign: CampaignRow, ids: number[]) {
  if (ids.length === 0) throw fieldError('ids', M.idsRequired);
  if (ids.length > UPLOAD_BATCH_SIZE) throw fieldError('ids', M.bannerBatch);
  const rows = await bannerRows(env, campaign.id, ids);
  if (rows.length !== new Set(ids).size) throw new ApiError(404, M.bannerNotFound);
  return rows;
}

/**
 * The campaign's banners `ids` (404 unless all are its), once the provider has done `act` on
 * their provider ids; its refusal answers as `failed`.
 */
async function actOnBanners(
  env: Env,
  campaign: CampaignRow,
  ids: number[],
  act: (ref: string, providerIds: string[]) => Promise<unknown>,
  failed: string,
) {
  const rows = await existingRows(env, campaign, ids);
  try {
    await act(
      campaignRef(campaign.id),
      rows.map((r) => r.provider_banner_id),
    );
  } catch (err) {
    throw providerFailure(err, failed);
  }
  return rows;
}

/** Bulk activation (ids[] with active), a batch of at most 5. */
export async function setBannersActive(env: Env, campaign: CampaignRow, ids: number[], active: 0 | 1) {
  await actOnBanners(
    env,
    campaign,
    ids,
    (ref, providerIds) => blazeSetBannersActive(env, ref, providerIds, active),
    M.updateBannerFailed,
  );
  await env.DB.prepare(
    'UPDATE banners SET active = ?2, updated_at = ?3 WHERE campaign_id = ?1 AND id IN (SELECT value FROM json_each(?4))',
  )
    .bind(campaign.id, active, Date.now(), JSON.stringify(ids))
    .run();
  return Promise.all((await bannerRows(env, campaign.id, ids)).map((r) => toBanner(env, r)));
}

export async function deleteBanners(env: Env, campaign: CampaignRow, ids: number[]) {
  const rows = await actOnBanners(
    env,
    campaign,
    ids,
    (ref, providerIds) => blazeDeleteBanners(env, ref, providerIds),
    M.deleteBannersFailed,
  );
  await env.DB.prepare(
    'DELETE FROM banners WHERE campaign_id = ?1 AND id IN (SELECT value FROM json_each(?2))',
  )
    .bind(campaign.id, JSON.stringify(ids))
    .run();
  await deleteCampaignFiles(
    env,
    'banners',
    campaign.id,
    rows.map((r) => r.r2_key),
  );
}

/** The placement chosen for the campaign on tab 7; null before the first save. */
export async function currentPlacement(env: Env, campaignId: number): Promise<string | null> {
  const row = await env.DB.prepare('SELECT placement FROM blaze_placements WHERE campaign_id = ?1')
    .bind(campaignId)
    .first<{ placement: string }>();
  return row?.placement ?? null;
}

export async function savePlacement(env: Env, campaign: CampaignRow, placement: string) {
  try {
    await blazeSavePlacement(env, campaignRef(campaign.id), placement);
  } catch (err) {
    throw providerFailure(err, M.savePlacementsFailed);
  }
  await env.DB.prepare(
    `INSERT INTO blaze_placements (campaign_id, placement, updated_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (campaign_id) DO UPDATE SET placement = excluded.placement, updated_at = excluded.updated_at`,
  )
    .bind(campaign.id, placement, Date.now())
    .run();
}

export async function zones(env: Env, publisherId: number): Promise<BlazeZone[]> {
  try {
    return await blazeZones(env, publisherId);
  } catch (err) {
    throw providerFailure(err, 'Failed to load the Blaze zones');
  }
}
