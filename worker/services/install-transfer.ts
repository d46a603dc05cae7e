import { strFromU8, strToU8, type UnzipFileInfo, unzipSync, Zip, ZipDeflate } from 'fflate';
import {
  IMPORT_MAX_BYTES,
  LOGO_MAX_BYTES,
  SETTINGS_MESSAGES as M,
  RESERVED_ROUTES,
  ROUTE_KEYS,
  ROUTE_PATTERN,
} from '../../schema/settings-api';
import type { Env } from '../env';
import type { AuthUser } from '../lib/auth';
import { randomToken } from '../lib/crypto';
import { ApiError, fieldError } from '../lib/errors';
import { isSecretValue } from '../lib/secrets';
import { isTimeZone } from '../lib/timezones';
import { inflateEntry, ZipEntryError, zipEntryMessage } from '../lib/zip';
import { invalidateCompiledCampaign } from './compiled-campaigns';
import { invalidateSettings } from './settings';
import { sniffImage } from './settings-form';

// The whole installation as one ZIP (docs/decisions/020-settings-and-install-transfer.md): export writes it
// to R2, import replaces this installation's data with a file's, clean empties it.
//
// Which tables: every table of the database except the accounts and sessions of this
// installation (users, login and reset tokens, login failures, the mail outbox), transient
// bookkeeping (ingest marks, cached statistics jobs) and the migrations log. Tables are
// discovered from the schema, so a table added later travels without a change here.
// Settings travel except what belongs to this machine (setup flag, license, base URL, custom
// domain) and credentials encrypted with this machine's key. The logo and favicon files go
// along. Campaign owners are matched by username on import.
//
// Archive layout (format 1):
//   manifest.json               { format, version, exportedAt, tables: [{ name, columns, rows, parts }] }
//   settings.json               { key: value }
//   owners.json                 [{ id, username }]
//   tables/<table>/<n>.ndjson   one JSON array of column values per line
//   files/public/branding/<f>   logo and favicon

export const EXPORT_FORMAT = 'edge-tracker-install';
export const EXPORT_VERSION = 1;

/** Never exported, emptied or replaced. */
const EXCLUDED_TABLES = new Set([
  'users',
  'login_tokens',
  'password_resets',
  'login_failures',
  'password_reset_requests',
  'campaign_postback_secrets',
  'mail_outbox',
  'ingest_marks',
  'stats_jobs',
  // Kept by triggers from target_daily: importing target_daily rebuilds it.
  'target_weekly',
  'settings',
  'd1_migrations',
]);
/** Reference data seeded by migrations: exported and upserted on import, never emptied. */
const REFERENCE_TABLES = new Set(['agents']);
/** Tables emptied with the data (cached results that would describe rows that are gone). */
const TRANSIENT_TABLES = ['stats_jobs'];
/** Columns holding a user id: remapped to this installation's users on import. */
const USER_COLUMNS = new Set(['created_by', 'updated_by', 'user_id']);
/** Settings that describe this machine rather than the data. */
export const MACHINE_SETTINGS = new Set([
  'setup_done',
  'license_key',
  'license_email',
  'base_url',
  'custom_domain',
  'postback_secret',
]);

const PART_BYTES = 4 * 1024 * 1024;
const PAGE_ROWS = 2_000;
const MAX_ENTRIES = 2_000;
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
/** One json_each parameter stays well under D1's 2 MB value limit. */
const CHUNK_BYTES = 512 * 1024;
/** Up to this much row data goes in one D1 batch (one transaction). */
const BATCH_BYTES = 24 * 1024 * 1024;

