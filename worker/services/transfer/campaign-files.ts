import type { z } from 'zod';
import {
  LIST_MESSAGES as M,
  MANIFEST_NAME,
  MAX_ZIP_ENTRIES,
  MAX_ZIP_UNPACKED_BYTES,
} from '../../../schema/campaign-list-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { fieldError } from '../../lib/errors';
import {
  inflateEntry,
  isSafeEntryName,
  startsWithBytes,
  uploadError,
  utf8Text,
  ZIP_MAGIC,
  zipDirectory,
  zipEntryMessage,
} from '../../lib/zip';
import { canSeeEveryCampaign } from '../campaigns';

// The checks on the files of the campaigns list's uploads (CSV upload and ZIP import) and on who
// the uploaded campaigns belong to; the messages are the list's own.

export const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0];
  const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return `${field}${issue?.message ?? 'invalid value'}`;
};

/** A name from a file, safe to repeat in a message. */
export const printable = (name: string) => name.replace(/[^\x20-\x7e]/g, '?').slice(0, 80);

/** The owner of uploaded campaigns: the caller, or for an admin or coach the userId they name. */
export async function uploadOwner(env: Pick<Env, 'DB'>, user: AuthUser, userId: unknown): Promise<number> {
  const raw = typeof userId === 'string' ? userId.trim() : userId;
  if (raw === undefined || raw === null || raw === '' || Number(raw) === user.id) return user.id;
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1 || !canSeeEveryCampaign(user))
    throw fieldError('userId', M.userInvalid);
  const row = await env.DB.prepare('SELECT id FROM users WHERE id = ?1').bind(id).first<{ id: number }>();
  if (!row) throw fieldError('userId', M.userInvalid);
  return id;
}

/** The text of an uploaded CSV: UTF-8 without NUL bytes, else it is not a CSV file. */
export function csvText(bytes: Uint8Array): string {
  const text = bytes.includes(0) ? null : utf8Text(bytes);
  if (text === null) throw uploadError(M.csvInvalid);
  return text;
}

/** An archive with no entries starts with the end-of-directory record instead. */
const EMPTY_ZIP_MAGIC = [0x50, 0x4b, 0x05, 0x06];

/** Reads the manifest out of an uploaded ZIP after checking the file and every entry. */
export function readManifest(bytes: Uint8Array): unknown {
  const isZip =
    bytes.length >= 22 && (startsWithBytes(bytes, ZIP_MAGIC) || startsWithBytes(bytes, EMPTY_ZIP_MAGIC));
  if (!isZip) throw uploadError(M.zipInvalid);
  const entries = zipDirectory(bytes, MAX_ZIP_ENTRIES);
  if (entries === 'too-many') throw uploadError(M.zipTooManyEntries);
  if (entries === 'corrupt') throw uploadError(M.zipCorrupt);
  for (const entry of entries) {
    if (!isSafeEntryName(entry.name)) throw uploadError(`${M.zipUnsafeName}: ${printable(entry.name)}`);
  }
  const unpacked = entries.reduce((sum, e) => sum + e.originalSize, 0);
  if (unpacked > MAX_ZIP_UNPACKED_BYTES) throw uploadError(M.zipTooBig);
  if (!entries.some((e) => e.name === MANIFEST_NAME)) throw uploadError(M.zipNoManifest);
  let manifest: Uint8Array;
  try {
    // Counted as it inflates: a header that lies about the size is refused, never truncated.
    manifest = inflateEntry(bytes, MANIFEST_NAME, MAX_ZIP_UNPACKED_BYTES);
  } catch (err) {
    throw uploadError(zipEntryMessage(err, M.zipCorrupt));
  }
  const text = utf8Text(manifest);
  if (text === null) throw uploadError(M.zipCorrupt);
  try {
    return JSON.parse(text);
  } catch {
    throw uploadError(M.zipCorrupt);
  }
}
