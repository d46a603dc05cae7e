import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  type AddCampaignInput,
  type EditCampaignInput,
  type ExtraTokenInput,
  type LandingInput,
  CAMPAIGN_MESSAGES as M,
  type OfferInput,
  type OptionInput,
  type PathInput,
} from '../../schema/campaign-api';
import {
  AFFILIATE_NETWORK_PARAMS,
  agents,
  campaigns,
  extraTokens,
  landingPages,
  MAX_EXTRA_TOKENS,
  offerPages,
  options,
  paths,
} from '../../schema/campaigns';
import { fromMicros } from '../../schema/money';
import type { Env } from '../env';
import type { AuthUser } from '../lib/auth';
import { getDb } from '../lib/db';
import { ApiError, fieldError } from '../lib/errors';
import { campaignRuleProblem } from './campaign-rules';
import { invalidateCompiledCampaign } from './compiled-campaigns';
import { expectedSecret } from './postback-secret';
import { getSettings, type Settings } from './settings';

// Campaigns and their items: ownership, validation that needs the database, and the answer
// shapes of spec 2 §3 and §7. Ownership (docs/decisions/015-campaign-ownership.md): admins and
// coaches manage every campaign; a student manages the campaigns they created.

export type CampaignRow = typeof campaigns.$inferSelect;
type LandingRow = typeof landingPages.$inferSelect;
type OfferRow = typeof offerPages.$inferSelect;
type PathRow = typeof paths.$inferSelect;
type OptionRow = typeof options.$inferSelect;
type TokenRow = typeof extraTokens.$inferSelect;

export function canSeeEveryCampaign(user: Pick<AuthUser, 'role'>): boolean {
  return user.role === 'admin' || user.role === 'coach';
}

/** The SQL condition limiting campaigns to those `user` may manage. */
export function ownedBy(user: Pick<AuthUser, 'id' | 'role'>) {
  return canSeeEveryCampaign(user) ? sql`1 = 1` : eq(campaigns.createdBy, user.id);
}

/**
 * A campaign `user` may manage, else 404 (a student never learns that another's campaign
 * exists). Deleted campaigns and folders are refused unless asked for.
 */
export async function campaignForUser(
  env: Env,
  user: AuthUser,
  id: number,
  { allowDeleted = false, allowFolder = false } = {},
): Promise<CampaignRow> {
  const row = await getDb(env)
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), ownedBy(user)))
    .get();
  if (!row || (!allowDeleted && row.deleted === 1) || (!allowFolder && row.isDir === 1)) {
    throw new ApiError(404, M.campaignNotFound);
  }
  return row;
}

const agentString = (ids: number[]) => ids.join(',');

