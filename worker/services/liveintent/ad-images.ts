import { AD_IMAGE_MAX_BYTES, LIVEINTENT_MESSAGES as M } from '../../../schema/liveintent-api';
import type { Env } from '../../env';
import { fieldError } from '../../lib/errors';
import { PUBLIC_PREFIX } from '../../lib/r2';
import { startsWithBytes } from '../../lib/zip';

// Ad images arrive as base64 (spec 4 §3: mediaUrl). The type is read from the bytes, never from
// the name or the data URL's claim, and the image is kept in R2 under the public prefix so the
// platform can fetch it from the installation.

const KINDS = [
  { ext: 'png', type: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { ext: 'jpg', type: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  { ext: 'gif', type: 'image/gif', magic: [0x47, 0x49, 0x46, 0x38] },
] as const;

function imageKind(bytes: Uint8Array) {
  const known = KINDS.find((k) => startsWithBytes(bytes, k.magic));
  if (known) return known;
  // RIFF....WEBP
  if (
    startsWithBytes(bytes, [0x52, 0x49, 0x46, 0x46]) &&
    startsWithBytes(bytes.subarray(8), [0x57, 0x45, 0x42, 0x50])
  ) {
    return { ext: 'webp', type: 'image/webp' } as const;
  }
  return null;
}

function decode(value: string): Uint8Array | null {
  const base64 = value.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length === 0) return null;
  try {
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

export const isDataUrl = (value: string) => value.startsWith('data:');

/** Checks and stores one ad image; answers its R2 key. 422 on mediaUrl otherwise. */
export async function storeAdImage(env: Pick<Env, 'BUCKET'>, campaignId: number, mediaUrl: string) {
  const bytes = decode(mediaUrl);
  const kind = bytes ? imageKind(bytes) : null;
  if (!bytes || !kind) throw fieldError('mediaUrl', M.notImage);
  if (bytes.byteLength >= AD_IMAGE_MAX_BYTES) throw fieldError('mediaUrl', M.tooLarge);
  const key = `${PUBLIC_PREFIX}liveintent-ads/${campaignId}/${crypto.randomUUID()}.${kind.ext}`;
  await env.BUCKET.put(key, bytes, { httpMetadata: { contentType: kind.type } });
  return key;
}
