import { LIVEINTENT_MESSAGES as M } from '../../../schema/liveintent-api';
import type { Env } from '../../env';
import { PlatformError } from '../../integrations/http';
import { accessToken, liveIntentAuth } from '../../integrations/liveintent/client';
import { ApiError } from '../../lib/errors';
import { credentialFor } from '../integrations/credentials';
import { liveIntentAccounts } from '../settings/settings-form';

// The LiveIntent account the manage screens act in: a credential stored on the integrations side
// wins, else the own account of Settings (the same order the cost sync uses).

export type LiSession = { token: string; advertiser: string };

export async function liveIntentSession(env: Env, ownerId: number | null): Promise<LiSession> {
  const stored = await credentialFor(env, 'liveintent', ownerId);
  const { own } = await liveIntentAccounts(env);
  // Client id and secret, or a personal access token with no client id (decision 150).
  const auth = stored
    ? liveIntentAuth(stored.clientId, stored.token)
    : liveIntentAuth(own.username, own.password);
  const advertiser = String(stored?.meta.advertiserId ?? '') || own.advertiserId;
  if (!auth.secret || !advertiser) throw new ApiError(409, M.notConnected);
  try {
    return { token: await accessToken(env, auth), advertiser };
  } catch (err) {
    throw platformFailure(err);
  }
}

/**
 * A platform failure as the envelope: our message first, the platform's own words second. A
 * refused token answers 502, not 401: the user's session with us is fine (a 401 logs them out).
 * The platform's own refusal of the request (4xx) is a 422 carrying its words.
 */
export function platformFailure(err: unknown, notFound?: string): ApiError {
  if (!(err instanceof PlatformError)) throw err;
  if (err.status === 404 && notFound) return new ApiError(404, notFound);
  if (err.kind === 'request') return new ApiError(422, err.detail, { message: [err.detail] });
  const messages =
    err.detail && err.detail !== M.platformFailed ? [M.platformFailed, err.detail] : [M.platformFailed];
  return new ApiError(err.kind === 'timeout' ? 504 : 502, M.platformFailed, { message: messages });
}
