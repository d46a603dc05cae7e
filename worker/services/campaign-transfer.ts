import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { strToU8, type UnzipFileInfo, unzipSync, zipSync } from 'fflate';
import type { z } from 'zod';
import {
  type AddCampaignInput,
  addCampaignSchema,
  addLandingSchema,
  addOfferSchema,
  addOptionSchema,
  addPathSchema,
  extraTokenInput,
} from '../../schema/campaign-api';
import {
  CSV_COLUMNS,
  type CsvColumn,
  LIST_MESSAGES as M,
  MANIFEST_FORMAT,
  MANIFEST_NAME,
  MANIFEST_VERSION,
  MAX_CSV_BYTES,
  MAX_CSV_ROWS,
  MAX_IMPORT_CAMPAIGNS,
  MAX_IMPORT_ITEMS,
  MAX_ZIP_BYTES,
  MAX_ZIP_ENTRIES,
  MAX_ZIP_UNPACKED_BYTES,
  type Manifest,
  manifestSchema,
} from '../../schema/campaign-list-api';
import {
  agents,
  campaigns,
  extraTokens,
  landingPages,
  MAX_EXTRA_TOKENS,
  offerPages,
  options,
  paths,
} from '../../schema/campaigns';
import { formatMicros } from '../../schema/money';
import type { Env } from '../env';
import type { AuthUser } from '../lib/auth';
import { parseCsv } from '../lib/csv';
import { getDb } from '../lib/db';
import { ApiError, fieldError, validationError } from '../lib/errors';
import { signedDownloadPath } from '../lib/r2';
import { inflateEntry, zipEntryMessage } from '../lib/zip';
import { campaignRuleProblem } from './campaign-rules';
import { chunks, descendants, listItem, requireRows, resolveFolder } from './campaign-tree';
import { campaignAnswer, campaignForUser, campaignValues, canSeeEveryCampaign } from './campaigns';

// Copying campaigns: clone (within the installation), export to a ZIP in R2, import of such a
// ZIP, and campaigns from a CSV file. Every write is one D1 batch (one transaction), so a bad
// file or a failure half-way leaves nothing behind. New rows get explicit ids allocated before
// the batch, which lets items point at their new paths and options inside the same batch; if
// another writer took an id meanwhile, the batch fails on the primary key and is retried.
// The file format is described in docs/campaign-transfer.md.

type CampaignRow = typeof campaigns.$inferSelect;
type CampaignInsert = typeof campaigns.$inferInsert;
type PathRow = typeof paths.$inferSelect;
type OptionRow = typeof options.$inferSelect;
type LandingRow = typeof landingPages.$inferSelect;
type OfferRow = typeof offerPages.$inferSelect;
type TokenRow = typeof extraTokens.$inferSelect;

/** A campaign or folder to write, with its items; keys are ids of the source (row or manifest). */
type Plan = {
  key: number;
  /** Key of a planned folder holding this one; null puts it into the target folder. */
  parentKey: number | null;
  values: Omit<CampaignInsert, 'id' | 'parentId' | 'createdBy'>;
  paths: { key: number; values: Omit<typeof paths.$inferInsert, 'id' | 'campaignId' | 'createdBy'> }[];
  options: { key: number; values: Omit<typeof options.$inferInsert, 'id' | 'campaignId' | 'createdBy'> }[];
  landings: {
    pathKey: number | null;
    values: Omit<typeof landingPages.$inferInsert, 'id' | 'campaignId' | 'pathId' | 'createdBy'>;
  }[];
  offers: {
    pathKey: number | null;
    optionKey: number | null;
    values: Omit<typeof offerPages.$inferInsert, 'id' | 'campaignId' | 'pathId' | 'optionId' | 'createdBy'>;
  }[];
  tokens: Omit<typeof extraTokens.$inferInsert, 'id' | 'campaignId'>[];
};

const emptyPlan = (key: number, parentKey: number | null, values: Plan['values']): Plan => ({
  key,
  parentKey,
  values,
  paths: [],
  options: [],
  landings: [],
  offers: [],
  tokens: [],
});

