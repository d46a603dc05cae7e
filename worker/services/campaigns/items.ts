import { and, eq, inArray } from 'drizzle-orm';
import {
  type LandingInput,
  CAMPAIGN_MESSAGES as M,
  type OfferInput,
  type OptionInput,
  type PathInput,
} from '../../../schema/campaign-api';
import { agents, landingPages, offerPages, options, paths } from '../../../schema/campaigns';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { ApiError, fieldError } from '../../lib/errors';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import {
  type CampaignRow,
  campaignForUser,
  type LandingRow,
  type OfferRow,
  type OptionRow,
  type PathRow,
  refuseDirectLinkLandings,
} from './access';
import { landingAnswer, offerAnswer, optionAnswer, pathAnswer } from './answers';
import { type ItemKind, setItemsActive } from './item-switch';
import { nameMaps } from './lists';

// The editor's saves of landing pages, offers, paths and options. A change of an existing
// item's active flag goes through setItemsActive (docs/decisions/032-one-item-switch.md).

const agentString = (ids: number[]) => ids.join(',');

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

type FieldsUpdate = { toSQL(): { sql: string; params: unknown[] }; run(): Promise<unknown> };

/**
 * Writes an existing item's fields. When its active flag changes, the fields go in the same
 * transaction as the switch, through setItemsActive; either way the routing cache is dropped.
 */
async function updateItem(
  env: Env,
  user: AuthUser,
  item: { kind: ItemKind; campaignId: number; id: number; active: number },
  active: 0 | 1,
  fields: FieldsUpdate,
) {
  if (item.active === active) {
    await fields.run();
    invalidateCompiledCampaign(item.campaignId);
    return;
  }
  const { sql, params } = fields.toSQL();
  await setItemsActive(env, {
    campaignId: item.campaignId,
    kind: item.kind,
    ids: [item.id],
    active,
    actor: { kind: 'user', userId: user.id },
    alongside: [env.DB.prepare(sql).bind(...params)],
  });
}

export async function saveLanding(env: Env, user: AuthUser, input: LandingInput, landingPageId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const db = getDb(env);
  const current = landingPageId
    ? await itemOf(
        await db.select().from(landingPages).where(eq(landingPages.id, landingPageId)).get(),
        campaign.id,
        'Landing page',
      )
    : null;
  if (!current) refuseDirectLinkLandings(campaign);
  const pathId = await checkPath(env, campaign, input.pathId);
  await checkAgents(env, input.agents);
  const fields = {
    name: input.name,
    url: input.url,
    share: input.share,
    pathId,
    agents: agentString(input.agents),
    updatedAt: Date.now(),
  };
  let row: LandingRow | undefined;
  if (current) {
    const where = eq(landingPages.id, current.id);
    await updateItem(
      env,
      user,
      { kind: 'landing', ...current },
      input.active,
      db.update(landingPages).set(fields).where(where),
    );
    row = await db.select().from(landingPages).where(where).get();
  } else {
    row = await db
      .insert(landingPages)
      .values({ ...fields, active: input.active, campaignId: campaign.id, createdBy: user.id })
      .returning()
      .get();
    invalidateCompiledCampaign(campaign.id);
  }
  const { pathNames } = await nameMaps(env, campaign.id);
  return landingAnswer(found(row), pathNames);
}

export async function saveOffer(env: Env, user: AuthUser, input: OfferInput, offerPageId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const db = getDb(env);
  const current = offerPageId
    ? await itemOf(
        await db.select().from(offerPages).where(eq(offerPages.id, offerPageId)).get(),
        campaign.id,
        'Offer page',
      )
    : null;
  const pathId = await checkPath(env, campaign, input.pathId);
  const optionId = await checkOption(env, campaign, input.optionId);
  await checkAgents(env, input.agents);
  const fields = {
    name: input.name,
    url: input.url,
    share: input.share,
    payoutMicros: input.payout,
    pathId,
    optionId,
    postbackParameter: input.postback,
    agents: agentString(input.agents),
    liConversionName: input.liConversionName,
    rotatorParticipantEmail: input.rotator_participant_email,
    updatedAt: Date.now(),
  };
  let row: OfferRow | undefined;
  if (current) {
    const where = eq(offerPages.id, current.id);
    await updateItem(
      env,
      user,
      { kind: 'offer', ...current },
      input.active,
      db.update(offerPages).set(fields).where(where),
    );
    row = await db.select().from(offerPages).where(where).get();
  } else {
    row = await db
      .insert(offerPages)
      .values({ ...fields, active: input.active, campaignId: campaign.id, createdBy: user.id })
      .returning()
      .get();
    invalidateCompiledCampaign(campaign.id);
  }
  const { pathNames, optionNames } = await nameMaps(env, campaign.id);
  return offerAnswer(found(row), pathNames, optionNames);
}

export async function savePath(env: Env, user: AuthUser, input: PathInput, pathId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const db = getDb(env);
  const current = pathId
    ? await itemOf(await db.select().from(paths).where(eq(paths.id, pathId)).get(), campaign.id, 'Path')
    : null;
  await checkAgents(env, input.agents);
  const fields = {
    name: input.name,
    share: input.share,
    agents: agentString(input.agents),
    updatedAt: Date.now(),
  };
  let row: PathRow | undefined;
  if (current) {
    const where = eq(paths.id, current.id);
    await updateItem(
      env,
      user,
      { kind: 'path', ...current },
      input.active,
      db.update(paths).set(fields).where(where),
    );
    row = await db.select().from(paths).where(where).get();
  } else {
    row = await db
      .insert(paths)
      .values({ ...fields, active: input.active, campaignId: campaign.id, createdBy: user.id })
      .returning()
      .get();
    invalidateCompiledCampaign(campaign.id);
  }
  return pathAnswer(found(row));
}

export async function saveOption(env: Env, user: AuthUser, input: OptionInput, optionId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const db = getDb(env);
  const current = optionId
    ? await itemOf(
        await db.select().from(options).where(eq(options.id, optionId)).get(),
        campaign.id,
        'Option',
      )
    : null;
  const fields = { name: input.name, updatedAt: Date.now() };
  let row: OptionRow | undefined;
  if (current) {
    const where = eq(options.id, current.id);
    await updateItem(
      env,
      user,
      { kind: 'option', ...current },
      input.active,
      db.update(options).set(fields).where(where),
    );
    row = await db.select().from(options).where(where).get();
  } else {
    row = await db
      .insert(options)
      .values({ ...fields, active: input.active, campaignId: campaign.id, createdBy: user.id })
      .returning()
      .get();
    invalidateCompiledCampaign(campaign.id);
  }
  return optionAnswer(found(row));
}

/** The row just written; gone only if it was deleted meanwhile. */
function found<T>(row: T | undefined): T {
  if (!row) throw new ApiError(404, 'Item not found.');
  return row;
}
