import { LIST_MESSAGES as M } from '../../../schema/campaign-list-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { ApiError, fieldError } from '../../lib/errors';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import { canSeeEveryCampaign } from './access';
import { CAMPAIGN_TABLES } from './tables';

// The folder tree of the campaigns list (spec 1 §4): moving, folders, delete and undo.
// Folders are campaigns rows with is_dir = 1; parent_id points at the folder holding a row.
// Deleting a folder deletes its subtree (docs/decisions/016-campaign-folders-and-deletes.md):
// a soft delete marks the folder and its live descendants with one deleted_at, so undoing the
// folder brings back exactly what that delete took; a permanent delete removes the subtree.

/** D1 binds at most 100 parameters per statement: id lists are sent in chunks of this size. */
const ID_CHUNK = 90;

export type TreeRow = {
  id: number;
  name: string;
  is_dir: number;
  parent_id: number | null;
  deleted: number;
  deleted_at: number | null;
  created_by: number | null;
};

export function chunks<T>(items: readonly T[], size = ID_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const marks = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `?${i + from}`).join(', ');

/** SQL limiting `campaigns` rows (alias-free) to those `user` manages, with its binds. */
function ownerClause(user: AuthUser, from: number): { sql: string; binds: unknown[] } {
  return canSeeEveryCampaign(user)
    ? { sql: '1 = 1', binds: [] }
    : { sql: `created_by = ?${from}`, binds: [user.id] };
}

/** The rows whose `column` is one of `values` and that `user` manages, in any state (a query per chunk). */
async function treeRowsWhere(
  env: Pick<Env, 'DB'>,
  user: AuthUser,
  column: 'id' | 'parent_id',
  values: readonly number[],
): Promise<TreeRow[]> {
  const rows: TreeRow[] = [];
  for (const part of chunks(values)) {
    const owner = ownerClause(user, part.length + 1);
    const { results } = await env.DB.prepare(
      `SELECT id, name, is_dir, parent_id, deleted, deleted_at, created_by FROM campaigns
       WHERE ${column} IN (${marks(part.length)}) AND ${owner.sql}`,
    )
      .bind(...part, ...owner.binds)
      .all<TreeRow>();
    rows.push(...results);
  }
  return rows;
}

/**
 * The rows of `ids` that `user` manages, in the order asked; any other id is a 404 (a student
 * never learns that another's campaign exists).
 */
export async function requireRows(
  env: Pick<Env, 'DB'>,
  user: AuthUser,
  ids: readonly number[],
  { allowDeleted = false } = {},
): Promise<TreeRow[]> {
  const rows = await treeRowsWhere(env, user, 'id', ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row || (!allowDeleted && row.deleted === 1)) throw new ApiError(404, M.campaignNotFound);
    return row;
  });
}

/** The rows below `roots` (not the roots), at any depth, that `user` manages. */
export async function descendants(
  env: Pick<Env, 'DB'>,
  user: AuthUser,
  roots: readonly number[],
): Promise<TreeRow[]> {
  const found = new Map<number, TreeRow>();
  let frontier = [...roots];
  const seen = new Set(roots);
  // Level by level: each level is one query per chunk, and a cycle (which the API never
  // makes) cannot loop because a row is visited once.
  while (frontier.length) {
    const next: number[] = [];
    for (const row of await treeRowsWhere(env, user, 'parent_id', frontier)) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      found.set(row.id, row);
      if (row.is_dir === 1) next.push(row.id);
    }
    frontier = next;
  }
  return [...found.values()];
}

