import { ACCOUNT_MESSAGES as M } from '../../../schema/accounts-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { ApiError, fieldError } from '../../lib/errors';

// Disabling and deleting users (docs/decisions/116). An admin acts on anyone but themselves, so
// an installation always keeps the admin who acted.

async function target(env: Pick<Env, 'DB'>, id: number) {
  const row = await env.DB.prepare('SELECT id, username FROM users WHERE id = ?1')
    .bind(id)
    .first<{ id: number; username: string }>();
  if (!row) throw new ApiError(404, M.notFound);
  return row;
}

/** Disables (every token refused at once) or enables a user. */
export async function setUserDisabled(env: Pick<Env, 'DB'>, actor: AuthUser, id: number, disabled: boolean) {
  if (id === actor.id) throw fieldError('disabled', M.notSelfDisable);
  await target(env, id);
  const now = Date.now();
  // The token version moves too, so a token minted before is refused by the version check as well.
  await env.DB.prepare(
    `UPDATE users SET disabled_at = ?2, token_version = token_version + ?3, updated_at = ?4 WHERE id = ?1`,
  )
    .bind(id, disabled ? now : null, disabled ? 1 : 0, now)
    .run();
  return { message: disabled ? M.disabled : M.enabled, id, disabled };
}

/** The campaign tables whose rows name their creator (the others follow their campaign). */
const OWNED = ['campaigns', 'landing_pages', 'offer_pages', 'paths', 'options'] as const;

/**
 * Deletes a user. Their campaigns, folders and pages are kept with their statistics and now
 * belong to the admin who deleted them, in the same batch as the delete, so nothing is ever
 * left without an owner a student could not see (the foreign keys would set it null).
 */
export async function deleteUser(env: Pick<Env, 'DB'>, actor: AuthUser, id: number) {
  if (id === actor.id) throw new ApiError(422, M.notSelfDelete);
  await target(env, id);
  const moves = OWNED.map((table) =>
    env.DB.prepare(`UPDATE ${table} SET created_by = ?2 WHERE created_by = ?1`).bind(id, actor.id),
  );
  const results = await env.DB.batch([...moves, env.DB.prepare('DELETE FROM users WHERE id = ?1').bind(id)]);
  return { message: M.deleted, id, reassignedCampaigns: results[0].meta.changes ?? 0 };
}

/**
 * Sets (or clears, with null) a student's coach: the one coach who may adjust the student's
 * wallets and read them (docs/decisions/124).
 */
export async function setUserCoach(env: Pick<Env, 'DB'>, id: number, coachId: number | null) {
  const student = await env.DB.prepare('SELECT id, role FROM users WHERE id = ?1')
    .bind(id)
    .first<{ id: number; role: string }>();
  if (!student) throw new ApiError(404, M.notFound);
  if (student.role !== 'student') throw fieldError('coachId', M.coachOnlyForStudents);
  if (coachId !== null) {
    const coach = await env.DB.prepare("SELECT id FROM users WHERE id = ?1 AND role = 'coach'")
      .bind(coachId)
      .first<{ id: number }>();
    if (!coach) throw fieldError('coachId', M.coachInvalid);
  }
  await env.DB.prepare('UPDATE users SET coach_id = ?2, updated_at = ?3 WHERE id = ?1')
    .bind(id, coachId, Date.now())
    .run();
  return { message: M.coachSet, id, coach_id: coachId };
}