type Column = { name: string; notNull: boolean; hasDefault: boolean; pk: number };
export type TableInfo = {
  name: string;
  columns: Column[];
  deps: string[];
  reference: boolean;
  /** WITHOUT ROWID tables (the rollups) are paged by their primary key instead of rowid. */
  withoutRowid: boolean;
};

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The data tables, parents before children (foreign keys), with their columns. */
export async function dataTables(env: Pick<Env, 'DB'>): Promise<TableInfo[]> {
  const names = await env.DB.prepare(
    `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
       AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name`,
  ).all<{ name: string; sql: string }>();
  const noRowid = new Set(
    names.results.filter((r) => /WITHOUT\s+ROWID/i.test(r.sql ?? '')).map((r) => r.name),
  );
  const wanted = names.results.map((r) => r.name).filter((n) => !EXCLUDED_TABLES.has(n));
  if (!wanted.length) return [];
  const statements = wanted.flatMap((name) => [
    env.DB.prepare(`PRAGMA table_info(${q(name)})`),
    env.DB.prepare(`PRAGMA foreign_key_list(${q(name)})`),
  ]);
  const results = await env.DB.batch<Record<string, unknown>>(statements);
  const tables = wanted.map((name, i): TableInfo => {
    const info = results[i * 2].results;
    const fks = results[i * 2 + 1].results;
    return {
      name,
      reference: REFERENCE_TABLES.has(name),
      withoutRowid: noRowid.has(name),
      columns: info.map((c) => ({
        name: String(c.name),
        notNull: Number(c.notnull) === 1,
        hasDefault: c.dflt_value !== null && c.dflt_value !== undefined,
        pk: Number(c.pk),
      })),
      deps: [...new Set(fks.map((f) => String(f.table)))].filter((t) => t !== name),
    };
  });
  // Parents first; a foreign key to a table outside the data (users) is no dependency here.
  const byName = new Map(tables.map((t) => [t.name, t]));
  const sorted: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: TableInfo) => {
    if (state.get(t.name)) return;
    state.set(t.name, 'visiting');
    for (const dep of t.deps) {
      const parent = byName.get(dep);
      if (parent) visit(parent);
    }
    state.set(t.name, 'done');
    sorted.push(t);
  };
  for (const t of tables) visit(t);
  return sorted;
}

// ---- R2 writer ----------------------------------------------------------------------------

/** R2 wants every multipart part but the last of one size (at least 5 MiB). */
const UPLOAD_PART = 5 * 1024 * 1024;

/** A ZIP written to R2 as it is produced: fflate's streaming Zip into a multipart upload. */
class R2ZipWriter {
  private zip: Zip;
  private chunks: Uint8Array[] = [];
  private size = 0;
  private upload: R2MultipartUpload | null = null;
  private parts: R2UploadedPart[] = [];
  private error: Error | null = null;

  constructor(
    private bucket: R2Bucket,
    private key: string,
  ) {
    this.zip = new Zip((err, data) => {
      if (err) this.error = err;
      else if (data.length) {
        this.chunks.push(data);
        this.size += data.length;
      }
    });
  }

  async add(name: string, data: string | Uint8Array): Promise<void> {
    const file = new ZipDeflate(name, { level: 6 });
    this.zip.add(file);
    file.push(typeof data === 'string' ? strToU8(data) : data, true);
    if (this.error) throw this.error;
    while (this.size >= UPLOAD_PART) await this.sendPart(this.take(UPLOAD_PART));
  }

  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const head = this.chunks[0];
      const need = n - filled;
      if (head.length <= need) {
        out.set(head, filled);
        filled += head.length;
        this.chunks.shift();
      } else {
        out.set(head.subarray(0, need), filled);
        this.chunks[0] = head.subarray(need);
        filled += need;
      }
    }
    this.size -= n;
    return out;
  }

  private async sendPart(bytes: Uint8Array) {
    this.upload ??= await this.bucket.createMultipartUpload(this.key, {
      httpMetadata: { contentType: 'application/zip' },
    });
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, bytes));
  }

  async close(): Promise<void> {
    this.zip.end();
    if (this.error) throw this.error;
    const rest = this.take(this.size);
    if (!this.upload) {
      await this.bucket.put(this.key, rest, { httpMetadata: { contentType: 'application/zip' } });
      return;
    }
    if (rest.length) await this.sendPart(rest);
    await this.upload.complete(this.parts);
  }

  async abort(): Promise<void> {
    await this.upload?.abort().catch(() => undefined);
  }
}

