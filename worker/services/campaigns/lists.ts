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