// ---- writing -----------------------------------------------------------------------------------

const ID_TABLES = ['campaigns', 'paths', 'options', 'landing_pages', 'offer_pages', 'extra_tokens'] as const;
type IdTable = (typeof ID_TABLES)[number];

/** The next unused id of each table: above both the largest id and the AUTOINCREMENT sequence. */
async function nextIds(env: Pick<Env, 'DB'>): Promise<Record<IdTable, number>> {
  const maxes = await env.DB.batch<{ m: number | null }>(
    ID_TABLES.map((t) => env.DB.prepare(`SELECT max(id) AS m FROM ${t}`)),
  );
  const seq = new Map<string, number>();
  try {
    const { results } = await env.DB.prepare(
      `SELECT name, seq FROM sqlite_sequence WHERE name IN (${ID_TABLES.map((_, i) => `?${i + 1}`).join(', ')})`,
    )
      .bind(...ID_TABLES)
      .all<{ name: string; seq: number }>();
    for (const r of results) seq.set(r.name, r.seq);
  } catch {
    // No sequence table readable: the largest id is the floor.
  }
  const out = {} as Record<IdTable, number>;
  ID_TABLES.forEach((t, i) => {
    out[t] = Math.max(maxes[i].results[0]?.m ?? 0, seq.get(t) ?? 0) + 1;
  });
  return out;
}

/** Rows per INSERT so that no statement binds more than 100 parameters (drizzle binds every column). */
function insertChunks<T>(table: Parameters<typeof getTableColumns>[0], rows: T[]): T[][] {
  const columns = Object.keys(getTableColumns(table)).length;
  return chunks(rows, Math.max(1, Math.floor(100 / columns)));
}

/**
 * Writes the plans in one batch under `parentId` for `ownerId`; answers the new campaign id of
 * each plan, in plan order. Plans must list folders before what they hold.
 */
async function writePlans(env: Env, plans: Plan[], parentId: number | null, ownerId: number) {
  const db = getDb(env);
  for (let attempt = 1; ; attempt++) {
    const next = await nextIds(env);
    const now = Date.now();
    const campaignIds = new Map<number, number>();
    plans.forEach((p, i) => {
      campaignIds.set(p.key, next.campaigns + i);
    });
    const campaignRows: CampaignInsert[] = [];
    const pathRows: (typeof paths.$inferInsert)[] = [];
    const optionRows: (typeof options.$inferInsert)[] = [];
    const landingRows: (typeof landingPages.$inferInsert)[] = [];
    const offerRows: (typeof offerPages.$inferInsert)[] = [];
    const tokenRows: (typeof extraTokens.$inferInsert)[] = [];
    for (const plan of plans) {
      const id = campaignIds.get(plan.key)!;
      campaignRows.push({
        ...plan.values,
        id,
        parentId: plan.parentKey === null ? parentId : (campaignIds.get(plan.parentKey) ?? parentId),
        createdBy: ownerId,
        createdAt: now,
        updatedAt: now,
      });
      const pathIds = new Map<number, number>();
      for (const p of plan.paths) {
        const newId = next.paths++;
        pathIds.set(p.key, newId);
        pathRows.push({
          ...p.values,
          id: newId,
          campaignId: id,
          createdBy: ownerId,
          createdAt: now,
          updatedAt: now,
        });
      }
      const optionIds = new Map<number, number>();
      for (const o of plan.options) {
        const newId = next.options++;
        optionIds.set(o.key, newId);
        optionRows.push({
          ...o.values,
          id: newId,
          campaignId: id,
          createdBy: ownerId,
          createdAt: now,
          updatedAt: now,
        });
      }
      for (const l of plan.landings) {
        landingRows.push({
          ...l.values,
          id: next.landing_pages++,
          campaignId: id,
          pathId: l.pathKey === null ? null : (pathIds.get(l.pathKey) ?? null),
          createdBy: ownerId,
          createdAt: now,
          updatedAt: now,
        });
      }
      for (const o of plan.offers) {
        offerRows.push({
          ...o.values,
          id: next.offer_pages++,
          campaignId: id,
          pathId: o.pathKey === null ? null : (pathIds.get(o.pathKey) ?? null),
          optionId: o.optionKey === null ? null : (optionIds.get(o.optionKey) ?? null),
          createdBy: ownerId,
          createdAt: now,
          updatedAt: now,
        });
      }
      for (const t of plan.tokens) {
        tokenRows.push({ ...t, id: next.extra_tokens++, campaignId: id, createdAt: now, updatedAt: now });
      }
    }
    // Parents before children: the items' foreign keys are checked statement by statement.
    const statements = [
      ...insertChunks(campaigns, campaignRows).map((rows) => db.insert(campaigns).values(rows)),
      ...insertChunks(paths, pathRows).map((rows) => db.insert(paths).values(rows)),
      ...insertChunks(options, optionRows).map((rows) => db.insert(options).values(rows)),
      ...insertChunks(landingPages, landingRows).map((rows) => db.insert(landingPages).values(rows)),
      ...insertChunks(offerPages, offerRows).map((rows) => db.insert(offerPages).values(rows)),
      ...insertChunks(extraTokens, tokenRows).map((rows) => db.insert(extraTokens).values(rows)),
    ];
    try {
      const [first, ...rest] = statements;
      await db.batch([first, ...rest]);
      return plans.map((p) => campaignIds.get(p.key)!);
    } catch (err) {
      // Another writer took one of the ids between the read and the batch: allocate again.
      if (attempt < 4 && /UNIQUE constraint failed: \w+\.id|PRIMARY KEY/i.test(String(err))) continue;
      throw err;
    }
  }
}

