import { strToU8, unzipSync, zipSync } from 'fflate';
import {
  addLandingSchema,
  addOfferSchema,
  CAMPAIGN_MESSAGES,
  type LandingInput,
  type OfferInput,
} from '../../schema/campaign-api';
import {
  type AutoOptimizeInput,
  LANDING_CSV_COLUMNS,
  OPERATION_MESSAGES as M,
  OFFER_CSV_COLUMNS,
  UPLOAD_LIMITS,
} from '../../schema/pages-operations-api';
import type { Env } from '../env';
import type { AuthUser } from '../lib/auth';
import { csvLine, parseCsv } from '../lib/csv';
import { ApiError, validationError } from '../lib/errors';
import { signedDownloadPath } from '../lib/r2';
import { inflateEntry, zipEntryMessage } from '../lib/zip';
import {
  type CampaignRow,
  campaignForUser,
  listAgents,
  listLandings,
  listOffers,
  listOptions,
  listPaths,
} from './campaigns';
import { invalidateCompiledCampaign } from './compiled-campaigns';

// The pages-operation verbs of spec 2 §7 over a campaign's landing pages, offers, paths and
// options: soft delete and undo, clone, export to R2, equal share, the landing CSV upload and
// the landing and offer ZIP imports (docs/api.md, "Campaign editor: pages operations").
// Every change is one D1 batch, so bad input or a failure half-way writes nothing.

export type ItemKind = 'landing' | 'offer' | 'path' | 'option';

