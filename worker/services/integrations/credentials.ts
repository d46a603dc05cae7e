import { and, eq } from 'drizzle-orm';
import { type CredentialStatus, type Platform, platformCredentials } from '../../../schema/integrations';
import type { Env } from '../../env';
import { getDb } from '../../lib/db';
import { decryptSecret, encryptSecret } from '../../lib/secrets';

// Ad-platform credentials (docs/decisions/071): one row per (platform, user), the secret parts
// encrypted with the installation's AES-GCM key. The integrations routes write them; the sync
// jobs and the platform clients read them. Nothing here ever answers a secret to a browser:
// `maskedCredential` is the shape for screens.

/** user_id of the installation's own credential (one not tied to a user). */
const INSTALLATION = 0;

/** The stored credential row of `platform` for a user, or the installation's (no user). */
const credentialOf = (platform: Platform, userId: number | null) =>
  and(eq(platformCredentials.platform, platform), eq(platformCredentials.userId, userId ?? INSTALLATION));

export type CredentialInput = {
  /** Access token, API token, or client secret. */
  token: string;
  /** Client id (Taboola) or username (LiveIntent); empty when the platform has none. */
  clientId?: string;
  status?: CredentialStatus;
  /** When the token expires (ms since the epoch), when the platform says. */
  expiresAt?: number | null;
  /** Clear, non-secret details such as the platform's user or ad account id. */
  meta?: Record<string, string | number | boolean>;
};

export type Credential = {
  platform: Platform;
  userId: number;
  token: string;
  clientId: string;
  tokenLast4: string;
  clientIdLast4: string;
  status: CredentialStatus;
  expiresAt: number | null;
  meta: Record<string, unknown>;
  updatedAt: number;
};

/** What a screen may see: never more than the last 4 characters of a secret. */
export type MaskedCredential = {
  platform: Platform;
  connected: boolean;
  status: CredentialStatus;
  tokenLast4: string;
  clientIdLast4: string;
  expiresAt: number | null;
  updatedAt: number | null;
};

// The name bound into the ciphertext: a value copied to another row or column does not decrypt.
const sealName = (platform: Platform, userId: number, column: 'token' | 'client_id') =>
  `platform:${platform}:${userId}:${column}`;

const last4 = (value: string) => value.slice(-4);

function parseMeta(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Stores (or replaces) a credential; the secret parts are encrypted before they reach D1. */
export async function setCredential(
  env: Pick<Env, 'DB' | 'ENCRYPTION_KEY'>,
  platform: Platform,
  userId: number | null,
  input: CredentialInput,
): Promise<MaskedCredential> {
  const uid = userId ?? INSTALLATION;
  const clientId = input.clientId ?? '';
  const values = {
    token: await encryptSecret(env, sealName(platform, uid, 'token'), input.token),
    tokenLast4: last4(input.token),
    clientId: await encryptSecret(env, sealName(platform, uid, 'client_id'), clientId),
    clientIdLast4: last4(clientId),
    status: input.status ?? 'active',
    expiresAt: input.expiresAt ?? null,
    meta: JSON.stringify(input.meta ?? {}),
    updatedAt: Date.now(),
  };
  await getDb(env)
    .insert(platformCredentials)
    .values({ platform, userId: uid, ...values })
    .onConflictDoUpdate({ target: [platformCredentials.platform, platformCredentials.userId], set: values })
    .run();
  return {
    platform,
    connected: input.token !== '',
    status: values.status,
    tokenLast4: values.tokenLast4,
    clientIdLast4: values.clientIdLast4,
    expiresAt: values.expiresAt,
    updatedAt: values.updatedAt,
  };
}

/** Marks a stored credential active or inactive (a refused token, a disconnect) without reading it. */
export async function setCredentialStatus(
  env: Pick<Env, 'DB'>,
  platform: Platform,
  userId: number | null,
  status: CredentialStatus,
): Promise<void> {
  await getDb(env)
    .update(platformCredentials)
    .set({ status, updatedAt: Date.now() })
    .where(credentialOf(platform, userId))
    .run();
}

/**
 * The clear credential, or null when none is stored. A value that no longer decrypts (another
 * installation's key) reads as empty, so the caller treats it as not connected.
 */
export async function getCredential(
  env: Pick<Env, 'DB' | 'ENCRYPTION_KEY'>,
  platform: Platform,
  userId: number | null,
): Promise<Credential | null> {
  const uid = userId ?? INSTALLATION;
  const row = await getDb(env).select().from(platformCredentials).where(credentialOf(platform, uid)).get();
  if (!row) return null;
  return {
    platform,
    userId: uid,
    token: (await decryptSecret(env, sealName(platform, uid, 'token'), row.token)) ?? '',
    clientId: (await decryptSecret(env, sealName(platform, uid, 'client_id'), row.clientId)) ?? '',
    tokenLast4: row.tokenLast4,
    clientIdLast4: row.clientIdLast4,
    status: row.status,
    expiresAt: row.expiresAt,
    meta: parseMeta(row.meta),
    updatedAt: row.updatedAt,
  };
}

/**
 * The credential a sync of a campaign uses: its owner's own one first, then the installation's,
 * then an admin's (the integrations screen stores a credential under the user who entered it, and
 * an admin who connects a platform does so for the installation). Inactive ones are skipped: the
 * user disconnected them or the platform refused them.
 */
export async function credentialFor(
  env: Pick<Env, 'DB' | 'ENCRYPTION_KEY'>,
  platform: Platform,
  ownerId: number | null,
): Promise<Credential | null> {
  const { results } = await env.DB.prepare(
    `SELECT pc.user_id FROM platform_credentials pc LEFT JOIN users u ON u.id = pc.user_id
     WHERE pc.platform = ?1 AND pc.status = 'active' AND pc.token != ''
       AND (pc.user_id = ?2 OR pc.user_id = 0 OR u.role = 'admin')
     ORDER BY pc.user_id = ?2 DESC, pc.user_id = 0 DESC, pc.updated_at DESC`,
  )
    .bind(platform, ownerId ?? INSTALLATION)
    .all<{ user_id: number }>();
  for (const { user_id } of results) {
    const credential = await getCredential(env, platform, user_id);
    if (credential?.token) return credential;
  }
  return null;
}

/** The screen's view of a credential: connected or not, and the last 4 characters only. */
export async function maskedCredential(
  env: Pick<Env, 'DB'>,
  platform: Platform,
  userId: number | null,
): Promise<MaskedCredential> {
  const row = await getDb(env).select().from(platformCredentials).where(credentialOf(platform, userId)).get();
  return {
    platform,
    connected: Boolean(row?.token),
    status: row?.status ?? 'inactive',
    tokenLast4: row?.tokenLast4 ?? '',
    clientIdLast4: row?.clientIdLast4 ?? '',
    expiresAt: row?.expiresAt ?? null,
    updatedAt: row?.updatedAt ?? null,
  };
}

/** Removes a stored credential; answers whether one was there. */
export async function deleteCredential(
  env: Pick<Env, 'DB'>,
  platform: Platform,
  userId: number | null,
): Promise<boolean> {
  const res = await getDb(env).delete(platformCredentials).where(credentialOf(platform, userId)).run();
  return (res.meta.changes ?? 0) > 0;
}