async function listItemsOf(env: Pick<Env, 'DB'>, ids: number[]) {
  const out: ReturnType<typeof listItem>[] = [];
  for (const part of chunks(ids)) {
    const { results } = await env.DB.prepare(
      `SELECT id, name, is_dir, parent_id, deleted, active, campaign_type, traffic_source, offer_promotion
       FROM campaigns WHERE id IN (${part.map((_, i) => `?${i + 1}`).join(', ')}) ORDER BY id`,
    )
      .bind(...part)
      .all<Parameters<typeof listItem>[0]>();
    out.push(...results.map(listItem));
  }
  return out;
}

// ---- reading a campaign's rows -------------------------------------------------------------------

type Items = {
  paths: PathRow[];
  options: OptionRow[];
  landings: LandingRow[];
  offers: OfferRow[];
  tokens: TokenRow[];
};

async function itemsOf(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  { liveOnly }: { liveOnly: boolean },
): Promise<Items> {
  const db = getDb(env);
  const live = (column: SQLiteColumn) => (liveOnly ? eq(column, 0) : undefined);
  const [p, o, l, f, t] = await db.batch([
    db
      .select()
      .from(paths)
      .where(and(eq(paths.campaignId, campaignId), live(paths.deleted)))
      .orderBy(asc(paths.id)),
    db
      .select()
      .from(options)
      .where(and(eq(options.campaignId, campaignId), live(options.deleted)))
      .orderBy(asc(options.id)),
    db
      .select()
      .from(landingPages)
      .where(and(eq(landingPages.campaignId, campaignId), live(landingPages.deleted)))
      .orderBy(asc(landingPages.id)),
    db
      .select()
      .from(offerPages)
      .where(and(eq(offerPages.campaignId, campaignId), live(offerPages.deleted)))
      .orderBy(asc(offerPages.id)),
    db
      .select()
      .from(extraTokens)
      .where(and(eq(extraTokens.campaignId, campaignId), live(extraTokens.deleted)))
      .orderBy(asc(extraTokens.id)),
  ]);
  return { paths: p, options: o, landings: l, offers: f, tokens: t };
}

// ---- clone -------------------------------------------------------------------------------------

