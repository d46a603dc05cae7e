import { fromBase64Url, hmacKey, timingSafeEqual, toBase64Url } from './crypto';

// WebCrypto's PBKDF2 stops at 100,000 iterations; a secret pepper makes up for the rest
// (docs/decisions/002-password-hashing.md).
const ITERATIONS = 100_000;
const encoder = new TextEncoder();

async function derive(password: string, salt: Uint8Array, iterations: number, pepper: string) {
  const peppered = await crypto.subtle.sign('HMAC', await hmacKey(pepper), encoder.encode(password));
  const key = await crypto.subtle.importKey('raw', peppered, 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    256,
  );
  return toBase64Url(new Uint8Array(bits));
}

/** `pbkdf2-sha256$<iterations>$<salt>$<hash>`, with a fresh 16-byte salt per call. */
export async function hashPassword(password: string, pepper: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, ITERATIONS, pepper);
  return `pbkdf2-sha256$${ITERATIONS}$${toBase64Url(salt)}$${hash}`;
}

export async function verifyPassword(password: string, stored: string, pepper: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split('$');
  if (scheme !== 'pbkdf2-sha256' || !iterations || !salt || !hash) return false;
  const candidate = await derive(password, fromBase64Url(salt), Number(iterations), pepper);
  return timingSafeEqual(candidate, hash);
}