// ---- export ---------------------------------------------------------------------------------

type ManifestTable = { name: string; columns: string[]; rows: number; parts: string[] };
type Manifest = { format: string; version: number; exportedAt: string; tables: ManifestTable[] };

function cellValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  // No table holds blobs; anything else is kept as text rather than lost.
  return String(value);
}

/** Writes the installation to R2; answers the object key and a download file name. */
export async function exportInstall(env: Env): Promise<{ key: string; name: string; rows: number }> {
  const day = new Date().toISOString().slice(0, 10);
  const key = `exports/install/${Date.now()}-${randomToken(9)}.zip`;
  const writer = new R2ZipWriter(env.BUCKET, key);
  const manifest: Manifest = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    tables: [],
  };
  let total = 0;
  try {
    for (const table of await dataTables(env)) {
      const columns = table.columns.map((c) => c.name);
      // Keyset pages: by rowid, or by the primary key for WITHOUT ROWID tables.
      const keys = table.withoutRowid
        ? table.columns
            .filter((c) => c.pk > 0)
            .sort((a, b) => a.pk - b.pk)
            .map((c) => q(c.name))
        : ['rowid'];
      const keyList = keys.join(', ');
      const firstPage = `SELECT ${keyList}, ${columns.map(q).join(', ')} FROM ${q(table.name)} ORDER BY ${keyList} LIMIT ${PAGE_ROWS}`;
      const nextPage = `SELECT ${keyList}, ${columns.map(q).join(', ')} FROM ${q(table.name)}
        WHERE (${keyList}) > (${keys.map((_, i) => `?${i + 1}`).join(', ')}) ORDER BY ${keyList} LIMIT ${PAGE_ROWS}`;
      const entry: ManifestTable = { name: table.name, columns, rows: 0, parts: [] };
      let lines: string[] = [];
      let bytes = 0;
      const flush = async () => {
        if (!lines.length) return;
        const name = `tables/${table.name}/${String(entry.parts.length + 1).padStart(5, '0')}.ndjson`;
        await writer.add(name, lines.join(''));
        entry.parts.push(name);
        lines = [];
        bytes = 0;
      };
      let after: unknown[] | null = null;
      for (;;) {
        const page: unknown[][] = after
          ? await env.DB.prepare(nextPage)
              .bind(...after)
              .raw<unknown[]>()
          : await env.DB.prepare(firstPage).raw<unknown[]>();
        for (const row of page) {
          const line = `${JSON.stringify(row.slice(keys.length).map(cellValue))}\n`;
          lines.push(line);
          bytes += line.length;
          entry.rows += 1;
          if (bytes >= PART_BYTES) await flush();
        }
        if (page.length < PAGE_ROWS) break;
        after = page[page.length - 1].slice(0, keys.length);
      }
      await flush();
      total += entry.rows;
      manifest.tables.push(entry);
    }

    const settingRows = await env.DB.prepare('SELECT key, value FROM settings ORDER BY key').all<{
      key: string;
      value: string;
    }>();
    const settings: Record<string, string> = {};
    for (const { key: k, value } of settingRows.results) {
      if (!MACHINE_SETTINGS.has(k) && !isSecretValue(value)) settings[k] = value;
    }
    await writer.add('settings.json', JSON.stringify(settings, null, 1));
    for (const fileKey of [settings.logo, settings.favicon]) {
      if (!fileKey?.startsWith('public/branding/')) continue;
      const object = await env.BUCKET.get(fileKey);
      if (object) await writer.add(`files/${fileKey}`, new Uint8Array(await object.arrayBuffer()));
    }
    const owners = await env.DB.prepare('SELECT id, username FROM users ORDER BY id').all<{
      id: number;
      username: string;
    }>();
    await writer.add('owners.json', JSON.stringify(owners.results));
    await writer.add('manifest.json', JSON.stringify(manifest, null, 1));
    await writer.close();
  } catch (err) {
    await writer.abort();
    throw err;
  }
  return { key, name: `install-export-${day}.zip`, rows: total };
}