function parseMetainfo(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

// ---- answers -------------------------------------------------------------------------------

export function campaignAnswer(row: CampaignRow) {
  return {
    campaignId: row.id,
    name: row.name,
    is_dir: row.isDir,
    dir: row.parentId ?? 0,
    urlAppendToken: row.urlAppendToken,
    keywordParameter: row.keywordParameter,
    custom_url: row.customUrl,
    rotator_base_url: row.rotatorBaseUrl,
    rotator_requires_signed_contract: row.rotatorRequiresSignedContract,
    custom_url_result: row.customUrlResult,
    offerPromotion: row.offerPromotion,
    trafficSource: row.trafficSource,
    affiliate_network: row.affiliateNetwork,
    postback_enabled: row.postbackEnabled,
    postback: row.postback,
    active: row.active,
    campaignType: row.campaignType,
    lpTargetParam: row.lpTargetParam,
    opTargetParam: row.opTargetParam,
    cpc: fromMicros(row.cpcMicros),
    li_conversion_image_pixel: row.liConversionImagePixel,
    li_conversion_lp: row.liConversionLp,
    li_conversion_atc1: row.liConversionAtc1,
    li_conversion_atc2: row.liConversionAtc2,
    customConversionGoal: row.customConversionGoal,
    li_custom_name_enabled: row.liCustomNameEnabled,
    landing_pages_auto_optimized: row.landingPagesAutoOptimized,
    enable_lp_test_reporting: row.enableLpTestReporting,
    landing_pages_optimization_goal: row.landingPagesOptimizationGoal,
    landing_pages_optimization_metric: row.landingPagesOptimizationMetric,
    landing_pages_optimization_threshold: row.landingPagesOptimizationThreshold,
    landing_pages_optimization_min_visits: row.landingPagesOptimizationMinVisits,
    redirectType: row.redirectType,
    metainfo: parseMetainfo(row.metainfo),
    deleted: row.deleted,
    userId: row.createdBy,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The short form add-campaign answers as data.campaign.campaignData (spec 2 §7). */
export function campaignData(row: CampaignRow) {
  return {
    campaignId: row.id,
    name: row.name,
    urlAppendToken: row.urlAppendToken,
    keywordParameter: row.keywordParameter,
    campaignType: row.campaignType,
    active: row.active,
    lpTargetParam: row.lpTargetParam,
    opTargetParam: row.opTargetParam,
  };
}

export function landingAnswer(row: LandingRow, pathNames: Map<number, string>) {
  return {
    landingPageId: row.id,
    campaignId: row.campaignId,
    name: row.name,
    url: row.url,
    share: row.share,
    active: row.active,
    pathId: row.pathId,
    path: row.pathId ? (pathNames.get(row.pathId) ?? '') : '',
    agents: row.agents,
    deleted: row.deleted,
  };
}

export function offerAnswer(row: OfferRow, pathNames: Map<number, string>, optionNames: Map<number, string>) {
  return {
    offerPageId: row.id,
    campaignId: row.campaignId,
    name: row.name,
    url: row.url,
    share: row.share,
    payout: fromMicros(row.payoutMicros),
    active: row.active,
    pathId: row.pathId,
    path: row.pathId ? (pathNames.get(row.pathId) ?? '') : '',
    optionId: row.optionId,
    option: row.optionId ? (optionNames.get(row.optionId) ?? '') : '',
    postback: row.postbackParameter,
    agents: row.agents,
    liConversionName: row.liConversionName,
    rotator_participant_email: row.rotatorParticipantEmail,
    deleted: row.deleted,
  };
}

export function pathAnswer(row: PathRow) {
  return {
    pathId: row.id,
    campaignId: row.campaignId,
    name: row.name,
    share: row.share,
    active: row.active,
    agents: row.agents,
    deleted: row.deleted,
  };
}

export function optionAnswer(row: OptionRow) {
  return {
    optionId: row.id,
    campaignId: row.campaignId,
    name: row.name,
    active: row.active,
    deleted: row.deleted,
  };
}

export function tokenAnswer(row: TokenRow) {
  return {
    extraTokenId: row.id,
    campaignId: row.campaignId,
    slot: row.slot,
    token_name: row.tokenName,
    parameter: row.parameter,
    url_append: row.urlAppend,
    landing_page_enabled: row.landingPageEnabled,
    offer_page_enabled: row.offerPageEnabled,
    deleted: row.deleted,
  };
}

// ---- campaigns -----------------------------------------------------------------------------

/** Column values of a campaign from input checked by the add-campaign rules (also used by imports). */
export function campaignValues(input: AddCampaignInput) {
  const networkParam =
    AFFILIATE_NETWORK_PARAMS[input.affiliate_network as keyof typeof AFFILIATE_NETWORK_PARAMS];
  return {
    name: input.name,
    parentId: input.dir,
    urlAppendToken: input.urlAppendToken,
    keywordParameter: input.keywordParameter,
    customUrl: input.custom_url,
    rotatorBaseUrl: input.rotator_base_url,
    rotatorRequiresSignedContract: input.rotator_requires_signed_contract,
    customUrlResult: input.custom_url_result,
    offerPromotion: input.offerPromotion,
    // Choosing rotator clears the traffic source (spec 2 §4).
    trafficSource: input.campaignType === 'rotator' ? '' : input.trafficSource,
    affiliateNetwork: input.affiliate_network,
    postbackEnabled: input.postback_enabled,
    postback: input.postback,
    active: input.active,
    campaignType: input.campaignType,
    lpTargetParam: input.lpTargetParam,
    // The network's parameter when none is given (the editor rewrites it on network change).
    opTargetParam: input.opTargetParam || networkParam || '',
    cpcMicros: input.cpc,
    liConversionImagePixel: input.li_conversion_image_pixel,
    liConversionLp: input.li_conversion_lp,
    liConversionAtc1: input.li_conversion_atc1,
    liConversionAtc2: input.li_conversion_atc2,
    customConversionGoal: input.customConversionGoal.toLowerCase(),
    liCustomNameEnabled: input.li_custom_name_enabled,
    landingPagesAutoOptimized: input.landing_pages_auto_optimized,
    enableLpTestReporting: input.enable_lp_test_reporting,
    landingPagesOptimizationGoal: input.landing_pages_optimization_goal,
    landingPagesOptimizationMetric: input.landing_pages_optimization_metric,
    landingPagesOptimizationThreshold: input.landing_pages_optimization_threshold,
    landingPagesOptimizationMinVisits: input.landing_pages_optimization_min_visits,
    redirectType: input.redirectType,
    metainfo: JSON.stringify(input.metainfo),
  };
}

async function checkCampaignRefs(env: Env, user: AuthUser, input: AddCampaignInput, selfId?: number) {
  const rule = campaignRuleProblem(input);
  if (rule) throw fieldError(rule.field, rule.message);
  if (input.dir) {
    const folder = await getDb(env)
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.id, input.dir), ownedBy(user)))
      .get();
    if (folder?.isDir !== 1 || folder.deleted === 1 || folder.id === selfId) {
      throw fieldError('dir', 'Select a valid folder.');
    }
  }
}

