import {
  APPLE_ASSET_EXTENSIONS,
  APPLE_ASSET_MAX_BYTES,
  CPC_MESSAGES as C,
  EMAIL_ASSET_EXTENSIONS,
  EMAIL_ASSET_MAX_BYTES,
  MAX_TRAFFIC_ASSETS,
  type TrafficAsset,
  UPLOAD_BATCH_SIZE,
} from '../../../schema/traffic-api';
import type { Env } from '../../env';
import { ApiError, fieldError, validationError } from '../../lib/errors';
import type { CampaignRow } from '../campaigns/access';
import { type CheckedImage, checkImage, deleteCampaignFiles, imageLink, putCampaignImage } from './storage';
import { ensureTrafficRow, type TrafficRow } from './traffic-row';

// The traffic assets of tab 8 (spec 2 §5, §9): email traffic takes png, jpg, jpeg and gif up to
// 1000 KB, Apple News png, jpg and jpeg up to 500 KB; a campaign holds at most 200. A batch
// (at most 5 images) is checked whole before anything is stored; what is wrong comes back as a
// 422 whose fields are the spec's flags: `size_exceeded`, `count_exceeded`, `images` (type/name).

export type AssetRow = { id: number; name: string; r2_key: string; content_type: string; size: number };

export async function assetRows(env: Pick<Env, 'DB'>, campaignId: number): Promise<AssetRow[]> {
  const { results } = await env.DB.prepare(
    'SELECT id, name, r2_key, content_type, size FROM traffic_assets WHERE campaign_id = ?1 ORDER BY id',
  )
    .bind(campaignId)
    .all<AssetRow>();
  return results;
}

const uneditable = (row: TrafficRow | null): Set<string> => {
  try {
    return new Set(JSON.parse(row?.uneditable_assets ?? '[]') as string[]);
  } catch {
    return new Set();
  }
};

export async function listAssets(
  env: Env,
  campaignId: number,
  row: TrafficRow | null,
): Promise<TrafficAsset[]> {
  const locked = uneditable(row);
  return Promise.all(
    (await assetRows(env, campaignId)).map(async (a) => ({
      name: a.name,
      checked: false,
      size: a.size,
      url: await imageLink(env, a.r2_key, a.name),
      editable: !locked.has(a.name),
    })),
  );
}

/** The limits of the campaign's traffic (Apple News is crane's, or chosen on the form). */
export function assetRules(row: TrafficRow | null, campaign: CampaignRow) {
  const apple = row ? row.traffic === 'Apple News' : campaign.trafficSource === 'crane';
  return apple
    ? { extensions: APPLE_ASSET_EXTENSIONS, maxBytes: APPLE_ASSET_MAX_BYTES, typeMessage: C.appleAssetType }
    : { extensions: EMAIL_ASSET_EXTENSIONS, maxBytes: EMAIL_ASSET_MAX_BYTES, typeMessage: C.assetType };
}

/** Checks a batch of images by the campaign's rules; all or nothing. */
async function checkAssetBatch(
  files: File[],
  rules: ReturnType<typeof assetRules>,
  existingCount: number,
): Promise<CheckedImage[]> {
  if (files.length === 0) throw fieldError('images', C.imagesRequired);
  if (files.length > UPLOAD_BATCH_SIZE) throw fieldError('images', 'Send at most 5 images or ids at a time.');
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] ??= [];
    errors[field].push(message);
  };
  const good: CheckedImage[] = [];
  for (const file of files) {
    const checked = await checkImage(file, rules.extensions, rules.maxBytes);
    if ('problem' in checked) {
      if (checked.problem === 'size') add('size_exceeded', `${checked.name} ${C.assetSize}`);
      else add('images', `${rules.typeMessage} (${checked.name})`);
    } else good.push(checked);
  }
  if (existingCount + files.length > MAX_TRAFFIC_ASSETS) add('count_exceeded', C.assetCount);
  if (Object.keys(errors).length) throw validationError(errors);
  return good;
}

/** Stores a checked batch; a name already used is replaced unless it was submitted. */
export async function saveAssets(env: Env, campaign: CampaignRow, row: TrafficRow | null, files: File[]) {
  const existing = await assetRows(env, campaign.id);
  const names = new Set(existing.map((a) => a.name));
  const images = await checkAssetBatch(
    files,
    assetRules(row, campaign),
    existing.length - files.filter((f) => names.has(f.name)).length,
  );
  const locked = uneditable(row);
  const refused = images.filter((i) => locked.has(i.name));
  if (refused.length)
    throw fieldError('images', `${C.assetSubmitted} (${refused.map((i) => i.name).join(', ')})`);
  // The count is checked again against the names as stored (sanitising may merge two names).
  const after = new Set([...names, ...images.map((i) => i.name)]);
  if (after.size > MAX_TRAFFIC_ASSETS) throw fieldError('count_exceeded', C.assetCount);
  await ensureTrafficRow(env, campaign);
  for (const image of images) {
    const key = await putCampaignImage(env, 'traffic', campaign.id, `assets/${image.name}`, image);
    await env.DB.prepare(
      `INSERT INTO traffic_assets (campaign_id, name, r2_key, content_type, size) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (campaign_id, name) DO UPDATE SET r2_key = excluded.r2_key, content_type = excluded.content_type,
         size = excluded.size`,
    )
      .bind(campaign.id, image.name, key, image.contentType, image.bytes.length)
      .run();
  }
}

/** Deletes assets by name; a submitted one, or an unknown one, refuses the whole call. */
export async function deleteAssets(env: Env, campaign: CampaignRow, row: TrafficRow | null, names: string[]) {
  if (names.length === 0) throw fieldError('names', C.assetNotFound);
  const locked = uneditable(row);
  if (names.some((n) => locked.has(n))) throw fieldError('names', C.assetSubmitted);
  const rows = (await assetRows(env, campaign.id)).filter((a) => names.includes(a.name));
  if (rows.length !== new Set(names).size) throw new ApiError(404, C.assetNotFound);
  await env.DB.prepare(
    'DELETE FROM traffic_assets WHERE campaign_id = ?1 AND name IN (SELECT value FROM json_each(?2))',
  )
    .bind(campaign.id, JSON.stringify(names))
    .run();
  await deleteCampaignFiles(
    env,
    'traffic',
    campaign.id,
    rows.map((r) => r.r2_key),
  );
}
