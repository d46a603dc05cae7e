import { and, eq, inArray } from 'drizzle-orm';
import type { SQLiteInsertValue, SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
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
import { type CampaignRow, campaignForUser, refuseDirectLinkLandings } from './access';
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
/**
 * The path or option of an item: required (and of this campaign) where the campaign's type
 * routes by it, else optional.
 */
async function checkChoice(
  env: Env,
  campaign: CampaignRow,
  field: 'pathId' | 'optionId',
  id: number | null,
): Promise<number | null> {
  const [table, type, requiredForType, invalid] =
    field === 'pathId'
      ? [paths, 'multiple_path_type', M.pathRequiredForType, M.pathInvalid]
      : [options, 'multiple_option_type', M.optionRequiredForType, M.optionInvalid];
  const live = await getDb(env)
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.campaignId, campaign.id), eq(table.deleted, 0)))
    .all();
  if (campaign.campaignType === type) {
    if (live.length === 0) throw fieldError(field, requiredForType);
    if (!id) throw fieldError(field, invalid);
  }
  if (id && !live.some((p) => p.id === id)) throw fieldError(field, invalid);
  return id;
}

/** The item `id` of the table, if `id` is given; 404 `what not found.` unless it is of this campaign. */
async function currentItem<T extends ItemTable>(
  env: Env,
  table: T,
  id: number | undefined,
  campaignId: number,
  what: string,
): Promise<T['$inferSelect'] | null> {
  if (!id) return null;
  const row: T['$inferSelect'] | undefined = await getDb(env)
    .select()
    .from(table)
    .where(eq(table.id, id))
    .get();
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
  const current = await currentItem(env, landingPages, landingPageId, campaign.id, 'Landing page');
  if (!current) refuseDirectLinkLandings(campaign);
  const pathId = await checkChoice(env, campaign, 'pathId', input.pathId);
  await checkAgents(env, input.agents);
  const row = await writeItem(env, user, 'landing', landingPages, campaign, current, input.active, {
    name: input.name,
    url: input.url,
    share: input.share,
    pathId,
    agents: agentString(input.agents),
    updatedAt: Date.now(),
  });
  const { pathNames } = await nameMaps(env, campaign.id);
  return landingAnswer(row, pathNames);
}

export async function saveOffer(env: Env, user: AuthUser, input: OfferInput, offerPageId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const current = await currentItem(env, offerPages, offerPageId, campaign.id, 'Offer page');
  const pathId = await checkChoice(env, campaign, 'pathId', input.pathId);
  const optionId = await checkChoice(env, campaign, 'optionId', input.optionId);
  await checkAgents(env, input.agents);
  const row = await writeItem(env, user, 'offer', offerPages, campaign, current, input.active, {
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
  });
  const { pathNames, optionNames } = await nameMaps(env, campaign.id);
  return offerAnswer(row, pathNames, optionNames);
}

export async function savePath(env: Env, user: AuthUser, input: PathInput, pathId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const current = await currentItem(env, paths, pathId, campaign.id, 'Path');
  await checkAgents(env, input.agents);
  const fields = {
    name: input.name,
    share: input.share,
    agents: agentString(input.agents),
    updatedAt: Date.now(),
  };
  return pathAnswer(await writeItem(env, user, 'path', paths, campaign, current, input.active, fields));
}

export async function saveOption(env: Env, user: AuthUser, input: OptionInput, optionId?: number) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const current = await currentItem(env, options, optionId, campaign.id, 'Option');
  const fields = { name: input.name, updatedAt: Date.now() };
  return optionAnswer(await writeItem(env, user, 'option', options, campaign, current, input.active, fields));
}

type ItemTable = typeof landingPages | typeof offerPages | typeof paths | typeof options;

/**
 * Saves an item's `fields`: over `current` through updateItem, or as a new active or inactive
 * item of `campaign` (the routing cache is dropped either way). Answers the row as written.
 */
async function writeItem<T extends ItemTable>(
  env: Env,
  user: AuthUser,
  kind: ItemKind,
  table: T,
  campaign: CampaignRow,
  current: T['$inferSelect'] | null,
  active: 0 | 1,
  fields: SQLiteUpdateSetSource<T>,
): Promise<T['$inferSelect']> {
  const db = getDb(env);
  if (current) {
    const where = eq(table.id, current.id);
    await updateItem(env, user, { kind, ...current }, active, db.update(table).set(fields).where(where));
    return found(await db.select().from(table).where(where).get());
  }
  // drizzle cannot follow a table type parameter through insert: the four tables share these columns.
  const values = { ...fields, active, campaignId: campaign.id, createdBy: user.id } as SQLiteInsertValue<T>;
  const row = (await db.insert(table).values(values).returning().get()) as T['$inferSelect'] | undefined;
  invalidateCompiledCampaign(campaign.id);
  return found(row);
}

/** The row just written; gone only if it was deleted meanwhile. */
function found<T>(row: T | undefined): T {
  if (!row) throw new ApiError(404, 'Item not found.');
  return row;
}