/** Statements that make the campaign's live tokens exactly `wanted` (a full list from the form). */
function tokenStatements(env: Env, campaignId: number, existing: TokenRow[], wanted: ExtraTokenInput[]) {
  const db = getDb(env);
  const live = existing.filter((t) => t.deleted === 0);
  const keep = wanted.filter((t) => t.deleted === 0);
  const keptIds = new Set(keep.map((t) => t.extraTokenId).filter((id): id is number => id !== null));
  const statements = [];
  const now = Date.now();
  for (const token of live) {
    if (!keptIds.has(token.id)) {
      statements.push(
        db.update(extraTokens).set({ deleted: 1, updatedAt: now }).where(eq(extraTokens.id, token.id)),
      );
    }
  }
  const used = new Set(live.filter((t) => keptIds.has(t.id)).map((t) => t.slot));
  const free = () => {
    for (let slot = 1; slot <= MAX_EXTRA_TOKENS; slot++) {
      if (!used.has(slot)) {
        used.add(slot);
        return slot;
      }
    }
    throw fieldError('extratokens', M.tokensLimit);
  };
  for (const token of keep) {
    const values = {
      tokenName: token.token_name,
      parameter: token.parameter,
      urlAppend: token.url_append,
      landingPageEnabled: token.landing_page_enabled,
      offerPageEnabled: token.offer_page_enabled,
      updatedAt: now,
    };
    const current = token.extraTokenId ? live.find((t) => t.id === token.extraTokenId) : undefined;
    if (current) {
      statements.push(db.update(extraTokens).set(values).where(eq(extraTokens.id, current.id)));
    } else {
      statements.push(db.insert(extraTokens).values({ ...values, campaignId, slot: free() }));
    }
  }
  return statements;
}

export async function createCampaign(
  env: Env,
  user: AuthUser,
  input: AddCampaignInput,
): Promise<CampaignRow> {
  await checkCampaignRefs(env, user, input);
  const db = getDb(env);
  const row = await db
    .insert(campaigns)
    .values({ ...campaignValues(input), createdBy: user.id })
    .returning()
    .get();
  const statements = tokenStatements(env, row.id, [], input.extratokens ?? []);
  if (statements.length) {
    const [first, ...rest] = statements;
    await db.batch([first, ...rest]);
  }
  return row;
}

