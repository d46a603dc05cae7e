import { OPERATION_MESSAGES as M, UPLOAD_LIMITS } from '../../../schema/pages-operations-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import {
  inflateEntry,
  isSafeEntryName,
  startsWithBytes,
  uploadError,
  uploadedBytes,
  uploadTooLarge,
  utf8Text,
  ZIP_MAGIC,
  zipDirectory,
  zipEntryMessage,
} from '../../lib/zip';
import { campaignForUser, refuseDirectLinkLandings } from '../campaigns';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import { landingInsert, lookups, offerInsert, parseLandingRows, parseOfferRows } from './rows';

// The landing CSV upload and the landing and offer ZIP imports: the file checks of spec 2 §5,
// then all rows or none.

const BINARY_MAGIC = [
  [0x50, 0x4b], // zip, docx, xlsx
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // png
  [0x47, 0x49, 0x46, 0x38], // gif
  [0xff, 0xd8, 0xff], // jpeg
  [0xd0, 0xcf, 0x11, 0xe0], // xls (OLE)
  [0x1f, 0x8b], // gzip
];

/** The uploaded CSV as text, after the size, extension and content checks (spec 2 §5 messages). */
export async function csvUploadText(file: unknown): Promise<string> {
  const bytes = await uploadedBytes(file, {
    ext: 'csv',
    maxBytes: UPLOAD_LIMITS.csvBytes,
    required: M.csvRequired,
    invalid: M.csvInvalid,
    tooLarge: M.csvTooLarge,
  });
  const binary = BINARY_MAGIC.some((magic) => startsWithBytes(bytes, magic)) || bytes.includes(0);
  const text = binary ? null : utf8Text(bytes);
  if (text === null) throw uploadError(M.csvInvalid);
  return text;
}

/**
 * One file out of an uploaded ZIP, after every check the architecture asks for: size,
 * extension, magic bytes, then the directory (entry count, declared sizes, names) before
 * anything is decompressed; then only `wanted` is inflated, into a buffer of its declared size.
 */
export async function zipUploadFile(file: unknown, wanted: string, missingMessage: string): Promise<string> {
  const bytes = await uploadedBytes(file, {
    ext: 'zip',
    maxBytes: UPLOAD_LIMITS.zipBytes,
    required: M.zipRequired,
    invalid: M.zipInvalid,
    tooLarge: M.zipTooLarge,
  });
  if (!startsWithBytes(bytes, ZIP_MAGIC)) throw uploadError(M.zipInvalid);
  const entries = zipDirectory(bytes);
  if (!Array.isArray(entries) || entries.length === 0) throw uploadError(M.zipInvalid);
  if (entries.length > UPLOAD_LIMITS.zipEntries) throw uploadError(M.zipTooManyEntries);
  if (entries.some((e) => !isSafeEntryName(e.name))) throw uploadError(M.zipUnsafePath);
  const total = entries.reduce((sum, e) => sum + e.originalSize, 0);
  if (total > UPLOAD_LIMITS.zipUncompressedBytes) throw uploadTooLarge(M.zipTooLargeUncompressed);
  const entry = entries.find((e) => e.name.toLowerCase() === wanted);
  if (!entry) throw uploadError(missingMessage);
  if (entry.originalSize > UPLOAD_LIMITS.csvBytes) throw uploadTooLarge(M.csvTooLarge);
  let content: Uint8Array;
  try {
    // Counted as it inflates: a header that lies about the size is refused, never truncated.
    content = inflateEntry(bytes, entry.name, UPLOAD_LIMITS.csvBytes);
  } catch (err) {
    throw uploadError(zipEntryMessage(err, M.zipInvalid));
  }
  const text = utf8Text(content);
  if (text === null) throw uploadError(M.zipInvalid);
  return text;
}

// ---- upload, import and export -----------------------------------------------------------------

/** The landing CSV upload: all rows or none; `overwrite` soft-deletes the live pages first. */
export async function uploadLandingCsv(
  env: Env,
  user: AuthUser,
  campaignId: number,
  text: string,
  overwrite: boolean,
) {
  const campaign = await campaignForUser(env, user, campaignId);
  refuseDirectLinkLandings(campaign);
  const rows = parseLandingRows(text, await lookups(env, campaign));
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  if (overwrite) {
    statements.push(
      env.DB.prepare(
        'UPDATE landing_pages SET deleted = 1, updated_at = ?2 WHERE campaign_id = ?1 AND deleted = 0',
      ).bind(campaign.id, now),
    );
  }
  for (const row of rows) statements.push(landingInsert(env, campaign.id, user.id, now, row));
  await env.DB.batch(statements);
  invalidateCompiledCampaign(campaign.id);
  return rows.length;
}

export async function importLandings(env: Env, user: AuthUser, campaignId: number, text: string) {
  return uploadLandingCsv(env, user, campaignId, text, false);
}

export async function importOffers(env: Env, user: AuthUser, campaignId: number, text: string) {
  const campaign = await campaignForUser(env, user, campaignId);
  const rows = parseOfferRows(text, await lookups(env, campaign));
  const now = Date.now();
  await env.DB.batch(rows.map((row) => offerInsert(env, campaign.id, user.id, now, row)));
  invalidateCompiledCampaign(campaign.id);
  return rows.length;
}
