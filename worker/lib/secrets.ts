import type { Env } from '../env';
import { fromBase64Url, toBase64Url } from './crypto';

// Stored credentials (ad-platform usernames and passwords) are encrypted with AES-GCM under
// ENCRYPTION_KEY (a Worker secret: base64 of 32 random bytes). A stored value reads
// 'enc:v1:<iv>:<ciphertext>' (base64url); the name it is stored under is bound in as
// additional data, so a value copied under another name does not decrypt.

const SECRET_PREFIX = 'enc:v1:';

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function decodeKey(raw: string | undefined): Uint8Array {
  let bytes: Uint8Array | undefined;
  try {
    const text = (raw ?? '').trim();
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== 32) {
    throw new Error('ENCRYPTION_KEY is missing or is not base64 of 32 bytes');
  }
  return bytes as Uint8Array;
}

function aesKey(env: Pick<Env, 'ENCRYPTION_KEY'>): Promise<CryptoKey> {
  const raw = env.ENCRYPTION_KEY ?? '';
  let key = keys.get(raw);
  if (!key) {
    key = crypto.subtle.importKey('raw', decodeKey(raw), 'AES-GCM', false, ['encrypt', 'decrypt']);
    keys.set(raw, key);
  }
  return key;
}

export function isSecretValue(value: string): boolean {
  return value.startsWith(SECRET_PREFIX);
}

/** Encrypts `plain` for storage under `name`; an empty value stays empty (nothing stored). */
export async function encryptSecret(env: Pick<Env, 'ENCRYPTION_KEY'>, name: string, plain: string) {
  if (plain === '') return '';
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(name) },
    await aesKey(env),
    encoder.encode(plain),
  );
  return `${SECRET_PREFIX}${toBase64Url(iv)}:${toBase64Url(new Uint8Array(sealed))}`;
}

/**
 * The clear text of a stored value, '' for nothing stored. A value that does not decrypt
 * (another installation's key, tampering) answers null: the caller treats it as not set.
 */
export async function decryptSecret(
  env: Pick<Env, 'ENCRYPTION_KEY'>,
  name: string,
  stored: string,
): Promise<string | null> {
  if (!stored) return '';
  if (!isSecretValue(stored)) return null;
  const [ivText, dataText] = stored.slice(SECRET_PREFIX.length).split(':');
  if (!ivText || !dataText) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64Url(ivText), additionalData: encoder.encode(name) },
      await aesKey(env),
      fromBase64Url(dataText),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