export async function updateCampaign(
  env: Env,
  user: AuthUser,
  input: EditCampaignInput,
): Promise<CampaignRow> {
  const current = await campaignForUser(env, user, input.campaignId);
  await checkCampaignRefs(env, user, input, current.id);
  const db = getDb(env);
  const statements = [];
  if (input.extratokens) {
    const existing = await db.select().from(extraTokens).where(eq(extraTokens.campaignId, current.id)).all();
    statements.push(...tokenStatements(env, current.id, existing, input.extratokens));
  }
  const update = db
    .update(campaigns)
    .set({ ...campaignValues(input), updatedAt: Date.now() })
    .where(eq(campaigns.id, current.id))
    .returning();
  const results = await db.batch([update, ...statements]);
  invalidateCompiledCampaign(current.id);
  return (results[0] as CampaignRow[])[0];
}

export async function listCampaigns(
  env: Env,
  user: AuthUser,
  query: { dir: number | null; includeDeleted: 0 | 1; no_dir: 0 | 1 },
) {
  const db = getDb(env);
  const conditions = [ownedBy(user)];
  if (query.no_dir === 1) {
    conditions.push(eq(campaigns.isDir, 0), eq(campaigns.deleted, 0));
  } else {
    conditions.push(query.dir ? eq(campaigns.parentId, query.dir) : sql`${campaigns.parentId} IS NULL`);
    if (query.includeDeleted !== 1) conditions.push(eq(campaigns.deleted, 0));
  }
  const rows = await db
    .select()
    .from(campaigns)
    .where(and(...conditions))
    .orderBy(
      sql`${campaigns.isDir} DESC`,
      sql`CASE WHEN ${campaigns.isDir} = 1 THEN ${campaigns.name} END COLLATE NOCASE`,
      asc(campaigns.id),
    )
    .all();
  let currentDir: { campaignId: number; dir: number; name: string } = { campaignId: 0, dir: 0, name: '' };
  if (query.dir && query.no_dir !== 1) {
    const folder = await campaignForUser(env, user, query.dir, { allowFolder: true });
    currentDir = { campaignId: folder.id, dir: folder.parentId ?? 0, name: folder.name };
  }
  return {
    result: rows.map((r) => ({
      campaignId: r.id,
      name: r.name,
      is_dir: r.isDir,
      dir: r.parentId ?? 0,
      deleted: r.deleted,
      active: r.active,
      campaignType: r.campaignType,
      trafficSource: r.trafficSource,
      offerPromotion: r.offerPromotion,
    })),
    currentDir,
  };
}

// ---- items ---------------------------------------------------------------------------------

async function nameMaps(env: Env, campaignId: number) {
  const db = getDb(env);
  const [pathRows, optionRows] = await db.batch([
    db.select({ id: paths.id, name: paths.name }).from(paths).where(eq(paths.campaignId, campaignId)),
    db.select({ id: options.id, name: options.name }).from(options).where(eq(options.campaignId, campaignId)),
  ]);
  return {
    pathNames: new Map(pathRows.map((r) => [r.id, r.name])),
    optionNames: new Map(optionRows.map((r) => [r.id, r.name])),
  };
}

const deletedFilter = (column: SQLiteColumn, showDeleted: 0 | 1) =>
  showDeleted === 1 ? sql`1 = 1` : eq(column, 0);

export async function listLandings(env: Env, campaignId: number, showDeleted: 0 | 1 = 1) {
  const { pathNames } = await nameMaps(env, campaignId);
  const rows = await getDb(env)
    .select()
    .from(landingPages)
    .where(and(eq(landingPages.campaignId, campaignId), deletedFilter(landingPages.deleted, showDeleted)))
    .orderBy(asc(landingPages.id))
    .all();
  return rows.map((r) => landingAnswer(r, pathNames));
}

export async function listOffers(env: Env, campaignId: number, showDeleted: 0 | 1 = 1) {
  const { pathNames, optionNames } = await nameMaps(env, campaignId);
  const rows = await getDb(env)
    .select()
    .from(offerPages)
    .where(and(eq(offerPages.campaignId, campaignId), deletedFilter(offerPages.deleted, showDeleted)))
    .orderBy(asc(offerPages.id))
    .all();
  return rows.map((r) => offerAnswer(r, pathNames, optionNames));
}

