import { strFromU8 } from 'fflate';
import {
  LOGO_MAX_BYTES,
  SETTINGS_MESSAGES as M,
  RESERVED_ROUTES,
  ROUTE_KEYS,
  ROUTE_PATTERN,
} from '../../../schema/settings-api';
import { ApiError, fieldError } from '../../lib/errors';
import { isSecretValue } from '../../lib/secrets';
import { isTimeZone } from '../../lib/timezones';
import {
  inflateEntry,
  startsWithBytes,
  ZIP_MAGIC,
  ZipEntryError,
  zipDirectory,
  zipEntryMessage,
} from '../../lib/zip';
import { sniffImage } from '../settings/settings-form';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  MACHINE_SETTINGS,
  type Manifest,
  type ManifestTable,
  primaryKey,
  type TableInfo,
  USER_COLUMNS,
} from './install-tables';

// The checks an uploaded installation export passes before anything of it is written: the
// archive's directory, the manifest, settings, owners and every row's shape.

const MAX_ENTRIES = 2_000;
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
const MAX_TOTAL_BYTES = 256 * 1024 * 1024;

const ENTRY_NAME =
  /^(manifest\.json|settings\.json|owners\.json|tables\/[a-z0-9_]{1,64}\/\d{5}\.ndjson|files\/public\/branding\/[A-Za-z0-9_-]{1,80}\.(png|jpg|ico))$/;

export const bad = (message: string) => fieldError('file', message);

/** The archive's entry names, after the magic bytes, count, names and declared sizes are checked. */
export function archiveEntryNames(bytes: Uint8Array): Set<string> {
  if (!startsWithBytes(bytes, ZIP_MAGIC)) throw bad(M.importFileInvalid);
  // The central directory, before anything is unpacked: names, count and sizes.
  const entries = zipDirectory(bytes);
  if (!Array.isArray(entries)) throw bad(M.importFileCorrupt);
  if (entries.length > MAX_ENTRIES) throw bad(M.importTooBig);
  let declared = 0;
  const names = new Set<string>();
  for (const e of entries) {
    if (!ENTRY_NAME.test(e.name) || names.has(e.name)) throw bad(M.importUnexpectedEntry);
    if (e.originalSize > MAX_ENTRY_BYTES) throw bad(M.importTooBig);
    names.add(e.name);
    declared += e.originalSize;
  }
  if (declared > MAX_TOTAL_BYTES) throw bad(M.importTooBig);
  for (const required of ['manifest.json', 'settings.json', 'owners.json']) {
    if (!names.has(required)) throw bad(M.importNotAnExport);
  }
  return names;
}

function readEntry(bytes: Uint8Array, name: string): Uint8Array {
  try {
    return inflateEntry(bytes, name, MAX_ENTRY_BYTES);
  } catch (err) {
    if (err instanceof ZipEntryError && err.problem === 'missing') throw bad(M.importNotAnExport);
    throw bad(zipEntryMessage(err, M.importFileCorrupt));
  }
}

export function readJson(bytes: Uint8Array, name: string): unknown {
  try {
    return JSON.parse(strFromU8(readEntry(bytes, name)));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw bad(M.importNotAnExport);
  }
}

export function parseManifest(value: unknown): Manifest {
  const m = value as Partial<Manifest> | null;
  if (!m || typeof m !== 'object' || m.format !== EXPORT_FORMAT || typeof m.version !== 'number') {
    throw bad(M.importNotAnExport);
  }
  if (m.version > EXPORT_VERSION) throw bad(M.importNewerVersion);
  if (!Array.isArray(m.tables)) throw bad(M.importNotAnExport);
  const seen = new Set<string>();
  for (const t of m.tables as Partial<ManifestTable>[]) {
    const ok =
      t &&
      typeof t.name === 'string' &&
      !seen.has(t.name) &&
      Array.isArray(t.columns) &&
      t.columns.every((c) => typeof c === 'string') &&
      new Set(t.columns).size === t.columns.length &&
      Number.isInteger(t.rows) &&
      (t.rows as number) >= 0 &&
      Array.isArray(t.parts) &&
      t.parts.every((p) => typeof p === 'string' && p.startsWith(`tables/${t.name}/`));
    if (!ok) throw bad(M.importNotAnExport);
    seen.add(t.name as string);
  }
  return m as Manifest;
}

function isCell(v: unknown): boolean {
  return v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** The rows of one part, each checked against the table's columns. */
export function partRows(bytes: Uint8Array, name: string, width: number): unknown[][] {
  const text = strFromU8(readEntry(bytes, name));
  const rows: unknown[][] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw bad(M.importBadRows);
    }
    if (!Array.isArray(row) || row.length !== width || !row.every(isCell)) throw bad(M.importBadRows);
    rows.push(row);
  }
  return rows;
}

