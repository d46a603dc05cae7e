import type { Env } from '../../env';
import { type HmacKey, hmacSha256, hmacSha256Key } from './hmac';

// Click ids are self-describing and signed (docs/decisions/013-click-ids.md):
//
//   base32( version=1 | varint campaign | varint path | varint landing | varint offer
//           | varint seconds since 2024-01-01 | 7 random bytes | 6-byte HMAC-SHA256 tag )
//
// lower-case RFC 4648 base32 without padding: letters and digits only, about 39 characters,
// safe in any affiliate network's sub-id field and unchanged by networks that lower-case values.
// The landing-page click, the offer redirect and the conversion read the campaign, path,
// landing page and offer from the id itself: no lookup, and a forged id is refused.

export type ClickIdFields = {
  campaignId: number;
  pathId: number;
  landingId: number;
  offerId: number;
  /** When the id was minted, UTC milliseconds rounded down to the second. */
  issuedAt: number;
};

export type ParsedClickId = ClickIdFields & {
  clickId: string;
  /** 32 bits of the random part: seeds per-visitor choices that must repeat (the offer). */
  seed: number;
};

const VERSION = 1;
/**
 * Test clicks of the Tools screen carry another version byte under the same signature, so every
 * real route refuses them and only the test-conversion hook reads them (docs/decisions/061).
 */
export const TEST_CLICK_ID_VERSION = 2;
const EPOCH_MS = Date.UTC(2024, 0, 1);
const RANDOM_BYTES = 7;
const TAG_BYTES = 6;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const DECODE = new Map([...ALPHABET].map((ch, i) => [ch, i]));
/** Ids minted up to this far in the future (clock skew between data centres) are accepted. */
const MAX_FUTURE_MS = 10 * 60 * 1000;
const MIN_LENGTH = 30;
const MAX_LENGTH = 64;
const encoder = new TextEncoder();

let keyCache: { secret: string; key: HmacKey } | null = null;

/** The signing secret: CLICK_ID_SECRET, else one derived from JWT_SECRET (set the former in production). */
function clickIdSecret(env: Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>): string {
  const secret = env.CLICK_ID_SECRET || (env.JWT_SECRET ? `click-id:${env.JWT_SECRET}` : '');
  if (secret.length < 16) throw new Error('CLICK_ID_SECRET (or JWT_SECRET) is missing');
  return secret;
}

function signingKey(env: Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>): HmacKey {
  const secret = clickIdSecret(env);
  if (keyCache?.secret !== secret) keyCache = { secret, key: hmacSha256Key(encoder.encode(secret)) };
  return keyCache.key;
}

function readVarint(bytes: Uint8Array, at: { i: number }, end: number): number | null {
  let value = 0;
  let scale = 1;
  for (let n = 0; n < 8; n++) {
    if (at.i >= end) return null;
    const b = bytes[at.i++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return value;
    scale *= 0x80;
  }
  return null;
}

function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of bytes) {
    buffer = ((buffer << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): Uint8Array | null {
  const out = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let n = 0;
  for (const ch of text) {
    const v = DECODE.get(ch);
    if (v === undefined) return null;
    buffer = ((buffer << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out[n++] = (buffer >> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  // Leftover bits must be zero padding, so that every id has exactly one spelling.
  if ((buffer & ((1 << bits) - 1)) !== 0) return null;
  return out;
}

function tag(env: Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>, payload: Uint8Array): Uint8Array {
  return hmacSha256(signingKey(env), payload).subarray(0, TAG_BYTES);
}

const mintBuffer = new Uint8Array(64);
// Random bytes are drawn from the CSPRNG 4 KB at a time, each byte used once.
const randomPool = new Uint8Array(4096);
let randomAt = randomPool.length;

function randomBytes(n: number): Uint8Array {
  if (randomAt + n > randomPool.length) {
    crypto.getRandomValues(randomPool);
    randomAt = 0;
  }
  randomAt += n;
  return randomPool.subarray(randomAt - n, randomAt);
}

function writeVarint(at: number, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`click id field out of range: ${value}`);
  let v = value;
  let i = at;
  while (v >= 0x80) {
    mintBuffer[i++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  mintBuffer[i++] = v;
  return i;
}

/** Mints a click id carrying `fields`; `now` and `random` are injectable for tests. */
export function mintClickId(
  env: Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>,
  fields: Omit<ClickIdFields, 'issuedAt'>,
  now = Date.now(),
  random: Uint8Array = randomBytes(RANDOM_BYTES),
  version = VERSION,
): string {
  mintBuffer[0] = version;
  let at = writeVarint(1, fields.campaignId);
  at = writeVarint(at, fields.pathId);
  at = writeVarint(at, fields.landingId);
  at = writeVarint(at, fields.offerId);
  at = writeVarint(at, Math.max(0, Math.floor((now - EPOCH_MS) / 1000)));
  for (let i = 0; i < RANDOM_BYTES; i++) mintBuffer[at++] = random[i] ?? 0;
  mintBuffer.set(tag(env, mintBuffer.subarray(0, at)), at);
  return base32(mintBuffer.subarray(0, at + TAG_BYTES));
}

/**
 * Reads and verifies a click id. Answers null for anything malformed, forged (bad tag) or
 * minted implausibly far in the future; never throws on input.
 */
export function parseClickId(
  env: Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>,
  raw: string | null | undefined,
  now = Date.now(),
  version = VERSION,
): ParsedClickId | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim().toLowerCase();
  if (text.length < MIN_LENGTH || text.length > MAX_LENGTH) return null;
  const bytes = unbase32(text);
  if (!bytes || bytes.length < 1 + 5 + RANDOM_BYTES + TAG_BYTES || bytes[0] !== version) return null;
  const payloadEnd = bytes.length - TAG_BYTES;
  const at = { i: 1 };
  const campaignId = readVarint(bytes, at, payloadEnd);
  const pathId = readVarint(bytes, at, payloadEnd);
  const landingId = readVarint(bytes, at, payloadEnd);
  const offerId = readVarint(bytes, at, payloadEnd);
  const seconds = readVarint(bytes, at, payloadEnd);
  if (campaignId === null || pathId === null || landingId === null || offerId === null || seconds === null) {
    return null;
  }
  if (payloadEnd - at.i !== RANDOM_BYTES || campaignId < 1) return null;
  const payload = bytes.subarray(0, payloadEnd);
  const expected = tag(env, payload);
  let diff = 0;
  for (let i = 0; i < TAG_BYTES; i++) diff |= expected[i] ^ bytes[payloadEnd + i];
  if (diff !== 0) return null;
  const issuedAt = EPOCH_MS + seconds * 1000;
  if (issuedAt > now + MAX_FUTURE_MS) return null;
  const r = bytes.subarray(at.i, payloadEnd);
  const seed = ((r[0] << 24) | (r[1] << 16) | (r[2] << 8) | r[3]) >>> 0;
  return { clickId: text, campaignId, pathId, landingId, offerId, issuedAt, seed };
}

/** A short signature (base64url, 16 chars) over `text` with the click-id key: signed hops. */
export function signText(env: Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>, text: string): string {
  const mac = hmacSha256(signingKey(env), encoder.encode(`text:${text}`));
  let binary = '';
  for (const b of mac.subarray(0, 12)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}

export function verifyText(
  env: Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>,
  text: string,
  signature: string,
): boolean {
  const expected = signText(env, text);
  if (expected.length !== signature.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
  return diff === 0;
}