/** The campaign's own columns, without identity, place, ownership, state and times. */
function copyableColumns(row: CampaignRow): Plan['values'] {
  const {
    id: _id,
    parentId: _parent,
    createdBy: _owner,
    createdAt: _created,
    updatedAt: _updated,
    deleted: _deleted,
    deletedAt: _deletedAt,
    ...rest
  } = row;
  return rest;
}

/** A plan copying the campaign's live items, keyed by their current ids. */
function planFromRows(key: number, parentKey: number | null, values: Plan['values'], items: Items): Plan {
  const plan = emptyPlan(key, parentKey, values);
  const livePaths = new Set(items.paths.map((p) => p.id));
  const liveOptions = new Set(items.options.map((o) => o.id));
  plan.paths = items.paths.map((p) => ({
    key: p.id,
    values: { name: p.name, share: p.share, active: p.active, agents: p.agents, deleted: p.deleted },
  }));
  plan.options = items.options.map((o) => ({
    key: o.id,
    values: { name: o.name, active: o.active, deleted: o.deleted },
  }));
  plan.landings = items.landings.map((l) => ({
    pathKey: l.pathId !== null && livePaths.has(l.pathId) ? l.pathId : null,
    values: {
      name: l.name,
      url: l.url,
      share: l.share,
      active: l.active,
      agents: l.agents,
      deleted: l.deleted,
    },
  }));
  plan.offers = items.offers.map((o) => ({
    pathKey: o.pathId !== null && livePaths.has(o.pathId) ? o.pathId : null,
    optionKey: o.optionId !== null && liveOptions.has(o.optionId) ? o.optionId : null,
    values: {
      name: o.name,
      url: o.url,
      share: o.share,
      payoutMicros: o.payoutMicros,
      active: o.active,
      postbackParameter: o.postbackParameter,
      agents: o.agents,
      liConversionName: o.liConversionName,
      rotatorParticipantEmail: o.rotatorParticipantEmail,
      deleted: o.deleted,
    },
  }));
  plan.tokens = items.tokens.map((t) => ({
    slot: t.slot,
    tokenName: t.tokenName,
    parameter: t.parameter,
    urlAppend: t.urlAppend,
    landingPageEnabled: t.landingPageEnabled,
    offerPageEnabled: t.offerPageEnabled,
    deleted: t.deleted,
  }));
  return plan;
}

/**
 * POST /api/clone: a copy of the campaign next to it, named '<name> (copy)', with its live
 * landing pages, offers, paths, options and extra tokens (items point at the copies of their
 * paths and options); statistics are not copied. The copy belongs to the campaign's owner.
 */
export async function cloneCampaign(env: Env, user: AuthUser, campaignId: number) {
  const source = await campaignForUser(env, user, campaignId);
  const items = await itemsOf(env, source.id, { liveOnly: true });
  const values = { ...copyableColumns(source), name: `${source.name} (copy)`.slice(0, 255) };
  const [id] = await writePlans(
    env,
    [planFromRows(source.id, null, values, items)],
    source.parentId,
    source.createdBy ?? user.id,
  );
  const row = await getDb(env).query.campaigns.findFirst({ where: (c, { eq }) => eq(c.id, id) });
  return { message: M.cloned, resultt: campaignAnswer(row!) };
}