export async function listPaths(env: Env, campaignId: number, showDeleted: 0 | 1 = 1) {
  const rows = await getDb(env)
    .select()
    .from(paths)
    .where(and(eq(paths.campaignId, campaignId), deletedFilter(paths.deleted, showDeleted)))
    .orderBy(asc(paths.id))
    .all();
  return rows.map(pathAnswer);
}

export async function listOptions(env: Env, campaignId: number, showDeleted: 0 | 1 = 1) {
  const rows = await getDb(env)
    .select()
    .from(options)
    .where(and(eq(options.campaignId, campaignId), deletedFilter(options.deleted, showDeleted)))
    .orderBy(asc(options.id))
    .all();
  return rows.map(optionAnswer);
}

export async function listTokens(env: Env, campaignId: number, showDeleted: 0 | 1 = 0) {
  const rows = await getDb(env)
    .select()
    .from(extraTokens)
    .where(and(eq(extraTokens.campaignId, campaignId), deletedFilter(extraTokens.deleted, showDeleted)))
    .orderBy(asc(extraTokens.slot), asc(extraTokens.id))
    .all();
  return rows.map(tokenAnswer);
}

export async function listAgents(env: Env) {
  const rows = await getDb(env).select().from(agents).orderBy(asc(agents.id)).all();
  return rows.map((r) => ({ id: r.id, agent_name: r.agentName }));
}

async function checkAgents(env: Env, ids: number[]) {
  const found = await getDb(env).select({ id: agents.id }).from(agents).where(inArray(agents.id, ids)).all();
  if (found.length !== ids.length) throw fieldError('agents', M.agentsInvalid);
}

/** The path of an item: required (and of this campaign) for path campaigns, else optional. */
async function checkPath(env: Env, campaign: CampaignRow, pathId: number | null): Promise<number | null> {
  const live = await getDb(env)
    .select({ id: paths.id })
    .from(paths)
    .where(and(eq(paths.campaignId, campaign.id), eq(paths.deleted, 0)))
    .all();
  if (campaign.campaignType === 'multiple_path_type') {
    if (live.length === 0) throw fieldError('pathId', M.pathRequiredForType);
    if (!pathId) throw fieldError('pathId', M.pathInvalid);
  }
  if (pathId && !live.some((p) => p.id === pathId)) throw fieldError('pathId', M.pathInvalid);
  return pathId;
}

async function checkOption(env: Env, campaign: CampaignRow, optionId: number | null): Promise<number | null> {
  const live = await getDb(env)
    .select({ id: options.id })
    .from(options)
    .where(and(eq(options.campaignId, campaign.id), eq(options.deleted, 0)))
    .all();
  if (campaign.campaignType === 'multiple_option_type') {
    if (live.length === 0) throw fieldError('optionId', M.optionRequiredForType);
    if (!optionId) throw fieldError('optionId', M.optionInvalid);
  }
  if (optionId && !live.some((o) => o.id === optionId)) throw fieldError('optionId', M.optionInvalid);
  return optionId;
}

async function itemOf<T extends { campaignId: number }>(
  row: T | undefined,
  campaignId: number,
  what: string,
) {
  if (!row || row.campaignId !== campaignId) throw new ApiError(404, `${what} not found.`);
  return row;
}

export async function saveLanding(env: Env, user: AuthUser, input: LandingInput, landingPageId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const db = getDb(env);
  if (landingPageId) {
    await itemOf(
      await db.select().from(landingPages).where(eq(landingPages.id, landingPageId)).get(),
      campaign.id,
      'Landing page',
    );
  }
  const pathId = await checkPath(env, campaign, input.pathId);
  await checkAgents(env, input.agents);
  const values = {
    name: input.name,
    url: input.url,
    share: input.share,
    active: input.active,
    pathId,
    agents: agentString(input.agents),
    updatedAt: Date.now(),
  };
  const row = landingPageId
    ? await db.update(landingPages).set(values).where(eq(landingPages.id, landingPageId)).returning().get()
    : await db
        .insert(landingPages)
        .values({ ...values, campaignId: campaign.id, createdBy: user.id })
        .returning()
        .get();
  invalidateCompiledCampaign(campaign.id);
  const { pathNames } = await nameMaps(env, campaign.id);
  return landingAnswer(row, pathNames);
}

