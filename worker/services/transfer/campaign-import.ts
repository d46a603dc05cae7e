import { addCampaignSchema } from '../../../schema/campaign-api';
import {
  CSV_COLUMNS,
  type CsvColumn,
  LIST_MESSAGES as M,
  MAX_CSV_BYTES,
  MAX_CSV_ROWS,
  MAX_ZIP_BYTES,
} from '../../../schema/campaign-list-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { parseCsv } from '../../lib/csv';
import { validationError } from '../../lib/errors';
import { uploadError, uploadedBytes, uploadTooLarge } from '../../lib/zip';
import { campaignRuleProblem } from '../campaigns/campaign-rules';
import { resolveFolder } from '../campaigns/campaign-tree';
import { csvText, readManifest } from './campaign-files';
import { plansFromManifest } from './campaign-manifest';
import { campaignColumns, emptyPlan, listItemsOf, type Plan, writePlans } from './campaign-plans';

// The campaigns list's uploads: campaigns from a CSV file, and the import of an export's ZIP.
// Each writes everything in one transaction or nothing.

/** An upload form of the campaigns list: the file, the target folder (null: top) and the owner. */
export type CampaignUpload = { file: unknown; dir: number | null; ownerId: number };

/**
 * POST /api/uploadcsv: campaigns from a CSV file with a header row (columns in
 * CSV_COLUMNS, any order; name required). Every line is checked by the add-campaign rules
 * before anything is written; one bad line writes nothing.
 */
export async function importCsv(env: Env, user: AuthUser, { file, dir, ownerId }: CampaignUpload) {
  const bytes = await uploadedBytes(file, {
    ext: 'csv',
    maxBytes: MAX_CSV_BYTES,
    required: M.csvRequired,
    invalid: M.csvInvalid,
    tooLarge: M.csvTooLarge,
    keepEmptyNamed: true,
  });
  const target = await resolveFolder(env, user, dir);
  const rows = parseCsv(csvText(bytes));
  const header = (rows.shift() ?? []).map((h) => h.trim());
  const known = new Map(CSV_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const columns: (CsvColumn | null)[] = [];
  for (const h of header) {
    if (!h) {
      columns.push(null);
      continue;
    }
    const column = known.get(h.toLowerCase());
    if (!column) {
      throw uploadError(`Unknown column "${h.slice(0, 40)}". The columns are: ${CSV_COLUMNS.join(', ')}.`);
    }
    columns.push(column);
  }
  if (!columns.includes('name')) throw uploadError(M.csvHeader);
  if (rows.length === 0) throw uploadError(M.csvEmpty);
  if (rows.length > MAX_CSV_ROWS) throw uploadTooLarge(M.csvTooManyRows);
  const problems: string[] = [];
  const plans: Plan[] = [];
  rows.forEach((cells, i) => {
    const record: Record<string, unknown> = {};
    columns.forEach((column, c) => {
      if (column && cells[c] !== undefined && cells[c].trim() !== '') record[column] = cells[c].trim();
    });
    const parsed = addCampaignSchema.safeParse(record);
    if (!parsed.success) {
      problems.push(`Line ${i + 2}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
      return;
    }
    // The editor's own rules (postback address and the like), not only the field shapes.
    const rule = campaignRuleProblem(parsed.data);
    if (rule) {
      problems.push(`Line ${i + 2}: ${rule.message}`);
      return;
    }
    plans.push(emptyPlan(i + 1, null, campaignColumns(parsed.data, parsed.data.name)));
  });
  if (problems.length) throw validationError({ uploads: problems.slice(0, 20) });
  const ids = await writePlans(env, plans, target?.id ?? null, ownerId);
  return { uploaded: true, message: M.csvUploaded, count: ids.length, result: await listItemsOf(env, ids) };
}

/**
 * POST /api/import-campaigns: recreates the campaigns of an export under `dir`, with new ids,
 * in one transaction. The file is checked (extension, size, magic bytes, entry count, unpacked
 * size, entry names) before anything is inflated, and the manifest by the editor's rules.
 */
export async function importZip(env: Env, user: AuthUser, { file, dir, ownerId }: CampaignUpload) {
  const bytes = await uploadedBytes(file, {
    ext: 'zip',
    maxBytes: MAX_ZIP_BYTES,
    required: M.zipRequired,
    invalid: M.zipInvalid,
    tooLarge: M.zipTooLarge,
    keepEmptyNamed: true,
  });
  const target = await resolveFolder(env, user, dir);
  const manifest = readManifest(bytes);
  const plans = await plansFromManifest(env, manifest);
  const ids = await writePlans(env, plans, target?.id ?? null, ownerId);
  const top = ids.filter((_, i) => plans[i].parentKey === null);
  return {
    uploaded: true,
    message: M.imported,
    campaigns: plans.filter((p) => p.values.isDir !== 1).length,
    folders: plans.filter((p) => p.values.isDir === 1).length,
    result: await listItemsOf(env, top),
  };
}