// ---- export ------------------------------------------------------------------------------------

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
    cpc: formatMicros(row.cpcMicros),
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
    paths: items.paths.map((p) => ({
      ref: p.id,
      name: p.name,
      share: p.share,
      active: p.active,
      agents: p.agents,
      deleted: p.deleted,
    })),
    options: items.options.map((o) => ({ ref: o.id, name: o.name, active: o.active, deleted: o.deleted })),
    landings: items.landings.map((l) => ({
      ref: l.id,
      pathRef: l.pathId,
      name: l.name,
      url: l.url,
      share: l.share,
      active: l.active,
      agents: l.agents,
      deleted: l.deleted,
    })),
    offers: items.offers.map((o) => ({
      ref: o.id,
      pathRef: o.pathId,
      optionRef: o.optionId,
      name: o.name,
      url: o.url,
      share: o.share,
      payout: formatMicros(o.payoutMicros),
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

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'campaign'
  );
}

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
  const zip = zipSync({
    [MANIFEST_NAME]: strToU8(JSON.stringify(manifest, null, 2)),
    'README.txt': strToU8(README),
  });
  const single = ids.length === 1;
  const first = byId.get(ids[0]);
  const name =
    single && first
      ? `campaign-${first.id}-${slug(first.name)}.zip`
      : `campaigns-${new Date().toISOString().slice(0, 10)}.zip`;
  const key = `exports/${crypto.randomUUID()}/${name}`;
  await env.BUCKET.put(key, zip, { httpMetadata: { contentType: 'application/zip' } });
  return {
    message: single ? M.exportedOne : M.exportedMany,
    downloadLink: await signedDownloadPath(env, key, name),
  };
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

// ---- files -------------------------------------------------------------------------------------

function uploadError(message: string) {
  return fieldError('uploads', message);
}

function tooLarge(message: string) {
  return new ApiError(413, message, { uploads: [message] });
}

/** The owner of uploaded campaigns: the caller, or for an admin or coach the userId they name. */
export async function uploadOwner(env: Pick<Env, 'DB'>, user: AuthUser, userId: unknown): Promise<number> {
  const raw = typeof userId === 'string' ? userId.trim() : userId;
  if (raw === undefined || raw === null || raw === '' || Number(raw) === user.id) return user.id;
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1 || !canSeeEveryCampaign(user))
    throw fieldError('userId', M.userInvalid);
  const row = await env.DB.prepare('SELECT id FROM users WHERE id = ?1').bind(id).first<{ id: number }>();
  if (!row) throw fieldError('userId', M.userInvalid);
  return id;
}

/** The text of an uploaded CSV: UTF-8 without NUL bytes, else it is not a CSV file. */
function csvText(bytes: Uint8Array): string {
  if (bytes.includes(0)) throw uploadError(M.csvInvalid);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw uploadError(M.csvInvalid);
  }
}

function hasExtension(name: string, ext: string) {
  return name.toLowerCase().endsWith(`.${ext}`);
}

type CampaignValues = Plan['values'];

/** Column values of a campaign checked by the add-campaign rules (services/campaigns.ts), as a top-level campaign. */
function campaignColumns(input: AddCampaignInput, name: string): CampaignValues {
  const { parentId: _parent, ...values } = campaignValues({ ...input, name });
  return { ...values, isDir: 0 };
}

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0];
  const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return `${field}${issue?.message ?? 'invalid value'}`;
};

/**
 * POST /api/uploadcsv: campaigns from a CSV file with a header row (columns in
 * CSV_COLUMNS, any order; name required). Every line is checked by the add-campaign rules
 * before anything is written; one bad line writes nothing.
 */