export async function saveOffer(env: Env, user: AuthUser, input: OfferInput, offerPageId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const db = getDb(env);
  if (offerPageId) {
    await itemOf(
      await db.select().from(offerPages).where(eq(offerPages.id, offerPageId)).get(),
      campaign.id,
      'Offer page',
    );
  }
  const pathId = await checkPath(env, campaign, input.pathId);
  const optionId = await checkOption(env, campaign, input.optionId);
  await checkAgents(env, input.agents);
  const values = {
    name: input.name,
    url: input.url,
    share: input.share,
    payoutMicros: input.payout,
    active: input.active,
    pathId,
    optionId,
    postbackParameter: input.postback,
    agents: agentString(input.agents),
    liConversionName: input.liConversionName,
    rotatorParticipantEmail: input.rotator_participant_email,
    updatedAt: Date.now(),
  };
  const row = offerPageId
    ? await db.update(offerPages).set(values).where(eq(offerPages.id, offerPageId)).returning().get()
    : await db
        .insert(offerPages)
        .values({ ...values, campaignId: campaign.id, createdBy: user.id })
        .returning()
        .get();
  invalidateCompiledCampaign(campaign.id);
  const { pathNames, optionNames } = await nameMaps(env, campaign.id);
  return offerAnswer(row, pathNames, optionNames);
}

export async function savePath(env: Env, user: AuthUser, input: PathInput, pathId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const db = getDb(env);
  if (pathId)
    await itemOf(await db.select().from(paths).where(eq(paths.id, pathId)).get(), campaign.id, 'Path');
  await checkAgents(env, input.agents);
  const values = {
    name: input.name,
    share: input.share,
    active: input.active,
    agents: agentString(input.agents),
    updatedAt: Date.now(),
  };
  const row = pathId
    ? await db.update(paths).set(values).where(eq(paths.id, pathId)).returning().get()
    : await db
        .insert(paths)
        .values({ ...values, campaignId: campaign.id, createdBy: user.id })
        .returning()
        .get();
  invalidateCompiledCampaign(campaign.id);
  return pathAnswer(row);
}

export async function saveOption(env: Env, user: AuthUser, input: OptionInput, optionId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const db = getDb(env);
  if (optionId) {
    await itemOf(
      await db.select().from(options).where(eq(options.id, optionId)).get(),
      campaign.id,
      'Option',
    );
  }
  const values = { name: input.name, active: input.active, updatedAt: Date.now() };
  const row = optionId
    ? await db.update(options).set(values).where(eq(options.id, optionId)).returning().get()
    : await db
        .insert(options)
        .values({ ...values, campaignId: campaign.id, createdBy: user.id })
        .returning()
        .get();
  invalidateCompiledCampaign(campaign.id);
  return optionAnswer(row);
}

// ---- links and pixels ----------------------------------------------------------------------

/** The origin tracking links are built on: the custom domain, else the base URL, else the request's. */
export function trackingOrigin(settings: Settings, requestOrigin: string): string {
  const raw = settings.custom_domain || settings.base_url || requestOrigin;
  const withScheme = /^https?:\/\//i.test(raw) ? raw : `https://${raw}`;
  try {
    return new URL(withScheme).origin;
  } catch {
    return requestOrigin;
  }
}

const route = (value: string) => value.replace(/^\/+|\/+$/g, '');