// ---- clean ----------------------------------------------------------------------------------

/** Deletes campaigns, their items and tokens, statistics and costs; users and settings stay. */
export async function cleanRecords(env: Env): Promise<void> {
  const tables = (await dataTables(env)).filter((t) => !t.reference).reverse();
  await env.DB.batch([
    ...TRANSIENT_TABLES.map((t) => env.DB.prepare(`DELETE FROM ${q(t)}`)),
    ...tables.map((t) => env.DB.prepare(`DELETE FROM ${q(t.name)}`)),
  ]);
  invalidateCompiledCampaign();
}

// ---- import ---------------------------------------------------------------------------------

const ENTRY_NAME =
  /^(manifest\.json|settings\.json|owners\.json|tables\/[a-z0-9_]{1,64}\/\d{5}\.ndjson|files\/public\/branding\/[A-Za-z0-9_-]{1,80}\.(png|jpg|ico))$/;

const bad = (message: string) => fieldError('file', message);

function readEntry(bytes: Uint8Array, name: string): Uint8Array {
  try {
    return inflateEntry(bytes, name, MAX_ENTRY_BYTES);
  } catch (err) {
    if (err instanceof ZipEntryError && err.problem === 'missing') throw bad(M.importNotAnExport);
    throw bad(zipEntryMessage(err, M.importFileCorrupt));
  }
}

function readJson(bytes: Uint8Array, name: string): unknown {
  try {
    return JSON.parse(strFromU8(readEntry(bytes, name)));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw bad(M.importNotAnExport);
  }
}