const TABLES: Record<ItemKind, string> = {
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
const IN_IDS = 'id IN (SELECT value FROM json_each(?2))';

/** Throws 404 unless every id is an item of this kind in this campaign. */
async function checkOwned(env: Env, kind: ItemKind, campaignId: number, ids: number[]) {
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

const LANDING_COPY = `INSERT INTO landing_pages (campaign_id, path_id, name, url, share, active, agents, deleted, created_by, created_at, updated_at)`;
const OFFER_COPY = `INSERT INTO offer_pages (campaign_id, path_id, option_id, name, url, share, payout_micros, active, postback_parameter, agents, li_conversion_name, rotator_participant_email, deleted, created_by, created_at, updated_at)`;

/**
 * Copies the items (in id order) as new, live items; a copy never shares a row with its
 * original. Cloning a path or an option also copies its live landing pages and offers, so the
 * copy routes traffic like the original.
 */
export async function cloneItems(
  env: Env,
  user: AuthUser,
  kind: ItemKind,
  campaignId: number,
  ids: number[],
) {
  const campaign = await campaignForUser(env, user, campaignId);
  await checkOwned(env, kind, campaign.id, ids);
  const now = Date.now();
  const idsJson = JSON.stringify(ids);
  const db = env.DB;
  const statements: D1PreparedStatement[] = [];
  if (kind === 'landing') {
    statements.push(
      db
        .prepare(
          `${LANDING_COPY} SELECT campaign_id, path_id, name || ' (copy)', url, share, active, agents, 0, ?3, ?4, ?4
           FROM landing_pages WHERE campaign_id = ?1 AND ${IN_IDS} ORDER BY id`,
        )
        .bind(campaign.id, idsJson, user.id, now),
    );
  } else if (kind === 'offer') {
    statements.push(
      db
        .prepare(
          `${OFFER_COPY} SELECT campaign_id, path_id, option_id, name || ' (copy)', url, share, payout_micros, active,
             postback_parameter, agents, li_conversion_name, rotator_participant_email, 0, ?3, ?4, ?4
           FROM offer_pages WHERE campaign_id = ?1 AND ${IN_IDS} ORDER BY id`,
        )
        .bind(campaign.id, idsJson, user.id, now),
    );
  } else {
    // The copy's id is the campaign's largest of its table right after the insert: ids only grow
    // (AUTOINCREMENT) and the batch is one transaction, so no other write comes in between.
    const newId = `(SELECT max(id) FROM ${TABLES[kind]} WHERE campaign_id = ?1)`;
    for (const id of [...ids].sort((a, b) => a - b)) {
      if (kind === 'path') {
        statements.push(
          db
            .prepare(
              `INSERT INTO paths (campaign_id, name, share, active, agents, deleted, created_by, created_at, updated_at)
               SELECT campaign_id, name || ' (copy)', share, active, agents, 0, ?3, ?4, ?4 FROM paths WHERE id = ?2 AND campaign_id = ?1`,
            )
            .bind(campaign.id, id, user.id, now),
          db
            .prepare(
              `${LANDING_COPY} SELECT campaign_id, ${newId}, name, url, share, active, agents, 0, ?3, ?4, ?4
               FROM landing_pages WHERE campaign_id = ?1 AND path_id = ?2 AND deleted = 0 ORDER BY id`,
            )
            .bind(campaign.id, id, user.id, now),
          db
            .prepare(
              `${OFFER_COPY} SELECT campaign_id, ${newId}, option_id, name, url, share, payout_micros, active,
                 postback_parameter, agents, li_conversion_name, rotator_participant_email, 0, ?3, ?4, ?4
               FROM offer_pages WHERE campaign_id = ?1 AND path_id = ?2 AND deleted = 0 ORDER BY id`,
            )
            .bind(campaign.id, id, user.id, now),
        );
      } else {
        statements.push(
          db
            .prepare(
              `INSERT INTO options (campaign_id, name, active, deleted, created_by, created_at, updated_at)
               SELECT campaign_id, name || ' (copy)', active, 0, ?3, ?4, ?4 FROM options WHERE id = ?2 AND campaign_id = ?1`,
            )
            .bind(campaign.id, id, user.id, now),
          db
            .prepare(
              `${OFFER_COPY} SELECT campaign_id, path_id, ${newId}, name, url, share, payout_micros, active,
                 postback_parameter, agents, li_conversion_name, rotator_participant_email, 0, ?3, ?4, ?4
               FROM offer_pages WHERE campaign_id = ?1 AND option_id = ?2 AND deleted = 0 ORDER BY id`,
            )
            .bind(campaign.id, id, user.id, now),
        );
      }
    }
  }
  await db.batch(statements);
  invalidateCompiledCampaign(campaign.id);
}

/** Whole-number shares of 100 as equal as they can be: the first `100 mod n` items get one more. */
export function equalShares(n: number): number[] {
  if (n <= 0) return [];
  const base = Math.floor(100 / n);
  const extra = 100 - base * n;
  return Array.from({ length: n }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * Equal share among the live, active items of each group that traffic is split within: landing
 * pages per path in a path campaign; offers per path or per option in those campaign types;
 * otherwise the whole campaign. Paused and deleted items keep their share.
 */
export async function equalShare(
  env: Env,
  user: AuthUser,
  kind: 'landing' | 'offer' | 'path',
  campaignId: number,
) {
  const campaign = await campaignForUser(env, user, campaignId);
  let group = '0';
  if (kind !== 'path' && campaign.campaignType === 'multiple_path_type') group = 'coalesce(path_id, 0)';
  if (kind === 'offer' && campaign.campaignType === 'multiple_option_type') group = 'coalesce(option_id, 0)';
  const table = TABLES[kind];
  const { results } = await env.DB.prepare(
    `SELECT id, ${group} AS grp FROM ${table} WHERE campaign_id = ?1 AND deleted = 0 AND active = 1 ORDER BY grp, id`,
  )
    .bind(campaign.id)
    .all<{ id: number; grp: number }>();
  const groups = new Map<number, number[]>();
  for (const r of results) groups.set(r.grp, [...(groups.get(r.grp) ?? []), r.id]);
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  for (const ids of groups.values()) {
    const shares = equalShares(ids.length);
    ids.forEach((id, i) => {
      statements.push(
        env.DB.prepare(`UPDATE ${table} SET share = ?1, updated_at = ?2 WHERE id = ?3`).bind(
          shares[i],
          now,
          id,
        ),
      );
    });
  }
  if (statements.length) await env.DB.batch(statements);
  invalidateCompiledCampaign(campaign.id);
}

// ---- landing-page optimisation switches ------------------------------------------------------

export function optimizationAnswer(row: CampaignRow) {
  return {
    landing_pages_auto_optimized: row.landingPagesAutoOptimized,
    enable_lp_test_reporting: row.enableLpTestReporting,
    landing_pages_optimization_goal: row.landingPagesOptimizationGoal,
    landing_pages_optimization_metric: row.landingPagesOptimizationMetric,
    landing_pages_optimization_threshold: row.landingPagesOptimizationThreshold,
    landing_pages_optimization_min_visits: row.landingPagesOptimizationMinVisits,
  };
}

/** Sets a few columns of the campaign (names are this module's own constants, never input). */
async function updateCampaignColumns(env: Env, id: number, set: Record<string, string | number>) {
  const columns = Object.keys(set);
  await env.DB.prepare(
    `UPDATE campaigns SET ${columns.map((c, i) => `${c} = ?${i + 2}`).join(', ')}, updated_at = ?${columns.length + 2}
     WHERE id = ?1`,
  )
    .bind(id, ...Object.values(set), Date.now())
    .run();
}

const reloadCampaign = campaignForUser;

export async function setAutoOptimize(env: Env, user: AuthUser, input: AutoOptimizeInput) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const set: Record<string, string | number> = {
    landing_pages_auto_optimized: input.autoOptimized,
    landing_pages_optimization_threshold: input.optimizationThreshold,
    landing_pages_optimization_min_visits: input.optimizationMinLpVisit,
  };
  if (input.optimizationMetricSelected)
    set.landing_pages_optimization_metric = input.optimizationMetricSelected;
  await updateCampaignColumns(env, campaign.id, set);
  return reloadCampaign(env, user, campaign.id);
}

export async function setTestReporting(env: Env, user: AuthUser, campaignId: number, enabled?: 0 | 1) {
  const campaign = await campaignForUser(env, user, campaignId);
  const value = enabled ?? (campaign.enableLpTestReporting === 1 ? 0 : 1);
  await updateCampaignColumns(env, campaign.id, { enable_lp_test_reporting: value });
  return reloadCampaign(env, user, campaign.id);
}

export async function setOptimizationGoal(env: Env, user: AuthUser, campaignId: number, goal: string) {
  const campaign = await campaignForUser(env, user, campaignId);
  await updateCampaignColumns(env, campaign.id, { landing_pages_optimization_goal: goal });
  return reloadCampaign(env, user, campaign.id);
}

// ---- CSV of landing pages and offers ---------------------------------------------------------

type Lookups = {
  campaign: CampaignRow;
  agentById: Map<number, string>;
  agentByName: Map<string, number>;
  pathByName: Map<string, number>;
  pathById: Map<number, string>;
  optionByName: Map<string, number>;
  optionById: Map<number, string>;
};

async function lookups(env: Env, campaign: CampaignRow): Promise<Lookups> {
  const [agentRows, pathRows, optionRows] = await Promise.all([
    listAgents(env),
    listPaths(env, campaign.id, 0),
    listOptions(env, campaign.id, 0),
  ]);
  return {
    campaign,
    agentById: new Map(agentRows.map((a) => [a.id, a.agent_name])),
    agentByName: new Map(agentRows.map((a) => [a.agent_name.toLowerCase(), a.id])),
    pathByName: new Map(pathRows.map((p) => [p.name.trim().toLowerCase(), p.pathId])),
    pathById: new Map(pathRows.map((p) => [p.pathId, p.name])),
    optionByName: new Map(optionRows.map((o) => [o.name.trim().toLowerCase(), o.optionId])),
    optionById: new Map(optionRows.map((o) => [o.optionId, o.name])),
  };
}

/** Export writes agent names joined by '|'; upload accepts names or ids split by | ; or ,. */
function agentNames(list: string, l: Lookups): string {
  return list
    .split(',')
    .map((id) => l.agentById.get(Number(id)) ?? id)
    .join('|');
}

function agentIds(cell: string, l: Lookups): number[] | null {
  const parts = cell
    .split(/[|;,]/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return [1];
  const ids: number[] = [];
  for (const part of parts) {
    const id = /^\d+$/.test(part) ? Number(part) : l.agentByName.get(part.toLowerCase());
    if (id === undefined || !l.agentById.has(id)) return null;
    ids.push(id);
  }
  return ids;
}

/**
 * A path (or option) cell: a name of the campaign's live items, or its id. Null when blank,
 * undefined when it names nothing of this campaign.
 */
function resolveRef(cell: string, byName: Map<string, number>, byId: Map<number, string>) {
  const value = cell.trim();
  if (!value) return null;
  const named = byName.get(value.toLowerCase());
  if (named !== undefined) return named;
  if (/^\d+$/.test(value) && byId.has(Number(value))) return Number(value);
  return undefined;
}

/** Undoes the formula guard of csvCell (a quote before = + - @), so an export imports unchanged. */
function unguard(cell: string | undefined): string {
  const value = (cell ?? '').trim();
  return /^'[=+\-@]/.test(value) ? value.slice(1) : value;
}

/** Rows as objects keyed by column. A first row naming 'name' and 'url' is the header; else positional. */
function csvRecords(text: string, columns: readonly string[]) {
  const rows = parseCsv(text);
  // 'Path (optional)' and 'Path' are the same column.
  const first = (rows[0] ?? []).map((h) =>
    h
      .replace(/\(.*?\)/g, '')
      .trim()
      .toLowerCase()
      .replace(/\s+/g, '_'),
  );
  const hasHeader = first.includes('name') && first.includes('url');
  const order = hasHeader ? first : [...columns];
  const body = hasHeader ? rows.slice(1) : rows;
  const firstLine = hasHeader ? 2 : 1;
  return body.map((cells, i) => {
    const record: Record<string, string> = {};
    order.forEach((column, c) => {
      if (columns.includes(column)) record[column] = unguard(cells[c]);
    });
    return { line: i + firstLine, record };
  });
}

function checkRowCount(count: number) {
  if (count === 0) throw validationError({ uploads: [M.csvEmpty] });
  if (count > UPLOAD_LIMITS.csvRows) throw validationError({ uploads: [M.csvTooManyRows] });
}

/** The row's path: required (a live path of the campaign) in path campaigns, else optional. */
function pathFor(cell: string, l: Lookups, problems: string[]): number | null {
  const id = resolveRef(cell, l.pathByName, l.pathById);
  if (l.campaign.campaignType === 'multiple_path_type') {
    if (l.pathById.size === 0) problems.push(CAMPAIGN_MESSAGES.pathRequiredForType);
    else if (!id) problems.push(CAMPAIGN_MESSAGES.pathInvalid);
  }
  // Outside path campaigns the path does not route traffic: an unknown one is left empty.
  return id ?? null;
}

function optionFor(cell: string, l: Lookups, problems: string[]): number | null {
  const id = resolveRef(cell, l.optionByName, l.optionById);
  if (l.campaign.campaignType === 'multiple_option_type') {
    if (l.optionById.size === 0) problems.push(CAMPAIGN_MESSAGES.optionRequiredForType);
    else if (!id) problems.push(CAMPAIGN_MESSAGES.optionInvalid);
  }
  return id ?? null;
}

/**
 * Checks every row before anything is written; each bad row is reported once ('Row 3: ...',
 * counting the header as row 1), the first 20 of them.
 */
function parseRows<T>(
  records: { line: number; record: Record<string, string> }[],
  row: (
    record: Record<string, string>,
    problems: string[],
  ) => { success: true; data: T } | { success: false; message: string },
): T[] {
  checkRowCount(records.length);
  const problems: string[] = [];
  const parsed: T[] = [];
  for (const { line, record } of records) {
    const rowProblems: string[] = [];
    const result = row(record, rowProblems);
    if (!result.success) rowProblems.unshift(result.message);
    if (rowProblems.length) problems.push(`Row ${line}: ${rowProblems[0]}`);
    else if (result.success) parsed.push(result.data);
  }
  if (problems.length) throw validationError({ uploads: problems.slice(0, 20) });
  return parsed;
}

function zodResult<T>(
  result: { success: true; data: T } | { success: false; error: { issues: { message: string }[] } },
) {
  return result.success
    ? { success: true as const, data: result.data }
    : { success: false as const, message: result.error.issues[0].message };
}

function parseLandingRows(text: string, l: Lookups): LandingInput[] {
  return parseRows(csvRecords(text, LANDING_CSV_COLUMNS), (record, problems) => {
    const pathId = pathFor(record.path ?? '', l, problems);
    const agents = agentIds(record.agents ?? '', l);
    if (!agents) problems.push(CAMPAIGN_MESSAGES.agentsInvalid);
    return zodResult(
      addLandingSchema.safeParse({
        campaignId: l.campaign.id,
        name: record.name,
        url: record.url,
        share: record.share,
        active: record.active || 1,
        pathId,
        agents: agents ?? [1],
      }),
    );
  });
}

function parseOfferRows(text: string, l: Lookups): OfferInput[] {
  return parseRows(csvRecords(text, OFFER_CSV_COLUMNS), (record, problems) => {
    const pathId = pathFor(record.path ?? '', l, problems);
    const optionId = optionFor(record.option ?? '', l, problems);
    const agents = agentIds(record.agents ?? '', l);
    if (!agents) problems.push(CAMPAIGN_MESSAGES.agentsInvalid);
    return zodResult(
      addOfferSchema.safeParse({
        campaignId: l.campaign.id,
        name: record.name,
        url: record.url,
        share: record.share,
        payout: record.payout,
        active: record.active || 1,
        pathId,
        optionId,
        postback: record.postback,
        agents: agents ?? [1],
        liConversionName: record.li_conversion_name,
        rotator_participant_email: record.rotator_participant_email,
      }),
    );
  });
}

function landingInsert(env: Env, campaignId: number, userId: number, now: number, row: LandingInput) {
  return env.DB.prepare(
    `INSERT INTO landing_pages (campaign_id, path_id, name, url, share, active, agents, deleted, created_by, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?9, ?9)`,
  ).bind(campaignId, row.pathId, row.name, row.url, row.share, row.active, row.agents.join(','), userId, now);
}

function offerInsert(env: Env, campaignId: number, userId: number, now: number, row: OfferInput) {
  return env.DB.prepare(
    `INSERT INTO offer_pages (campaign_id, path_id, option_id, name, url, share, payout_micros, active, postback_parameter,
       agents, li_conversion_name, rotator_participant_email, deleted, created_by, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 0, ?13, ?14, ?14)`,
  ).bind(
    campaignId,
    row.pathId,
    row.optionId,
    row.name,
    row.url,
    row.share,
    row.payout,
    row.active,
    row.postback,
    row.agents.join(','),
    row.liConversionName,
    row.rotator_participant_email,
    userId,
    now,
  );
}

// ---- upload checks ---------------------------------------------------------------------------

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);
const BINARY_MAGIC = [
  [0x50, 0x4b], // zip, docx, xlsx
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // png
  [0x47, 0x49, 0x46, 0x38], // gif
  [0xff, 0xd8, 0xff], // jpeg
  [0xd0, 0xcf, 0x11, 0xe0], // xls (OLE)
  [0x1f, 0x8b], // gzip
];

const tooLarge = (message: string) => new ApiError(413, message, { uploads: [message] });

/** The uploaded CSV as text, after the size, extension and content checks (spec 2 §5 messages). */
export async function csvUploadText(file: unknown): Promise<string> {
  if (!(file instanceof File) || file.size === 0) throw validationError({ uploads: [M.csvRequired] });
  if (!/\.csv$/i.test(file.name)) throw validationError({ uploads: [M.csvInvalid] });
  if (file.size > UPLOAD_LIMITS.csvBytes) throw tooLarge(M.csvTooLarge);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (BINARY_MAGIC.some((magic) => startsWith(bytes, magic)) || bytes.includes(0)) {
    throw validationError({ uploads: [M.csvInvalid] });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw validationError({ uploads: [M.csvInvalid] });
  }
}

/** A ZIP entry name that extracts inside the target folder: relative, no '..', no drive or NUL. */
export function isSafeEntryName(name: string): boolean {
  if (!name || name.length > 255) return false;
  if (name.startsWith('/') || name.includes('\\') || name.includes('\0') || /^[A-Za-z]:/.test(name))
    return false;
  return !name.split('/').some((part) => part === '..');
}

/**
 * One file out of an uploaded ZIP, after every check the architecture asks for: size,
 * extension, magic bytes, then the directory (entry count, declared sizes, names) before
 * anything is decompressed; then only `wanted` is inflated, into a buffer of its declared size.
 */
export async function zipUploadFile(file: unknown, wanted: string, missingMessage: string): Promise<string> {
  if (!(file instanceof File) || file.size === 0) throw validationError({ uploads: [M.zipRequired] });
  if (!/\.zip$/i.test(file.name)) throw validationError({ uploads: [M.zipInvalid] });
  if (file.size > UPLOAD_LIMITS.zipBytes) throw tooLarge(M.zipTooLarge);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) throw validationError({ uploads: [M.zipInvalid] });
  const entries: { name: string; originalSize: number }[] = [];
  try {
    unzipSync(bytes, {
      filter: (entry) => {
        entries.push({ name: entry.name, originalSize: entry.originalSize });
        return false;
      },
    });
  } catch {
    throw validationError({ uploads: [M.zipInvalid] });
  }
  if (entries.length === 0) throw validationError({ uploads: [M.zipInvalid] });
  if (entries.length > UPLOAD_LIMITS.zipEntries) throw validationError({ uploads: [M.zipTooManyEntries] });
  if (entries.some((e) => !isSafeEntryName(e.name))) throw validationError({ uploads: [M.zipUnsafePath] });
  const total = entries.reduce((sum, e) => sum + e.originalSize, 0);
  if (total > UPLOAD_LIMITS.zipUncompressedBytes) throw tooLarge(M.zipTooLargeUncompressed);
  const entry = entries.find((e) => e.name.toLowerCase() === wanted);
  if (!entry) throw validationError({ uploads: [missingMessage] });
  if (entry.originalSize > UPLOAD_LIMITS.csvBytes) throw tooLarge(M.csvTooLarge);
  let content: Uint8Array | undefined;
  try {
    content = inflateEntry(bytes, entry.name, UPLOAD_LIMITS.csvBytes);
  } catch (err) {
    throw validationError({ uploads: [zipEntryMessage(err, M.zipInvalid)] });
  }
  if (!content) throw validationError({ uploads: [M.zipInvalid] });
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(content);
  } catch {
    throw validationError({ uploads: [M.zipInvalid] });
  }
}

// ---- upload, import and export -----------------------------------------------------------------

/** The landing CSV upload: all rows or none; `overwrite` soft-deletes the live pages first. */
export async function uploadLandingCsv(
  env: Env,
  user: AuthUser,
  campaignId: number,
  text: string,
  overwrite: boolean,
) {
  const campaign = await campaignForUser(env, user, campaignId);
  const rows = parseLandingRows(text, await lookups(env, campaign));
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  if (overwrite) {
    statements.push(
      env.DB.prepare(
        'UPDATE landing_pages SET deleted = 1, updated_at = ?2 WHERE campaign_id = ?1 AND deleted = 0',
      ).bind(campaign.id, now),
    );
  }
  for (const row of rows) statements.push(landingInsert(env, campaign.id, user.id, now, row));
  await env.DB.batch(statements);
  invalidateCompiledCampaign(campaign.id);
  return rows.length;
}

export async function importLandings(env: Env, user: AuthUser, campaignId: number, text: string) {
  return uploadLandingCsv(env, user, campaignId, text, false);
}

export async function importOffers(env: Env, user: AuthUser, campaignId: number, text: string) {
  const campaign = await campaignForUser(env, user, campaignId);
  const rows = parseOfferRows(text, await lookups(env, campaign));
  const now = Date.now();
  await env.DB.batch(rows.map((row) => offerInsert(env, campaign.id, user.id, now, row)));
  invalidateCompiledCampaign(campaign.id);
  return rows.length;
}

function exportName(campaign: CampaignRow, what: string) {
  const slug = campaign.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `campaign-${campaign.id}${slug ? `-${slug}` : ''}-${what}.zip`;
}

async function storeZip(env: Env, campaign: CampaignRow, what: string, files: Record<string, string>) {
  const zipped = zipSync(
    Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])),
    { level: 6 },
  );
  const key = `exports/${what}/${campaign.id}/${crypto.randomUUID()}.zip`;
  await env.BUCKET.put(key, zipped, { httpMetadata: { contentType: 'application/zip' } });
  return signedDownloadPath(env, key, exportName(campaign, what));
}