export async function importCsv(
  env: Env,
  user: AuthUser,
  file: unknown,
  dir: number | null,
  ownerId: number,
) {
  if (!(file instanceof File) || (file.size === 0 && !file.name)) throw uploadError(M.csvRequired);
  if (!hasExtension(file.name, 'csv')) throw uploadError(M.csvInvalid);
  if (file.size > MAX_CSV_BYTES) throw tooLarge(M.csvTooLarge);
  const target = await resolveFolder(env, user, dir);
  const rows = parseCsv(csvText(new Uint8Array(await file.arrayBuffer())));
  const header = (rows.shift() ?? []).map((h) => h.trim());
  const known = new Map(CSV_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const columns: (CsvColumn | null)[] = [];
  for (const h of header) {
    if (!h) {
      columns.push(null);
      continue;
    }
    const column = known.get(h.toLowerCase());
    if (!column) {
      throw uploadError(`Unknown column "${h.slice(0, 40)}". The columns are: ${CSV_COLUMNS.join(', ')}.`);
    }
    columns.push(column);
  }
  if (!columns.includes('name')) throw uploadError(M.csvHeader);
  if (rows.length === 0) throw uploadError(M.csvEmpty);
  if (rows.length > MAX_CSV_ROWS) throw tooLarge(M.csvTooManyRows);
  const problems: string[] = [];
  const plans: Plan[] = [];
  rows.forEach((cells, i) => {
    const record: Record<string, unknown> = {};
    columns.forEach((column, c) => {
      if (column && cells[c] !== undefined && cells[c].trim() !== '') record[column] = cells[c].trim();
    });
    const parsed = addCampaignSchema.safeParse(record);
    if (!parsed.success) {
      problems.push(`Line ${i + 2}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
      return;
    }
    const rule = campaignRuleProblem(parsed.data);
    if (rule) {
      problems.push(`Line ${i + 2}: ${rule.message}`);
      return;
    }
    plans.push(emptyPlan(i + 1, null, campaignColumns(parsed.data, parsed.data.name)));
  });
  if (problems.length) throw validationError({ uploads: problems.slice(0, 20) });
  const ids = await writePlans(env, plans, target?.id ?? null, ownerId);
  return { uploaded: true, message: M.csvUploaded, count: ids.length, result: await listItemsOf(env, ids) };
}

// ---- ZIP import ----------------------------------------------------------------------------------

/** An entry name that would write outside the archive's own folder, or is not a plain path. */
function unsafeEntryName(name: string): boolean {
  if (!name || name.length > 255) return true;
  if (name.includes('\\') || name.includes('\0') || name.startsWith('/') || /^[A-Za-z]:/.test(name))
    return true;
  return name.split('/').some((part) => part === '..');
}

const printable = (name: string) => name.replace(/[^\x20-\x7e]/g, '?').slice(0, 80);

class TooManyEntries extends Error {}

/** Reads the manifest out of an uploaded ZIP after checking the file and every entry. */
function readManifest(bytes: Uint8Array): unknown {
  const isZip =
    bytes.length >= 22 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
  if (!isZip) throw uploadError(M.zipInvalid);
  const entries: UnzipFileInfo[] = [];
  try {
    // The central directory only: nothing is inflated while the entries are checked.
    unzipSync(bytes, {
      filter: (info) => {
        entries.push(info);
        if (entries.length > MAX_ZIP_ENTRIES) throw new TooManyEntries();
        return false;
      },
    });
  } catch (err) {
    if (err instanceof TooManyEntries) throw uploadError(M.zipTooManyEntries);
    throw uploadError(M.zipCorrupt);
  }
  for (const entry of entries) {
    if (unsafeEntryName(entry.name)) throw uploadError(`${M.zipUnsafeName}: ${printable(entry.name)}`);
  }
  const unpacked = entries.reduce((sum, e) => sum + e.originalSize, 0);
  if (unpacked > MAX_ZIP_UNPACKED_BYTES) throw uploadError(M.zipTooBig);
  if (!entries.some((e) => e.name === MANIFEST_NAME)) throw uploadError(M.zipNoManifest);
  let text: string;
  try {
    // Counted as it inflates: a header that lies about the size is refused, never truncated.
    const manifest = inflateEntry(bytes, MANIFEST_NAME, MAX_ZIP_UNPACKED_BYTES);
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(manifest);
  } catch (err) {
    throw uploadError(zipEntryMessage(err, M.zipCorrupt));
  }
  try {
    return JSON.parse(text);
  } catch {
    throw uploadError(M.zipCorrupt);
  }
}

/** Checks a manifest's campaigns and items by the editor's rules and turns them into plans. */
async function plansFromManifest(env: Pick<Env, 'DB'>, raw: unknown): Promise<Plan[]> {
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > MANIFEST_VERSION) throw uploadError(M.manifestNewer);
  const shape = manifestSchema.safeParse(raw);
  if (!shape.success) throw uploadError(`${M.manifestInvalid}: ${firstIssue(shape.error)}`);
  const manifest: Manifest = shape.data;
  const itemCount = manifest.campaigns.reduce(
    (n, c) => n + c.paths.length + c.options.length + c.landings.length + c.offers.length + c.tokens.length,
    0,
  );
  if (manifest.campaigns.length > MAX_IMPORT_CAMPAIGNS || itemCount > MAX_IMPORT_ITEMS) {
    throw uploadError(M.importTooLarge);
  }
  const refs = new Map(manifest.campaigns.map((c) => [c.ref, c]));
  if (refs.size !== manifest.campaigns.length)
    throw uploadError(`${M.manifestInvalid}: campaign refs repeat.`);
  const known = new Set((await getDb(env).select({ id: agents.id }).from(agents).all()).map((a) => a.id));
  const bad = (campaign: string, message: string) =>
    uploadError(`${M.manifestInvalid}: "${printable(campaign)}": ${message}`);
  const checkAgents = (name: string, ids: number[]) => {
    if (ids.some((id) => !known.has(id))) throw bad(name, 'Select at least one valid device.');
    return ids.join(',');
  };
  const flagOf = (v: unknown) => (v === 1 || v === '1' || v === true ? 1 : 0);

  // Folders before their contents, and no folder inside itself.
  const depth = new Map<number, number>();
  const depthOfRef = (ref: number, seen = new Set<number>()): number => {
    if (depth.has(ref)) return depth.get(ref)!;
    const entry = refs.get(ref)!;
    if (entry.parentRef === null) return 0;
    const parent = refs.get(entry.parentRef);
    if (parent?.is_dir !== 1 || seen.has(ref)) throw bad(entry.name, 'its folder is not in the export.');
    seen.add(ref);
    const d = depthOfRef(entry.parentRef, seen) + 1;
    depth.set(ref, d);
    return d;
  };
  const ordered = [...manifest.campaigns].sort((a, b) => depthOfRef(a.ref) - depthOfRef(b.ref));

  const plans: Plan[] = [];
  for (const entry of ordered) {
    const name = entry.name.trim();
    if (entry.is_dir === 1) {
      if (!name) throw bad(entry.name, M.folderNameRequired);
      plans.push(emptyPlan(entry.ref, entry.parentRef, { name: name.slice(0, 255), isDir: 1 }));
      continue;
    }
    const liveTokens = entry.tokens.filter((t) => flagOf(t.deleted) === 0);
    const parsed = addCampaignSchema.safeParse({
      ...(entry.campaign ?? {}),
      name,
      dir: null,
      extratokens: liveTokens,
    });
    if (!parsed.success) throw bad(entry.name, firstIssue(parsed.error));
    const rule = campaignRuleProblem(parsed.data);
    if (rule) throw bad(entry.name, rule.message);
    const plan = emptyPlan(entry.ref, entry.parentRef, campaignColumns(parsed.data, parsed.data.name));
    const pathRefs = new Set<number>();
    const optionRefs = new Set<number>();
    for (const p of entry.paths) {
      const r = addPathSchema.safeParse({ ...p, campaignId: 1 });
      if (!r.success) throw bad(entry.name, `path: ${firstIssue(r.error)}`);
      if (pathRefs.has(p.ref)) throw bad(entry.name, 'path refs repeat.');
      pathRefs.add(p.ref);
      plan.paths.push({
        key: p.ref,
        values: {
          name: r.data.name,
          share: r.data.share,
          active: r.data.active,
          agents: checkAgents(entry.name, r.data.agents),
          deleted: flagOf(p.deleted),
        },
      });
    }
    for (const o of entry.options) {
      const r = addOptionSchema.safeParse({ ...o, campaignId: 1 });
      if (!r.success) throw bad(entry.name, `option: ${firstIssue(r.error)}`);
      if (optionRefs.has(o.ref)) throw bad(entry.name, 'option refs repeat.');
      optionRefs.add(o.ref);
      plan.options.push({
        key: o.ref,
        values: { name: r.data.name, active: r.data.active, deleted: flagOf(o.deleted) },
      });
    }
    const refOf = (value: unknown, known: Set<number>, what: string) => {
      if (value === null || value === undefined || value === 0) return null;
      if (typeof value !== 'number' || !known.has(value))
        throw bad(entry.name, `a ${what} it names is not in the export.`);
      return value;
    };
    for (const l of entry.landings) {
      const r = addLandingSchema.safeParse({ ...l, campaignId: 1, pathId: null });
      if (!r.success) throw bad(entry.name, `landing page: ${firstIssue(r.error)}`);
      plan.landings.push({
        pathKey: refOf(l.pathRef, pathRefs, 'path'),
        values: {
          name: r.data.name,
          url: r.data.url,
          share: r.data.share,
          active: r.data.active,
          agents: checkAgents(entry.name, r.data.agents),
          deleted: flagOf(l.deleted),
        },
      });
    }
    for (const o of entry.offers) {
      const r = addOfferSchema.safeParse({ ...o, campaignId: 1, pathId: null, optionId: null });
      if (!r.success) throw bad(entry.name, `offer page: ${firstIssue(r.error)}`);
      plan.offers.push({
        pathKey: refOf(o.pathRef, pathRefs, 'path'),
        optionKey: refOf(o.optionRef, optionRefs, 'option'),
        values: {
          name: r.data.name,
          url: r.data.url,
          share: r.data.share,
          payoutMicros: r.data.payout,
          active: r.data.active,
          postbackParameter: r.data.postback,
          agents: checkAgents(entry.name, r.data.agents),
          liConversionName: r.data.liConversionName,
          rotatorParticipantEmail: r.data.rotator_participant_email,
          deleted: flagOf(o.deleted),
        },
      });
    }
    // Live tokens keep their slots when they are valid and distinct; the others get free ones.
    const used = new Set<number>();
    const wanted = entry.tokens.map((t) => {
      const r = extraTokenInput.safeParse(t);
      if (!r.success) throw bad(entry.name, `token: ${firstIssue(r.error)}`);
      const deleted = flagOf(t.deleted);
      const slot = Number(t.slot);
      const keep =
        deleted === 0 && Number.isInteger(slot) && slot >= 1 && slot <= MAX_EXTRA_TOKENS && !used.has(slot);
      if (keep) used.add(slot);
      return { r: r.data, deleted, slot: keep ? slot : null, rawSlot: slot };
    });
    for (const t of wanted) {
      let slot = t.slot;
      if (slot === null) {
        if (t.deleted === 1) slot = Number.isInteger(t.rawSlot) && t.rawSlot >= 1 ? t.rawSlot : 1;
        else {
          slot = 1;
          while (used.has(slot)) slot += 1;
          used.add(slot);
        }
      }
      plan.tokens.push({
        slot,
        tokenName: t.r.token_name,
        parameter: t.r.parameter,
        urlAppend: t.r.url_append,
        landingPageEnabled: t.r.landing_page_enabled,
        offerPageEnabled: t.r.offer_page_enabled,
        deleted: t.deleted,
      });
    }
    plans.push(plan);
  }
  return plans;
}

/**
 * POST /api/import-campaigns: recreates the campaigns of an export under `dir`, with new ids,
 * in one transaction. The file is checked (extension, size, magic bytes, entry count, unpacked
 * size, entry names) before anything is inflated, and the manifest by the editor's rules.
 */
export async function importZip(
  env: Env,
  user: AuthUser,
  file: unknown,
  dir: number | null,
  ownerId: number,
) {
  if (!(file instanceof File) || (file.size === 0 && !file.name)) throw uploadError(M.zipRequired);
  if (!hasExtension(file.name, 'zip')) throw uploadError(M.zipInvalid);
  if (file.size > MAX_ZIP_BYTES) throw tooLarge(M.zipTooLarge);
  const target = await resolveFolder(env, user, dir);
  const manifest = readManifest(new Uint8Array(await file.arrayBuffer()));
  const plans = await plansFromManifest(env, manifest);
  const ids = await writePlans(env, plans, target?.id ?? null, ownerId);
  const top = ids.filter((_, i) => plans[i].parentKey === null);
  return {
    uploaded: true,
    message: M.imported,
    campaigns: plans.filter((p) => p.values.isDir !== 1).length,
    folders: plans.filter((p) => p.values.isDir === 1).length,
    result: await listItemsOf(env, top),
  };
}
