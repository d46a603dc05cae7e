import type { Env } from '../../env';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';

// OAuth states of a platform login (docs/decisions/123). A state is minted for the signed-in user
// when the login dialog's URL is made, stored as its SHA-256 with the user and an expiry, and
// consumed (deleted) by the first exchange that names it: the code is exchanged only when the
// state was minted for this user, for this platform, less than OAUTH_STATE_TTL_MS ago, and never
// used before. A forged, expired, reused or another user's state finds no row: 400, no token.

const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

export type OAuthProvider = 'facebook';

/** A fresh state for `userId`; expired states (of anyone) are swept in the same batch. */
export async function mintOAuthState(
  env: Pick<Env, 'DB'>,
  userId: number,
  provider: OAuthProvider,
  now = Date.now(),
): Promise<string> {
  const state = randomToken(32);
  await env.DB.batch([
    env.DB.prepare('DELETE FROM oauth_states WHERE expires_at <= ?1').bind(now),
    env.DB.prepare(
      'INSERT INTO oauth_states (state_hash, user_id, provider, expires_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5)',
    ).bind(await sha256Hex(state), userId, provider, now + OAUTH_STATE_TTL_MS, now),
  ]);
  return state;
}

/**
 * Uses up `state` for `userId` or throws 400 `message`. The delete is the check: of two requests
 * with the same state, only one deletes the row.
 */
export async function consumeOAuthState(
  env: Pick<Env, 'DB'>,
  userId: number,
  provider: OAuthProvider,
  state: string,
  message: string,
  now = Date.now(),
): Promise<void> {
  const row = await env.DB.prepare(
    `DELETE FROM oauth_states
     WHERE state_hash = ?1 AND user_id = ?2 AND provider = ?3 AND expires_at > ?4
     RETURNING state_hash`,
  )
    .bind(await sha256Hex(state), userId, provider, now)
    .first<{ state_hash: string }>();
  if (!row) throw new ApiError(400, message);
}
