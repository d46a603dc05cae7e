import type { Env } from '../env';
import { hmacKey, timingSafeEqual, toBase64Url } from './crypto';

// Files in R2 reach the browser two ways: public assets (logo, favicon) under /files/public/…,
// and everything else (exports) through short-lived signed links under /files/download.

export const PUBLIC_PREFIX = 'public/';
const DOWNLOAD_TTL_SECONDS = 15 * 60;

async function signature(env: Pick<Env, 'JWT_SECRET'>, key: string, expires: number, name: string) {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(`download:${env.JWT_SECRET}`),
    new TextEncoder().encode(`${key}\n${expires}\n${name}`),
  );
  return toBase64Url(new Uint8Array(mac));
}

/** A link to download `key` as `name`, valid for `ttlSeconds`; relative to the installation's origin. */
export async function signedDownloadPath(
  env: Pick<Env, 'JWT_SECRET'>,
  key: string,
  name: string,
  ttlSeconds = DOWNLOAD_TTL_SECONDS,
): Promise<string> {
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
  const sig = await signature(env, key, expires, name);
  const q = new URLSearchParams({ key, name, expires: String(expires), sig });
  return `/files/download?${q}`;
}

export async function verifyDownload(env: Pick<Env, 'JWT_SECRET'>, params: URLSearchParams) {
  const key = params.get('key') ?? '';
  const name = params.get('name') ?? '';
  const expires = Number(params.get('expires'));
  const sig = params.get('sig') ?? '';
  if (!key || !name || !Number.isInteger(expires) || !sig) return null;
  if (expires < Math.floor(Date.now() / 1000)) return null;
  if (!timingSafeEqual(sig, await signature(env, key, expires, name))) return null;
  return { key, name };
}

/** A safe file name for Content-Disposition. */
export function dispositionName(name: string): string {
  return name.replace(/[^\w.\- ]+/g, '_').slice(0, 120) || 'download';
}