/** The links-and-pixels data of a campaign (spec 2 §3 linkpixel; docs/tracking.md). */
export function linkPixel(
  settings: Settings,
  requestOrigin: string,
  campaign: CampaignRow,
  tokens: TokenRow[],
  optionRows: OptionRow[] = [],
  secret = '',
) {
  const origin = trackingOrigin(settings, requestOrigin);
  // Every conversion URL carries the postback secret (docs/tracking.md "Postback secret").
  const sec = secret ? `&secret=${encodeURIComponent(secret)}` : '';
  const id = campaign.id;
  const query = new URLSearchParams();
  query.set(campaign.urlAppendToken, '');
  let campaignURL = `${origin}/${route(settings.route_main)}/${id}?${query.toString()}`;
  for (const token of tokens.filter((t) => t.deleted === 0 && t.urlAppend)) {
    campaignURL += `&${encodeURIComponent(token.parameter)}=${token.urlAppend}`;
  }
  const click = `${origin}/${route(settings.route_click)}/${id}`;
  const image = `${origin}/${route(settings.route_image)}`;
  const iframe = `${origin}/${route(settings.route_iframe)}`;
  const script = `${origin}/${route(settings.route_script)}`;
  return {
    campaignURL,
    lpofferlink_simple: click,
    lpofferlink_options: optionRows
      .filter((o) => o.deleted === 0)
      .map((o) => ({ optionId: o.id, name: o.name, url: `${click}?option=${o.id}` })),
    postback: `${origin}/${route(settings.route_postback)}?clickid={clickid}&payout={payout}&txid={txid}${sec}`,
    postback_event: `${origin}/${route(settings.route_postback)}?clickid={clickid}&event={event}&payout={payout}${sec}`,
    pixel: `<img src="${image}?campaign=${id}${sec.replace('&', '&amp;')}" width="1" height="1" alt="" style="display:none">`,
    pixel_url: `${image}?campaign=${id}${sec}`,
    iframe: `<iframe src="${iframe}?campaign=${id}${sec.replace('&', '&amp;')}" width="1" height="1" frameborder="0" style="display:none"></iframe>`,
    script: `<script src="${script}?campaign=${id}${sec.replace('&', '&amp;')}" async></script>`,
    direct_tracking: `<script>(function(d){var s=d.createElement('script');s.async=true;s.src='${script}?mode=visit&campaign=${id}&lp=LANDING_PAGE_ID&_ref='+encodeURIComponent(d.referrer)+(location.search?'&'+location.search.slice(1):'');d.head.appendChild(s);})(document);</script>`,
  };
}

export async function campaignDetail(env: Env, user: AuthUser, campaignId: number, requestOrigin: string) {
  const campaign = await campaignForUser(env, user, campaignId);
  const settings = await getSettings(env);
  const db = getDb(env);
  const [tokenRows, optionRows] = await db.batch([
    db
      .select()
      .from(extraTokens)
      .where(eq(extraTokens.campaignId, campaign.id))
      .orderBy(asc(extraTokens.slot)),
    db.select().from(options).where(eq(options.campaignId, campaign.id)).orderBy(asc(options.id)),
  ]);
  const origin = trackingOrigin(settings, requestOrigin);
  return {
    ...campaignAnswer(campaign),
    currentDomain: origin,
    customDomain: settings.custom_domain,
    hasLiveIntentAccount: false,
    liCampaigns: [],
    liLineItems: [],
    liBalanceNotZero: false,
    optimizationMetrics: [],
    banners: [],
    placement: null,
    jeeng_assets: [],
    jeeng_assets_size: 0,
    jeeng_campaign: null,
    jeeng_balance: 0,
    jeeng_min_required_balance: 1500,
    landing: await listLandings(env, campaign.id),
    offer: await listOffers(env, campaign.id),
    path: await listPaths(env, campaign.id),
    option: optionRows.map(optionAnswer),
    agents: await listAgents(env),
    linkpixel: linkPixel(
      settings,
      requestOrigin,
      campaign,
      tokenRows,
      optionRows,
      await expectedSecret(env, campaign.id),
    ),
    extratokens: tokenRows.filter((t) => t.deleted === 0).map(tokenAnswer),
  };
}

// ---- statistics ----------------------------------------------------------------------------

/** Removes a campaign's raw events, rollups and postback log in one transaction. */
export async function resetStatistics(env: Pick<Env, 'DB'>, campaignId: number): Promise<void> {
  const tables = [
    'visits',
    'lp_clicks',
    'conversions',
    'daily_stats',
    'daily_event_stats',
    'target_daily',
    'target_weekly',
    'target_event_daily',
    'placement_daily',
    'placement_event_daily',
    'costs',
    'stats_jobs',
    'postback_log',
  ];
  await env.DB.batch(
    tables.map((t) => env.DB.prepare(`DELETE FROM ${t} WHERE campaign_id = ?1`).bind(campaignId)),
  );
}
