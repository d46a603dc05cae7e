import type { Env } from '../../env';
import { signedDownloadPath } from '../../lib/r2';

// Banner images and traffic assets in R2 (docs/decisions/096). Every file is checked by its
// first bytes, not by its name or the browser's content type; its name is reduced to a safe base
// name; it lives under its campaign's own prefix, so no name can reach another campaign's files.

export type ImageType = 'png' | 'jpeg' | 'gif';
const IMAGE_CONTENT_TYPES: Record<ImageType, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};
/** Which extensions may carry which type. */
const EXTENSION_TYPES: Record<string, ImageType> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', gif: 'gif' };

/** The kind of image the first bytes say this is; null for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const starts = (sig: number[]) => bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'gif';
  return null;
}

/**
 * A name safe to keep and to use in an R2 key: the last path segment (a/../b.png gives b.png),
 * letters, digits, dot, dash and underscore only, no leading dot, at most 100 characters with
 * the extension kept. Null when nothing usable is left.
 */
export function sanitiseFileName(raw: string): string | null {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+/, '')
    .replace(/-+/g, '-');
  const match = /^(.*?)(\.[A-Za-z0-9]{1,5})?$/.exec(cleaned);
  const stem = (match?.[1] ?? '').replace(/[.-]+$/, '').slice(0, 90);
  const ext = (match?.[2] ?? '').toLowerCase();
  if (!stem) return null;
  return `${stem}${ext}`;
}

const extensionOf = (name: string) => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

export type CheckedImage = { name: string; type: ImageType; contentType: string; bytes: Uint8Array };
export type ImageProblem = 'name' | 'type' | 'size';

/**
 * An uploaded image: a usable name, an extension in `allowed`, at most `maxBytes`, and bytes of
 * the type the extension says (a text file renamed .png is refused).
 */
export async function checkImage(
  file: File,
  allowed: readonly string[],
  maxBytes: number,
): Promise<CheckedImage | { problem: ImageProblem; name: string }> {
  const name = sanitiseFileName(file.name);
  if (!name) return { problem: 'name', name: file.name };
  const ext = extensionOf(name);
  if (!allowed.includes(ext)) return { problem: 'type', name };
  if (file.size > maxBytes) return { problem: 'size', name };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffImageType(bytes);
  if (!type || type !== EXTENSION_TYPES[ext]) return { problem: 'type', name };
  return { name, type, contentType: IMAGE_CONTENT_TYPES[type], bytes };
}

export type FileArea = 'banners' | 'traffic';

/** The R2 prefix of one campaign's files of one area. */
const campaignPrefix = (area: FileArea, campaignId: number) => `${area}/${campaignId}/`;

/** Stores a checked image under the campaign's prefix; answers its key. */
export async function putCampaignImage(
  env: Pick<Env, 'BUCKET'>,
  area: FileArea,
  campaignId: number,
  storedName: string,
  image: CheckedImage,
): Promise<string> {
  const key = `${campaignPrefix(area, campaignId)}${storedName}`;
  await env.BUCKET.put(key, image.bytes, { httpMetadata: { contentType: image.contentType } });
  return key;
}

/** Removes files; only keys under the campaign's prefix are touched. */
export async function deleteCampaignFiles(
  env: Pick<Env, 'BUCKET'>,
  area: FileArea,
  campaignId: number,
  keys: string[],
): Promise<void> {
  const prefix = campaignPrefix(area, campaignId);
  const mine = keys.filter((k) => k.startsWith(prefix));
  if (mine.length) await env.BUCKET.delete(mine);
}

/** A short-lived link the editor shows the image with. */
export const imageLink = (env: Pick<Env, 'JWT_SECRET'>, key: string, name: string) =>
  signedDownloadPath(env, key, name);