function manifest(kind: string, campaign: CampaignRow, count: number, columns: readonly string[]) {
  return `${JSON.stringify(
    {
      kind,
      version: 1,
      campaignId: campaign.id,
      campaign: campaign.name,
      count,
      columns,
      exportedAt: new Date().toISOString(),
    },
    null,
    2,
  )}\n`;
}

/** The selected landing pages as landings.csv (the upload's columns) in a ZIP in R2; answers the signed link. */
export async function exportLandings(env: Env, user: AuthUser, campaignId: number, ids: number[]) {
  const campaign = await campaignForUser(env, user, campaignId);
  await checkOwned(env, 'landing', campaign.id, ids);
  const l = await lookupsWithDeleted(env, campaign);
  const wanted = new Set(ids);
  const rows = (await listLandings(env, campaign.id, 1)).filter((r) => wanted.has(r.landingPageId));
  let csv = csvLine([...LANDING_CSV_COLUMNS]);
  for (const r of rows) {
    csv += csvLine([
      r.name,
      r.url,
      r.share,
      r.pathId ? (l.pathById.get(r.pathId) ?? '') : '',
      agentNames(r.agents, l),
      r.active,
    ]);
  }
  return storeZip(env, campaign, 'landing-pages', {
    'landings.csv': csv,
    'manifest.json': manifest('landings', campaign, rows.length, LANDING_CSV_COLUMNS),
  });
}

