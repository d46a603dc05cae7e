import {
  addLandingSchema,
  addOfferSchema,
  CAMPAIGN_MESSAGES,
  type LandingInput,
  type OfferInput,
} from '../../../schema/campaign-api';
import {
  LANDING_CSV_COLUMNS,
  OPERATION_MESSAGES as M,
  OFFER_CSV_COLUMNS,
  UPLOAD_LIMITS,
} from '../../../schema/pages-operations-api';
import type { Env } from '../../env';
import { parseCsv } from '../../lib/csv';
import { validationError } from '../../lib/errors';
import { type CampaignRow, listAgents, listOptions, listPaths } from '../campaigns';

// Rows of the landing and offer CSV files: names of paths, options and devices resolved against
// the campaign, every row checked by the editor's rules, and the statements that insert them.

export const LANDING_INSERT = `INSERT INTO landing_pages (campaign_id, path_id, name, url, share, active, agents, deleted, created_by, created_at, updated_at)`;
export const OFFER_INSERT = `INSERT INTO offer_pages (campaign_id, path_id, option_id, name, url, share, payout_micros, active, postback_parameter, agents, li_conversion_name, rotator_participant_email, deleted, created_by, created_at, updated_at)`;

export type Lookups = {
  campaign: CampaignRow;
  agentById: Map<number, string>;
  agentByName: Map<string, number>;
  pathByName: Map<string, number>;
  pathById: Map<number, string>;
  optionByName: Map<string, number>;
  optionById: Map<number, string>;
};

export async function lookups(env: Env, campaign: CampaignRow): Promise<Lookups> {
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

/** Names of every path and option, deleted ones included, for exports. */
export async function lookupsWithDeleted(env: Env, campaign: CampaignRow): Promise<Lookups> {
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

/** Export writes agent names joined by '|'; upload accepts names or ids split by | ; or ,. */
export function agentNames(list: string, l: Lookups): string {
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

const REF_RULES = {
  path: {
    splitBy: 'multiple_path_type',
    requiredForType: CAMPAIGN_MESSAGES.pathRequiredForType,
    invalid: CAMPAIGN_MESSAGES.pathInvalid,
  },
  option: {
    splitBy: 'multiple_option_type',
    requiredForType: CAMPAIGN_MESSAGES.optionRequiredForType,
    invalid: CAMPAIGN_MESSAGES.optionInvalid,
  },
} as const;

/**
 * A path or option cell by the editor's rule (services/campaigns.ts, checkPath and checkOption):
 * in a campaign split by paths (options) the row needs one of its live ones; elsewhere it does
 * not route traffic, so an unknown one is left empty.
 */
function refFor(kind: 'path' | 'option', cell: string, l: Lookups, problems: string[]): number | null {
  const [byName, byId] = kind === 'path' ? [l.pathByName, l.pathById] : [l.optionByName, l.optionById];
  const rule = REF_RULES[kind];
  const id = resolveRef(cell, byName, byId);
  if (l.campaign.campaignType === rule.splitBy) {
    if (byId.size === 0) problems.push(rule.requiredForType);
    else if (!id) problems.push(rule.invalid);
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

/**
 * The columns landing and offer rows share, with the path (and for offers the option) and the
 * devices resolved; their problems are noted in that order.
 */
function itemFields(
  record: Record<string, string>,
  l: Lookups,
  problems: string[],
  kind: 'landing' | 'offer',
) {
  const pathId = refFor('path', record.path ?? '', l, problems);
  const optionId = kind === 'offer' ? refFor('option', record.option ?? '', l, problems) : null;
  const agents = agentIds(record.agents ?? '', l);
  if (!agents) problems.push(CAMPAIGN_MESSAGES.agentsInvalid);
  return {
    campaignId: l.campaign.id,
    name: record.name,
    url: record.url,
    share: record.share,
    active: record.active || 1,
    pathId,
    optionId,
    agents: agents ?? [1],
  };
}

export function parseLandingRows(text: string, l: Lookups): LandingInput[] {
  return parseRows(csvRecords(text, LANDING_CSV_COLUMNS), (record, problems) => {
    const { optionId: _none, ...fields } = itemFields(record, l, problems, 'landing');
    return zodResult(addLandingSchema.safeParse(fields));
  });
}

export function parseOfferRows(text: string, l: Lookups): OfferInput[] {
  return parseRows(csvRecords(text, OFFER_CSV_COLUMNS), (record, problems) =>
    zodResult(
      addOfferSchema.safeParse({
        ...itemFields(record, l, problems, 'offer'),
        payout: record.payout,
        postback: record.postback,
        liConversionName: record.li_conversion_name,
        rotator_participant_email: record.rotator_participant_email,
      }),
    ),
  );
}

export function landingInsert(env: Env, campaignId: number, userId: number, now: number, row: LandingInput) {
  return env.DB.prepare(`${LANDING_INSERT} VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?9, ?9)`).bind(
    campaignId,
    row.pathId,
    row.name,
    row.url,
    row.share,
    row.active,
    row.agents.join(','),
    userId,
    now,
  );
}

export function offerInsert(env: Env, campaignId: number, userId: number, now: number, row: OfferInput) {
  return env.DB.prepare(
    `${OFFER_INSERT} VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 0, ?13, ?14, ?14)`,
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