/** The ids of the folders above `id`, nearest first. */
async function ancestors(env: Pick<Env, 'DB'>, id: number): Promise<number[]> {
  const { results } = await env.DB.prepare(
    `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM campaigns WHERE id = ?1
       UNION ALL
       SELECT c.id, c.parent_id, up.depth + 1 FROM campaigns c JOIN up ON c.id = up.parent_id
       WHERE up.depth < 100
     ) SELECT id FROM up WHERE depth > 0 ORDER BY depth`,
  )
    .bind(id)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

/** The folder `dir` names for `user` (null for the top level); a bad one is a 422 on `field`. */
export async function resolveFolder(
  env: Pick<Env, 'DB'>,
  user: AuthUser,
  dir: number | null,
  field = 'dir',
): Promise<TreeRow | null> {
  if (!dir) return null;
  const [row] = await treeRowsWhere(env, user, 'id', [dir]);
  if (row?.is_dir !== 1 || row.deleted === 1) throw fieldError(field, M.folderInvalid);
  return row;
}

/** Refuses to put a folder of `moving` into itself or below itself. */
async function checkNoCycle(
  env: Pick<Env, 'DB'>,
  moving: readonly TreeRow[],
  target: TreeRow | null,
  field: string,
) {
  if (!target) return;
  const above = new Set([target.id, ...(await ancestors(env, target.id))]);
  if (moving.some((row) => row.is_dir === 1 && above.has(row.id))) throw fieldError(field, M.moveIntoItself);
}

export function listItem(row: {
  id: number;
  name: string;
  is_dir: number;
  parent_id: number | null;
  deleted: number;
  active?: number;
  campaign_type?: string;
  traffic_source?: string;
  offer_promotion?: string;
}) {
  return {
    campaignId: row.id,
    name: row.name,
    is_dir: row.is_dir,
    dir: row.parent_id ?? 0,
    deleted: row.deleted,
    active: row.active ?? 1,
    campaignType: row.campaign_type ?? '',
    trafficSource: row.traffic_source ?? '',
    offerPromotion: row.offer_promotion ?? '',
  };
}

async function listItemById(env: Pick<Env, 'DB'>, id: number) {
  const row = await env.DB.prepare(
    `SELECT id, name, is_dir, parent_id, deleted, active, campaign_type, traffic_source, offer_promotion
     FROM campaigns WHERE id = ?1`,
  )
    .bind(id)
    .first<Parameters<typeof listItem>[0]>();
  if (!row) throw new ApiError(404, M.campaignNotFound);
  return listItem(row);
}

// ---- move ------------------------------------------------------------------------------------

/** POST /api/move-campaign: puts campaigns or folders into `dir` (null = the top level). */
export async function moveCampaigns(env: Env, user: AuthUser, ids: number[], dir: number | null) {
  const rows = await requireRows(env, user, ids);
  const target = await resolveFolder(env, user, dir);
  await checkNoCycle(env, rows, target, 'dir');
  const now = Date.now();
  await env.DB.batch(
    chunks(ids).map((part) =>
      env.DB.prepare(
        `UPDATE campaigns SET parent_id = ?1, updated_at = ?2 WHERE id IN (${marks(part.length, 3)})`,
      ).bind(target?.id ?? null, now, ...part),
    ),
  );
  return { message: ids.length === 1 ? M.moved : M.movedMany, moved: ids.length };
}

// ---- folders ---------------------------------------------------------------------------------

/**
 * POST /api/add-campaign-folder: the folder and the move of `moveIds` into it in one
 * transaction, so a failure leaves neither.
 */
export async function addFolder(
  env: Env,
  user: AuthUser,
  input: { name: string; dir: number | null; moveIds: number[] },
) {
  const target = await resolveFolder(env, user, input.dir);
  const moving = input.moveIds.length ? await requireRows(env, user, input.moveIds) : [];
  await checkNoCycle(env, moving, target, 'moveCampaigns');
  const now = Date.now();
  const insert = env.DB.prepare(
    `INSERT INTO campaigns (name, is_dir, parent_id, created_by, created_at, updated_at)
     VALUES (?1, 1, ?2, ?3, ?4, ?4) RETURNING id`,
  ).bind(input.name, target?.id ?? null, user.id, now);
  // last_insert_rowid() is the folder just inserted: the batch is one transaction on one connection.
  const moves = chunks(input.moveIds).map((part) =>
    env.DB.prepare(
      `UPDATE campaigns SET parent_id = last_insert_rowid(), updated_at = ?1 WHERE id IN (${marks(part.length, 2)})`,
    ).bind(now, ...part),
  );
  const [inserted] = await env.DB.batch<{ id: number }>([insert, ...moves]);
  const id = inserted.results[0].id;
  return { message: M.folderCreated, folder: await listItemById(env, id), moved: input.moveIds.length };
}

/** POST /api/edit-campaign-folder: a name empty after trimming changes nothing (spec 1 §4). */
export async function renameFolder(env: Env, user: AuthUser, id: number, name: string) {
  const [row] = await treeRowsWhere(env, user, 'id', [id]);
  if (row?.is_dir !== 1 || row.deleted === 1) throw new ApiError(404, M.folderNotFound);
  if (!name) return { message: M.folderNameUnchanged, changed: false, folder: await listItemById(env, id) };
  await env.DB.prepare('UPDATE campaigns SET name = ?1, updated_at = ?2 WHERE id = ?3')
    .bind(name, Date.now(), id)
    .run();
  return { message: M.folderRenamed, changed: true, folder: await listItemById(env, id) };
}

// ---- delete and undo -------------------------------------------------------------------------

// Every table that holds a campaign's rows, listed once in campaigns/tables.ts (a permanent
// delete empties them; tests/integration/campaign-list.test.ts checks none is missing).
export { CAMPAIGN_TABLES };

/** DELETE /api/delete-campaign: soft (undoable) or permanent; a folder takes its subtree with it. */
export async function deleteCampaigns(env: Env, user: AuthUser, ids: number[], permanent: boolean) {
  const roots = await requireRows(env, user, ids, { allowDeleted: true });
  const below = await descendants(
    env,
    user,
    roots.filter((r) => r.is_dir === 1).map((r) => r.id),
  );
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  let affected: number[];
  if (permanent) {
    affected = [...new Set([...roots.map((r) => r.id), ...below.map((r) => r.id)])];
    for (const part of chunks(affected)) {
      const list = marks(part.length);
      for (const table of CAMPAIGN_TABLES) {
        statements.push(env.DB.prepare(`DELETE FROM ${table} WHERE campaign_id IN (${list})`).bind(...part));
      }
      statements.push(env.DB.prepare(`DELETE FROM campaigns WHERE id IN (${list})`).bind(...part));
    }
    // Rows of another owner inside a deleted folder are never lost: they move to the top level.
    for (const part of chunks(affected)) {
      statements.push(
        env.DB.prepare(
          `UPDATE campaigns SET parent_id = NULL, updated_at = ?1 WHERE parent_id IN (${marks(part.length, 2)})`,
        ).bind(now, ...part),
      );
    }
  } else {
    // Only live rows are marked, so undoing this delete restores exactly them.
    affected = [...new Set([...roots, ...below].filter((r) => r.deleted === 0).map((r) => r.id))];
    for (const part of chunks(affected)) {
      statements.push(
        env.DB.prepare(
          `UPDATE campaigns SET deleted = 1, deleted_at = ?1, updated_at = ?1 WHERE id IN (${marks(part.length, 2)})`,
        ).bind(now, ...part),
      );
    }
  }
  if (statements.length) await env.DB.batch(statements);
  for (const id of affected) invalidateCompiledCampaign(id);
  return {
    message: M.deleted,
    campaignId: ids.join(','),
    isPermanent: permanent ? 1 : 0,
    deleted: affected.length,
  };
}

/**
 * POST /api/undo-delete-campaign: brings back the campaigns and, for a folder, what its delete
 * took. A row whose folder is gone or still deleted comes back at the top level, where it can
 * be seen.
 */
export async function undoDelete(env: Env, user: AuthUser, ids: number[]) {
  const roots = await requireRows(env, user, ids, { allowDeleted: true });
  const deletedRoots = roots.filter((r) => r.deleted === 1);
  const restore = new Set(deletedRoots.map((r) => r.id));
  for (const root of deletedRoots.filter((r) => r.is_dir === 1)) {
    const below = await descendants(env, user, [root.id]);
    for (const row of below) {
      if (row.deleted === 1 && row.deleted_at === root.deleted_at) restore.add(row.id);
    }
  }
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  const restoreIds = [...restore];
  for (const part of chunks(restoreIds)) {
    statements.push(
      env.DB.prepare(
        `UPDATE campaigns SET deleted = 0, deleted_at = NULL, updated_at = ?1 WHERE id IN (${marks(part.length, 2)})`,
      ).bind(now, ...part),
    );
  }
  // A restored row whose parent is missing or stays deleted moves to the top level.
  for (const part of chunks(restoreIds)) {
    statements.push(
      env.DB.prepare(
        `UPDATE campaigns SET parent_id = NULL WHERE id IN (${marks(part.length, 1)}) AND parent_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM campaigns p WHERE p.id = campaigns.parent_id AND p.is_dir = 1 AND p.deleted = 0)`,
      ).bind(...part),
    );
  }
  if (statements.length) await env.DB.batch(statements);
  for (const id of restoreIds) invalidateCompiledCampaign(id);
  return { message: M.restored, campaignId: ids.join(','), restored: restoreIds.length };
}