export async function exportOffers(env: Env, user: AuthUser, campaignId: number, ids: number[]) {
  const campaign = await campaignForUser(env, user, campaignId);
  await checkOwned(env, 'offer', campaign.id, ids);
  const l = await lookupsWithDeleted(env, campaign);
  const wanted = new Set(ids);
  const rows = (await listOffers(env, campaign.id, 1)).filter((r) => wanted.has(r.offerPageId));
  let csv = csvLine([...OFFER_CSV_COLUMNS]);
  for (const r of rows) {
    csv += csvLine([
      r.name,
      r.url,
      r.share,
      r.payout,
      r.pathId ? (l.pathById.get(r.pathId) ?? '') : '',
      r.optionId ? (l.optionById.get(r.optionId) ?? '') : '',
      r.postback,
      agentNames(r.agents, l),
      r.active,
      r.liConversionName,
      r.rotator_participant_email,
    ]);
  }
  return storeZip(env, campaign, 'offer-pages', {
    'offers.csv': csv,
    'manifest.json': manifest('offers', campaign, rows.length, OFFER_CSV_COLUMNS),
  });
}

/** Names of every path and option, deleted ones included, for exports. */
async function lookupsWithDeleted(env: Env, campaign: CampaignRow): Promise<Lookups> {
  const l = await lookups(env, campaign);
  const [pathRows, optionRows] = await Promise.all([
    listPaths(env, campaign.id, 1),
    listOptions(env, campaign.id, 1),
  ]);
  return {
    ...l,
    pathById: new Map(pathRows.map((p) => [p.pathId, p.name])),
    optionById: new Map(optionRows.map((o) => [o.optionId, o.name])),
  };
}