function parseManifest(value: unknown): Manifest {
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

type Plan = {
  table: TableInfo;
  columns: string[];
  parts: string[];
  rows: number;
  userColumns: number[];
};

function isCell(v: unknown): boolean {
  return v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** The rows of one part, each checked against the table's columns. */
function partRows(bytes: Uint8Array, name: string, width: number): unknown[][] {
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

function checkSettings(value: unknown): Record<string, string> {
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

function checkOwners(value: unknown): Map<number, string> {
  if (!Array.isArray(value)) throw bad(M.importNotAnExport);
  const owners = new Map<number, string>();
  for (const o of value) {
    if (!o || !Number.isInteger(o.id) || typeof o.username !== 'string') throw bad(M.importBadRows);
    owners.set(o.id, o.username);
  }
  return owners;
}

/** Checks an uploaded export and replaces this installation's data with it. */
export async function importInstall(
  env: Env,
  importer: AuthUser,
  file: unknown,
  { batchBytes = BATCH_BYTES }: { batchBytes?: number } = {},
) {
  if (!(file instanceof File) || file.size === 0) throw bad(M.importFileRequired);
  if (!/\.zip$/i.test(file.name)) throw bad(M.importFileInvalid);
  if (file.size > IMPORT_MAX_BYTES) throw bad(M.importFileTooLarge);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!(bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04)) {
    throw bad(M.importFileInvalid);
  }

  // The central directory, before anything is unpacked: names, count and sizes.
  const entries: UnzipFileInfo[] = [];
  try {
    unzipSync(bytes, {
      filter: (info) => {
        entries.push(info);
        return false;
      },
    });
  } catch {
    throw bad(M.importFileCorrupt);
  }
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

  const manifest = parseManifest(readJson(bytes, 'manifest.json'));
  const settings = checkSettings(readJson(bytes, 'settings.json'));
  const owners = checkOwners(readJson(bytes, 'owners.json'));

  // Every table of the file must exist here with its columns; every part must be listed.
  const local = await dataTables(env);
  const localByName = new Map(local.map((t) => [t.name, t]));
  const listed = new Set<string>();
  const plans = new Map<string, Plan>();
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

  // First pass: every row parsed and checked (width, cell types, primary keys, row counts)
  // before anything is written.
  for (const plan of plans.values()) {
    const pkIndexes = plan.table.columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => plan.columns.indexOf(c.name));
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

  // Branding files: only images whose bytes match their extension, only those settings name.
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

  // Owners: the same username here, else the admin who imports.
  const localUsers = await env.DB.prepare('SELECT id, lower(username) AS name FROM users').all<{
    id: number;
    name: string;
  }>();
  const idByName = new Map(localUsers.results.map((u) => [u.name, u.id]));
  const ownerOf = (id: unknown) => {
    if (id === null) return null;
    const name = owners.get(Number(id));
    return (name !== undefined ? idByName.get(name.toLowerCase()) : undefined) ?? importer.id;
  };

  for (const f of files) await env.BUCKET.put(f.key, f.bytes, { httpMetadata: { contentType: f.type } });

  // Second pass: the statements. Emptying first, then parents before children.
  const statements: { stmt: D1PreparedStatement; bytes: number }[] = [];
  const emptied = local.filter((t) => !t.reference).reverse();
  for (const t of TRANSIENT_TABLES)
    statements.push({ stmt: env.DB.prepare(`DELETE FROM ${q(t)}`), bytes: 0 });
  for (const t of emptied) statements.push({ stmt: env.DB.prepare(`DELETE FROM ${q(t.name)}`), bytes: 0 });

  const keep = Object.keys(settings);
  statements.push({
    stmt: env.DB.prepare(
      `DELETE FROM settings WHERE key NOT IN (SELECT value FROM json_each(?1))
         AND key NOT IN (SELECT value FROM json_each(?2)) AND value NOT LIKE 'enc:%'`,
    ).bind(JSON.stringify(keep), JSON.stringify([...MACHINE_SETTINGS])),
    bytes: 0,
  });
  const settingsJson = JSON.stringify(Object.entries(settings));
  statements.push({
    stmt: env.DB.prepare(
      `INSERT INTO settings (key, value) SELECT value ->> 0, value ->> 1 FROM json_each(?1) WHERE true
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = unixepoch() * 1000`,
    ).bind(settingsJson),
    bytes: settingsJson.length,
  });

  for (const table of local) {
    const plan = plans.get(table.name);
    if (!plan) continue;
    const cols = plan.columns.map(q).join(', ');
    const values = plan.columns.map((_, i) => `value ->> ${i}`).join(', ');
    const verb = table.reference ? 'INSERT OR REPLACE' : 'INSERT';
    const sql = `${verb} INTO ${q(table.name)} (${cols}) SELECT ${values} FROM json_each(?1)`;
    let chunk: string[] = [];
    let size = 0;
    const push = () => {
      if (!chunk.length) return;
      const json = `[${chunk.join(',')}]`;
      statements.push({ stmt: env.DB.prepare(sql).bind(json), bytes: json.length });
      chunk = [];
      size = 0;
    };
    for (const part of plan.parts) {
      for (const row of partRows(bytes, part, plan.columns.length)) {
        for (const i of plan.userColumns) row[i] = ownerOf(row[i]);
        const text = JSON.stringify(row);
        chunk.push(text);
        size += text.length;
        if (size >= CHUNK_BYTES) push();
      }
    }
    push();
  }

  // One transaction when it fits (almost every installation); otherwise in order, after the
  // whole file was checked above (docs/decisions/020-settings-and-install-transfer.md).
  let batch: D1PreparedStatement[] = [];
  let pending = 0;
  const run = async () => {
    if (!batch.length) return;
    await env.DB.batch(batch);
    batch = [];
    pending = 0;
  };
  try {
    for (const s of statements) {
      if (batch.length && pending + s.bytes > batchBytes) await run();
      batch.push(s.stmt);
      pending += s.bytes;
    }
    await run();
  } catch (err) {
    console.error('install import failed', err);
    throw bad(M.importBadRows);
  } finally {
    invalidateSettings();
    invalidateCompiledCampaign();
  }
  return {
    tables: manifest.tables.map((t) => ({ name: t.name, rows: t.rows })),
    rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
  };
}
