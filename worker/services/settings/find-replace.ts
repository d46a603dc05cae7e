import { type FindField, type FindMatch, SETTINGS_MESSAGES as M } from '../../../schema/settings-api';
import { isHttpUrl, NAME_MAX, NAME_TOO_LONG } from '../../../schema/validators';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { fieldError } from '../../lib/errors';
import { canSeeEveryCampaign } from '../campaigns';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import { unsafePostbackReason } from '../postbacks/postbacks';

// Database find-and-replace of the settings screen (spec 2 §5, §7): plain text, matched
// case-sensitively anywhere in one field, over the campaigns the user may manage (a student:
// their own). The replacement is checked for every matching row before any is changed.

type Kind = 'url' | 'optional-url' | 'postback' | 'name';
type Target = { table: string; column: string; kind: Kind; campaign: boolean };

const TARGETS: Record<FindField, Target> = {
  'landingpage.url': { table: 'landing_pages', column: 'url', kind: 'url', campaign: false },
  'landingpage.name': { table: 'landing_pages', column: 'name', kind: 'name', campaign: false },
  'offerpage.url': { table: 'offer_pages', column: 'url', kind: 'url', campaign: false },
  'offerpage.name': { table: 'offer_pages', column: 'name', kind: 'name', campaign: false },
  'campaign.name': { table: 'campaigns', column: 'name', kind: 'name', campaign: true },
  'campaign.custom_url': { table: 'campaigns', column: 'custom_url', kind: 'optional-url', campaign: true },
  'campaign.rotator_base_url': {
    table: 'campaigns',
    column: 'rotator_base_url',
    kind: 'optional-url',
    campaign: true,
  },
  'campaign.postback': { table: 'campaigns', column: 'postback', kind: 'postback', campaign: true },
  'path.name': { table: 'paths', column: 'name', kind: 'name', campaign: false },
  'option.name': { table: 'options', column: 'name', kind: 'name', campaign: false },
};

const PREVIEW_LIMIT = 500;
const MAX_LENGTH: Record<Kind, number> = { url: 2000, 'optional-url': 2000, postback: 2000, name: NAME_MAX };

/** A match as the query reads it, before the replacement is worked out. */
type Row = Omit<FindMatch, 'after'>;

function matchSql(target: Target, user: AuthUser, limit?: number) {
  const own = canSeeEveryCampaign(user) ? '' : 'AND c.created_by = ?2';
  const from = target.campaign
    ? `SELECT c.id, c.id AS campaignId, c.name AS campaignName, c.name AS name, c.deleted,
         c.${target.column} AS before FROM campaigns c WHERE c.is_dir = 0`
    : `SELECT t.id, t.campaign_id AS campaignId, c.name AS campaignName, t.name AS name, t.deleted,
         t.${target.column} AS before FROM ${target.table} t JOIN campaigns c ON c.id = t.campaign_id WHERE 1 = 1`;
  const alias = target.campaign ? 'c' : 't';
  return `${from} AND instr(${alias}.${target.column}, ?1) > 0 ${own} ORDER BY ${alias}.id${limit ? ` LIMIT ${limit}` : ''}`;
}

async function matches(env: Env, user: AuthUser, target: Target, find: string, limit?: number) {
  const stmt = env.DB.prepare(matchSql(target, user, limit));
  const bound = canSeeEveryCampaign(user) ? stmt.bind(find) : stmt.bind(find, user.id);
  return (await bound.all<Row>()).results;
}

const replaced = (value: string, find: string, replace: string) => value.split(find).join(replace);
const pageUrl = (v: string) => isHttpUrl(v.replace(/\{[A-Za-z0-9_.-]+\}/g, 'x'));

function problem(kind: Kind, value: string): string | null {
  if (value.length > MAX_LENGTH[kind])
    return kind === 'name'
      ? NAME_TOO_LONG
      : `This field may not be greater than ${MAX_LENGTH[kind]} characters.`;
  switch (kind) {
    case 'name':
      return value.trim() ? null : M.replaceEmptyName;
    case 'url':
      return pageUrl(value) ? null : M.replaceInvalidUrl;
    case 'optional-url':
      return value === '' || pageUrl(value) ? null : M.replaceInvalidUrl;
    case 'postback':
      return value === '' || !unsafePostbackReason(value.replace(/\{[A-Za-z0-9_.-]+\}/g, 'x'))
        ? null
        : M.replaceInvalidPostback;
  }
}

/** POST /api/db-find: the matches (first 500) with the value before and after replacing. */
export async function dbFind(
  env: Env,
  user: AuthUser,
  input: { field: FindField; find: string; replace: string },
): Promise<{ results: FindMatch[]; total: number; field: FindField }> {
  const target = TARGETS[input.field];
  const rows = await matches(env, user, target, input.find);
  return {
    field: input.field,
    total: rows.length,
    results: rows.slice(0, PREVIEW_LIMIT).map((r) => ({
      ...r,
      after: replaced(r.before, input.find, input.replace),
    })),
  };
}

/** POST /api/db-replace: replaces in every match, or in none when a result would be invalid. */
export async function dbReplace(
  env: Env,
  user: AuthUser,
  input: { field: FindField; find: string; replace: string },
): Promise<{ count: number; message: string }> {
  const target = TARGETS[input.field];
  const rows = await matches(env, user, target, input.find);
  for (const row of rows) {
    const message = problem(target.kind, replaced(row.before, input.find, input.replace));
    if (message) throw fieldError('replace', message);
  }
  if (rows.length) {
    await env.DB.prepare(
      `UPDATE ${target.table} SET ${target.column} = replace(${target.column}, ?1, ?2), updated_at = ?3
         WHERE id IN (SELECT value FROM json_each(?4))`,
    )
      .bind(input.find, input.replace, Date.now(), JSON.stringify(rows.map((r) => r.id)))
      .run();
    for (const id of new Set(rows.map((r) => r.campaignId))) invalidateCompiledCampaign(id);
  }
  const count = rows.length;
  return { count, message: `${count} ${count === 1 ? 'record' : 'records'} updated.` };
}
