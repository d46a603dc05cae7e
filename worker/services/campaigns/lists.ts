import { and, asc, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  agents,
  campaigns,
  extraTokens,
  landingPages,
  offerPages,
  options,
  paths,
} from '../../../schema/campaigns';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { campaignForUser, ownedBy } from './access';
import { landingAnswer, offerAnswer, optionAnswer, pathAnswer, tokenAnswer } from './answers';

// The campaigns list of a folder and the item lists of a campaign.

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

export async function nameMaps(env: Env, campaignId: number) {
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

type ItemTable = typeof landingPages | typeof offerPages | typeof paths | typeof options | typeof extraTokens;

/** A campaign's rows of `table`, the deleted ones too when `showDeleted` is 1, in `order`. */
async function campaignRows<T extends ItemTable>(
  env: Env,
  table: T,
  campaignId: number,
  showDeleted: 0 | 1,
  order: SQLiteColumn[] = [table.id],
) {
  const deleted = showDeleted === 1 ? sql`1 = 1` : eq(table.deleted, 0);
  return getDb(env)
    .select()
    .from(table)
    .where(and(eq(table.campaignId, campaignId), deleted))
    .orderBy(...order.map((column) => asc(column)))
    .all();
}

export async function listLandings(env: Env, campaignId: number, showDeleted: 0 | 1 = 1) {
  const { pathNames } = await nameMaps(env, campaignId);
  const rows = await campaignRows(env, landingPages, campaignId, showDeleted);
  return rows.map((r) => landingAnswer(r, pathNames));
}

export async function listOffers(env: Env, campaignId: number, showDeleted: 0 | 1 = 1) {
  const { pathNames, optionNames } = await nameMaps(env, campaignId);
  const rows = await campaignRows(env, offerPages, campaignId, showDeleted);
  return rows.map((r) => offerAnswer(r, pathNames, optionNames));
}

export async function listPaths(env: Env, campaignId: number, showDeleted: 0 | 1 = 1) {
  return (await campaignRows(env, paths, campaignId, showDeleted)).map(pathAnswer);
}

export async function listOptions(env: Env, campaignId: number, showDeleted: 0 | 1 = 1) {
  return (await campaignRows(env, options, campaignId, showDeleted)).map(optionAnswer);
}

export async function listTokens(env: Env, campaignId: number, showDeleted: 0 | 1 = 0) {
  const rows = await campaignRows(env, extraTokens, campaignId, showDeleted, [
    extraTokens.slot,
    extraTokens.id,
  ]);
  return rows.map(tokenAnswer);
}

export async function listAgents(env: Env) {
  const rows = await getDb(env).select().from(agents).orderBy(asc(agents.id)).all();
  return rows.map((r) => ({ id: r.id, agent_name: r.agentName }));
}
