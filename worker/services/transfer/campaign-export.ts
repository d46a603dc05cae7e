import {
  LIST_MESSAGES as M,
  MANIFEST_FORMAT,
  MANIFEST_NAME,
  MANIFEST_VERSION,
} from '../../../schema/campaign-list-api';
import { microsToDecimalString } from '../../../schema/money';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { slug, storeZip } from '../../lib/zip';
import { campaignAnswer } from '../campaigns';
import { chunks, descendants, requireRows } from '../campaigns/campaign-tree';
import { type CampaignRow, itemsOf, landingValues, optionValues, pathValues } from './campaign-items';

// Export of campaigns to a ZIP in R2 (the file format is in docs/campaign-transfer.md).

/** The campaign's settings under the add-campaign field names, so import checks them by those rules. */
function exportedSettings(row: CampaignRow): Record<string, unknown> {
  const a = campaignAnswer(row);
  return {
    urlAppendToken: a.urlAppendToken,
    keywordParameter: a.keywordParameter,
    custom_url: a.custom_url,
    rotator_base_url: a.rotator_base_url,
    rotator_requires_signed_contract: a.rotator_requires_signed_contract,
    custom_url_result: a.custom_url_result,
    offerPromotion: a.offerPromotion,
    trafficSource: a.trafficSource,
    affiliate_network: a.affiliate_network,
    postback_enabled: a.postback_enabled,
    postback: a.postback,
    active: a.active,
    campaignType: a.campaignType,
    lpTargetParam: a.lpTargetParam,
    opTargetParam: a.opTargetParam,
    // Money as an exact decimal string, never a float.
    cpc: microsToDecimalString(row.cpcMicros),
    li_conversion_image_pixel: a.li_conversion_image_pixel,
    li_conversion_lp: a.li_conversion_lp,
    li_conversion_atc1: a.li_conversion_atc1,
    li_conversion_atc2: a.li_conversion_atc2,
    customConversionGoal: a.customConversionGoal,
    li_custom_name_enabled: a.li_custom_name_enabled,
    landing_pages_auto_optimized: a.landing_pages_auto_optimized,
    enable_lp_test_reporting: a.enable_lp_test_reporting,
    landing_pages_optimization_goal: a.landing_pages_optimization_goal,
    landing_pages_optimization_metric: a.landing_pages_optimization_metric,
    landing_pages_optimization_threshold: a.landing_pages_optimization_threshold,
    landing_pages_optimization_min_visits: a.landing_pages_optimization_min_visits,
    redirectType: a.redirectType,
    metainfo: a.metainfo,
  };
}

async function manifestEntry(env: Env, row: CampaignRow, parentRef: number | null) {
  const base = { ref: row.id, parentRef, is_dir: row.isDir === 1 ? 1 : 0, name: row.name };
  if (row.isDir === 1) return base;
  const items = await itemsOf(env, row.id, { liveOnly: false });
  return {
    ...base,
    campaign: exportedSettings(row),
    paths: items.paths.map((p) => ({ ref: p.id, ...pathValues(p) })),
    options: items.options.map((o) => ({ ref: o.id, ...optionValues(o) })),
    landings: items.landings.map((l) => ({ ref: l.id, pathRef: l.pathId, ...landingValues(l) })),
    offers: items.offers.map((o) => ({
      ref: o.id,
      pathRef: o.pathId,
      optionRef: o.optionId,
      name: o.name,
      url: o.url,
      share: o.share,
      payout: microsToDecimalString(o.payoutMicros),
      active: o.active,
      postback: o.postbackParameter,
      agents: o.agents,
      liConversionName: o.liConversionName,
      rotator_participant_email: o.rotatorParticipantEmail,
      deleted: o.deleted,
    })),
    tokens: items.tokens.map((t) => ({
      slot: t.slot,
      token_name: t.tokenName,
      parameter: t.parameter,
      url_append: t.urlAppend,
      landing_page_enabled: t.landingPageEnabled,
      offer_page_enabled: t.offerPageEnabled,
      deleted: t.deleted,
    })),
  };
}

const README = `Edge Tracker campaign export

manifest.json holds the exported campaigns and folders with their landing pages, offers,
paths, options and extra tokens (no statistics). Import it on the Campaigns screen with
"Import ZIP"; ids are given anew, and items keep pointing at their paths and options.
`;

/**
 * POST /api/export-campaign and /api/export-campaigns: the campaigns (a folder with its live
 * subtree) as a ZIP in R2; answers a short-lived signed download link.
 */
export async function exportCampaigns(env: Env, user: AuthUser, ids: number[]) {
  const roots = await requireRows(env, user, ids, { allowDeleted: true });
  const below = await descendants(
    env,
    user,
    roots.filter((r) => r.is_dir === 1).map((r) => r.id),
  );
  const order = [...roots.map((r) => r.id), ...below.filter((r) => r.deleted === 0).map((r) => r.id)];
  const unique = [...new Set(order)];
  const db = getDb(env);
  const rows: CampaignRow[] = [];
  for (const part of chunks(unique)) {
    rows.push(...(await db.query.campaigns.findMany({ where: (c, { inArray }) => inArray(c.id, part) })));
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  const inExport = new Set(unique);
  const entries = [];
  // Folders first, so an importer meets a folder before what it holds.
  const sorted = unique
    .map((id) => byId.get(id)!)
    .filter(Boolean)
    .sort((a, b) => b.isDir - a.isDir || depthOf(a, byId) - depthOf(b, byId));
  for (const row of sorted) {
    const parentRef = row.parentId !== null && inExport.has(row.parentId) ? row.parentId : null;
    entries.push(await manifestEntry(env, row, parentRef));
  }
  const manifest = {
    format: MANIFEST_FORMAT,
    version: MANIFEST_VERSION,
    exportedAt: new Date().toISOString(),
    campaigns: entries,
  };
  const single = ids.length === 1;
  const first = byId.get(ids[0]);
  const name =
    single && first
      ? `campaign-${first.id}-${slug(first.name) || 'campaign'}.zip`
      : `campaigns-${new Date().toISOString().slice(0, 10)}.zip`;
  const downloadLink = await storeZip(env, `exports/${crypto.randomUUID()}/${name}`, name, {
    [MANIFEST_NAME]: JSON.stringify(manifest, null, 2),
    'README.txt': README,
  });
  return { message: single ? M.exportedOne : M.exportedMany, downloadLink };
}

function depthOf(row: CampaignRow, byId: Map<number, CampaignRow>): number {
  let depth = 0;
  let parent = row.parentId;
  while (parent !== null && byId.has(parent) && depth < 100) {
    depth += 1;
    parent = byId.get(parent)!.parentId;
  }
  return depth;
}
