import { strToU8, Unzip, type UnzipFileInfo, UnzipInflate, unzipSync, zipSync } from 'fflate';
import type { Env } from '../env';
import { limitedBody } from './body';
import { ApiError, fieldError } from './errors';
import { signedDownloadPath } from './r2';

// Uploaded files and ZIP archives, read the way the architecture asks for: the directory is
// checked before anything is inflated, and only the entries wanted are inflated. The callers
// (campaign import, install import, landing/offer uploads) keep their own messages.

/** A local file header: what a ZIP with at least one entry starts with. */
export const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export const startsWithBytes = (bytes: Uint8Array, magic: readonly number[]) =>
  magic.every((b, i) => bytes[i] === b);

const hasExtension = (name: string, ext: string) => name.toLowerCase().endsWith(`.${ext}`);

/** 422 on the `uploads` field, where every upload form sends its file. */
export const uploadError = (message: string) => fieldError('uploads', message);

/** 413 for an upload over a size limit, on the `uploads` field. */
export const uploadTooLarge = (message: string) => new ApiError(413, message, { uploads: [message] });

/** A body limit for an upload form: over `maxSize`, the 413 names the file field (the message says the limit). */
export const uploadBodyLimit = (maxSize: number, message: string) =>
  limitedBody(maxSize, () => uploadTooLarge(message));

/**
 * The bytes of an uploaded file after the presence, extension and size checks, in that order,
 * with the upload form's messages. An empty file is missing unless `keepEmptyNamed` lets one
 * with a name through (the campaigns list then reports it as empty or not a ZIP).
 */
export async function uploadedBytes(
  file: unknown,
  rule: {
    ext: 'csv' | 'zip';
    maxBytes: number;
    required: string;
    invalid: string;
    tooLarge: string;
    keepEmptyNamed?: boolean;
  },
): Promise<Uint8Array> {
  if (!(file instanceof File) || (file.size === 0 && !(rule.keepEmptyNamed && file.name))) {
    throw uploadError(rule.required);
  }
  if (!hasExtension(file.name, rule.ext)) throw uploadError(rule.invalid);
  if (file.size > rule.maxBytes) throw uploadTooLarge(rule.tooLarge);
  return new Uint8Array(await file.arrayBuffer());
}

/** The bytes as UTF-8 text (a BOM is dropped), or null when they are not valid UTF-8. */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

/** A ZIP entry name that extracts inside the target folder: relative, no '..', no drive or NUL. */
export function isSafeEntryName(name: string): boolean {
  if (!name || name.length > 255) return false;
  if (name.startsWith('/') || name.includes('\\') || name.includes('\0') || /^[A-Za-z]:/.test(name))
    return false;
  return !name.split('/').some((part) => part === '..');
}

class TooManyEntries extends Error {}

/**
 * The archive's entries from its central directory; nothing is inflated. 'too-many' as soon as
 * there are more than `max` (the rest is not read), 'corrupt' when the directory is unreadable.
 */
export function zipDirectory(bytes: Uint8Array, max = Number.POSITIVE_INFINITY) {
  const entries: UnzipFileInfo[] = [];
  try {
    unzipSync(bytes, {
      filter: (info) => {
        entries.push(info);
        if (entries.length > max) throw new TooManyEntries();
        return false;
      },
    });
  } catch (err) {
    return err instanceof TooManyEntries ? ('too-many' as const) : ('corrupt' as const);
  }
  return entries;
}

// Inflating one entry of an uploaded ZIP without trusting its header. fflate's unzipSync
// inflates into a buffer of the size the header declares, so an entry that lies about its size
// came out silently truncated (74 of 3,000,000 rows, imported with 200). Here the entry is
// inflated chunk by chunk and every byte counted: past the caller's limit, or past the size the
// header declared, inflating stops and the import is refused before anything is written.

export type ZipEntryProblem = 'missing' | 'too-large' | 'size-mismatch' | 'corrupt';

export class ZipEntryError extends Error {
  constructor(readonly problem: ZipEntryProblem) {
    super(`ZIP entry ${problem}`);
  }
}

/** Messages for the 422 answers of the import routes. */
const ZIP_ENTRY_MESSAGES: Record<Exclude<ZipEntryProblem, 'missing'>, string> = {
  'too-large': 'A file in the ZIP is larger than allowed.',
  'size-mismatch': 'The ZIP file is damaged: a file in it is larger than its header says.',
  corrupt: 'The ZIP file is damaged and cannot be read.',
};

/**
 * The inflated bytes of the entry `name`, at most `maxBytes` and exactly the size its header
 * declares. Throws ZipEntryError; nothing past the limit is ever held in memory.
 */
export function inflateEntry(bytes: Uint8Array, name: string, maxBytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let found = false;
  let done = false;
  let problem: ZipEntryProblem | null = null;
  const unzip = new Unzip((file) => {
    if (file.name !== name || found) return;
    found = true;
    const declared = file.originalSize;
    file.ondata = (err, data, final) => {
      if (problem) return;
      if (err) {
        problem = 'corrupt';
        return;
      }
      total += data.length;
      if (total > maxBytes) problem = 'too-large';
      else if (declared !== undefined && total > declared) problem = 'size-mismatch';
      if (problem) {
        file.terminate();
        return;
      }
      chunks.push(data);
      if (final) {
        if (declared !== undefined && total !== declared) problem = 'size-mismatch';
        done = true;
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    unzip.push(bytes, true);
  } catch {
    problem ??= 'corrupt';
  }
  if (problem) throw new ZipEntryError(problem);
  if (!found) throw new ZipEntryError('missing');
  if (!done) throw new ZipEntryError('corrupt');
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The message for a failed inflateEntry: ours for a size problem, else the caller's. */
export function zipEntryMessage(err: unknown, fallback: string): string {
  if (err instanceof ZipEntryError && err.problem !== 'missing') return ZIP_ENTRY_MESSAGES[err.problem];
  return fallback;
}

/** A file-name-safe form of a name: lower case, dashes, at most 40 characters; may be empty. */
export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

/** Zips the files into R2 under `key`; answers a short-lived signed link that downloads it as `name`. */
export async function storeZip(
  env: Pick<Env, 'BUCKET' | 'JWT_SECRET'>,
  key: string,
  name: string,
  files: Record<string, string>,
) {
  const zipped = zipSync(
    Object.fromEntries(Object.entries(files).map(([file, text]) => [file, strToU8(text)])),
    { level: 6 },
  );
  await env.BUCKET.put(key, zipped, { httpMetadata: { contentType: 'application/zip' } });
  return signedDownloadPath(env, key, name);
}
