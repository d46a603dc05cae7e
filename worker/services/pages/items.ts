import { OPERATION_MESSAGES as M } from '../../../schema/pages-operations-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { ApiError } from '../../lib/errors';
import { campaignForUser, listLandings, listOffers, listOptions, listPaths } from '../campaigns';
import type { ItemKind } from '../campaigns/item-switch';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';

// The pages-operation verbs of spec 2 §7 over a campaign's landing pages, offers, paths and
// options (docs/api.md, "Campaign editor: pages operations"): this file has what they share and
// soft delete with undo; clone.ts, equal-shares.ts, optimization.ts, uploads.ts and export.ts
// the rest. Every change is one D1 batch, so bad input or a failure half-way writes nothing.

export const TABLES: Record<ItemKind, string> = {
  landing: 'landing_pages',
  offer: 'offer_pages',
  path: 'paths',
  option: 'options',
};
const NOT_FOUND: Record<ItemKind, string> = {
  landing: M.landingNotFound,
  offer: M.offerNotFound,
  path: M.pathNotFound,
  option: M.optionNotFound,
};

/** The kind's list as the item endpoints answer it (data.result). */
export function listOf(env: Env, kind: ItemKind, campaignId: number, showDeleted: 0 | 1) {
  switch (kind) {
    case 'landing':
      return listLandings(env, campaignId, showDeleted);
    case 'offer':
      return listOffers(env, campaignId, showDeleted);
    case 'path':
      return listPaths(env, campaignId, showDeleted);
    case 'option':
      return listOptions(env, campaignId, showDeleted);
  }
}

// Id lists travel as one JSON parameter (json_each): D1 binds at most 100 values per statement.
export const IN_IDS = 'id IN (SELECT value FROM json_each(?2))';

/** Throws 404 unless every id is an item of this kind in this campaign. */
export async function checkOwned(env: Env, kind: ItemKind, campaignId: number, ids: number[]) {
  const row = await env.DB.prepare(
    `SELECT count(*) AS n FROM ${TABLES[kind]} WHERE campaign_id = ?1 AND ${IN_IDS}`,
  )
    .bind(campaignId, JSON.stringify(ids))
    .first<{ n: number }>();
  if ((row?.n ?? 0) !== ids.length) throw new ApiError(404, NOT_FOUND[kind]);
}

/** Soft delete (1) or undo (0). Idempotent: deleting a deleted item changes nothing. */
export async function setDeleted(
  env: Env,
  user: AuthUser,
  kind: ItemKind,
  campaignId: number,
  ids: number[],
  deleted: 0 | 1,
) {
  const campaign = await campaignForUser(env, user, campaignId);
  await checkOwned(env, kind, campaign.id, ids);
  await env.DB.prepare(
    `UPDATE ${TABLES[kind]} SET deleted = ?3, updated_at = ?4 WHERE campaign_id = ?1 AND ${IN_IDS}`,
  )
    .bind(campaign.id, JSON.stringify(ids), deleted, Date.now())
    .run();
  invalidateCompiledCampaign(campaign.id);
}
