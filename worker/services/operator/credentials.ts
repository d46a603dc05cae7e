import { OPERATOR_HEADER, OPERATOR_HEADER_VALUE } from '../../../schema/masterdashboard-api';
import type { Env } from '../../env';
import { randomToken, sha256Hex, timingSafeEqual } from '../../lib/crypto';

// The credential that opens /api/masterdashboard/ (docs/decisions/080): a random secret the
// installation's admin creates and hands to the operator; only its SHA-256 is stored. Several
// may be live at once so that a rotation never has a gap; revoking one closes it at once.

const PREFIX = 'mdk_';

export async function createCredential(env: Pick<Env, 'DB'>, label: string, userId: number | null) {
  const credential = `${PREFIX}${randomToken(32)}`;
  const row = await env.DB.prepare(
    'INSERT INTO operator_credentials (label, secret_hash, created_by) VALUES (?1, ?2, ?3) RETURNING id',
  )
    .bind(label, await sha256Hex(credential), userId)
    .first<{ id: number }>();
  return { id: row!.id, label, credential };
}

export async function listCredentials(env: Pick<Env, 'DB'>) {
  const { results } = await env.DB.prepare(
    'SELECT id, label, created_at, revoked_at FROM operator_credentials ORDER BY id',
  ).all<{ id: number; label: string; created_at: number; revoked_at: number | null }>();
  return results;
}

export async function revokeCredential(env: Pick<Env, 'DB'>, id: number): Promise<boolean> {
  const res = await env.DB.prepare(
    'UPDATE operator_credentials SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL',
  )
    .bind(id, Date.now())
    .run();
  return (res.meta.changes ?? 0) > 0;
}

/**
 * The credential row when the request carries the custom header and a live credential as its bearer. A user's
 * JWT, another installation's credential or a revoked one hash to nothing stored here.
 */
export async function operatorCaller(
  env: Pick<Env, 'DB'>,
  headers: Headers,
): Promise<{ id: number; label: string } | null> {
  const custom = headers.get(OPERATOR_HEADER) ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(headers.get('Authorization') ?? '');
  // Both checks always run, so the answer's timing does not tell which one failed.
  const headerOk = timingSafeEqual(custom, OPERATOR_HEADER_VALUE);
  if (!match?.[1].startsWith(PREFIX)) return null;
  const row = await env.DB.prepare(
    'SELECT id, label FROM operator_credentials WHERE secret_hash = ?1 AND revoked_at IS NULL',
  )
    .bind(await sha256Hex(match[1]))
    .first<{ id: number; label: string }>();
  return headerOk && row ? row : null;
}
