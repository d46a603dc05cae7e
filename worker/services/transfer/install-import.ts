import { IMPORT_MAX_BYTES, SETTINGS_MESSAGES as M } from '../../../schema/settings-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import { invalidateSettings } from '../settings/settings';
import {
  archiveEntryNames,
  bad,
  brandingFiles,
  checkOwners,
  checkSettings,
  parseManifest,
  partRows,
  readJson,
  tablePlans,
} from './install-checks';
import { dataTables, emptyingStatements, MACHINE_SETTINGS, q } from './install-tables';

// POST /api/import-install: replaces this installation's data with an export's, after the whole
// file was checked (install-checks.ts).

/** One json_each parameter stays well under D1's 2 MB value limit. */
const CHUNK_BYTES = 512 * 1024;
/** Up to this much row data goes in one D1 batch (one transaction). */
const BATCH_BYTES = 24 * 1024 * 1024;

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
  const names = archiveEntryNames(bytes);

  const manifest = parseManifest(readJson(bytes, 'manifest.json'));
  const settings = checkSettings(readJson(bytes, 'settings.json'));
  const owners = checkOwners(readJson(bytes, 'owners.json'));
  const local = await dataTables(env);
  const plans = tablePlans(bytes, names, manifest, local);
  const files = brandingFiles(bytes, names, settings);

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
  for (const stmt of emptyingStatements(env, local)) statements.push({ stmt, bytes: 0 });

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