export function checkSettings(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad(M.importNotAnExport);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!/^[a-z0-9_]{1,64}$/.test(key) || typeof v !== 'string' || v.length > 20_000) {
      throw bad(M.importBadRows);
    }
    // Machine settings and another machine's secrets never replace this installation's.
    if (MACHINE_SETTINGS.has(key) || isSecretValue(v)) continue;
    out[key] = v;
  }
  const routes = ROUTE_KEYS.map((k) => out[k]).filter((r) => r !== undefined);
  const routeOk = (r: string) =>
    ROUTE_PATTERN.test(r) && !(RESERVED_ROUTES as readonly string[]).includes(r.toLowerCase());
  if (!routes.every(routeOk) || new Set(routes.map((r) => r.toLowerCase())).size !== routes.length) {
    throw bad(M.importBadRows);
  }
  if (out.time_zone !== undefined && !isTimeZone(out.time_zone)) throw bad(M.importBadRows);
  return out;
}

export function checkOwners(value: unknown): Map<number, string> {
  if (!Array.isArray(value)) throw bad(M.importNotAnExport);
  const owners = new Map<number, string>();
  for (const o of value) {
    if (!o || !Number.isInteger(o.id) || typeof o.username !== 'string') throw bad(M.importBadRows);
    owners.set(o.id, o.username);
  }
  return owners;
}

/** How one table of the file is written: its columns in the file's order, parts and row count. */
export type TablePlan = {
  table: TableInfo;
  columns: string[];
  parts: string[];
  rows: number;
  /** Indexes of the columns holding a user id. */
  userColumns: number[];
};

/**
 * Every table of the file must exist here with its columns and every part must be listed;
 * then every row is parsed and checked (width, cell types, primary keys, row counts) before
 * anything is written.
 */
export function tablePlans(
  bytes: Uint8Array,
  names: Set<string>,
  manifest: Manifest,
  local: TableInfo[],
): Map<string, TablePlan> {
  const localByName = new Map(local.map((t) => [t.name, t]));
  const listed = new Set<string>();
  const plans = new Map<string, TablePlan>();
  for (const t of manifest.tables) {
    const table = localByName.get(t.name);
    if (!table) throw bad(M.importNewerVersion);
    const known = new Set(table.columns.map((c) => c.name));
    if (!t.columns.every((c) => known.has(c))) throw bad(M.importNewerVersion);
    const missing = table.columns.filter((c) => c.notNull && !c.hasDefault && c.pk === 0);
    if (missing.some((c) => !t.columns.includes(c.name))) throw bad(M.importBadRows);
    for (const part of t.parts) {
      if (!names.has(part) || listed.has(part)) throw bad(M.importNotAnExport);
      listed.add(part);
    }
    plans.set(t.name, {
      table,
      columns: t.columns,
      parts: t.parts,
      rows: t.rows,
      userColumns: t.columns.flatMap((c, i) => (USER_COLUMNS.has(c) ? [i] : [])),
    });
  }
  for (const name of names) {
    if (name.startsWith('tables/') && !listed.has(name)) throw bad(M.importUnexpectedEntry);
  }

  for (const plan of plans.values()) {
    const pkIndexes = primaryKey(plan.table).map((c) => plan.columns.indexOf(c.name));
    const keys = new Set<string>();
    let count = 0;
    for (const part of plan.parts) {
      for (const row of partRows(bytes, part, plan.columns.length)) {
        count += 1;
        if (pkIndexes.length && pkIndexes.every((i) => i >= 0)) {
          const key = JSON.stringify(pkIndexes.map((i) => row[i]));
          if (keys.has(key)) throw bad(M.importBadRows);
          keys.add(key);
        }
      }
    }
    if (count !== plan.rows) throw bad(M.importBadRows);
  }
  return plans;
}

/**
 * Branding files: only images whose bytes match their extension, only those settings name. A
 * logo or favicon setting whose file is not in the archive is cleared.
 */
export function brandingFiles(bytes: Uint8Array, names: Set<string>, settings: Record<string, string>) {
  const files: { key: string; bytes: Uint8Array; type: string }[] = [];
  for (const name of names) {
    if (!name.startsWith('files/')) continue;
    const key = name.slice('files/'.length);
    if (key !== settings.logo && key !== settings.favicon) throw bad(M.importUnexpectedEntry);
    const data = readEntry(bytes, name);
    const kind = data.length <= LOGO_MAX_BYTES ? sniffImage(data) : null;
    const ext = name.slice(name.lastIndexOf('.') + 1);
    if (!kind || (ext === 'jpg' ? 'jpeg' : ext) !== kind) throw bad(M.importBadRows);
    files.push({ key, bytes: data, type: kind === 'ico' ? 'image/x-icon' : `image/${kind}` });
  }
  for (const k of ['logo', 'favicon'] as const) {
    if (settings[k] && !names.has(`files/${settings[k]}`)) settings[k] = '';
  }
  return files;
}
