import type { Env } from '../../env';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';

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
  'postback_legacy_uses',
  'refused_conversions',
  'mail_outbox',
  'ingest_marks',
  'stats_jobs',
  // Kept by triggers from target_daily: importing target_daily rebuilds it.
  'target_weekly',
  // Kept by triggers on the campaign tables (docs/decisions/100): importing them rebuilds it.
  'campaign_versions',
  'settings',
  'd1_migrations',
  // The Tools screen's test clicks and conversions: kept out of every export (decision 061).
  'test_clicks',
  'test_conversions',
]);
/** Reference data seeded by migrations: exported and upserted on import, never emptied. */
const REFERENCE_TABLES = new Set(['agents']);
/** Tables emptied with the data (cached results that would describe rows that are gone). */
const TRANSIENT_TABLES = ['stats_jobs'];
/** Columns holding a user id: remapped to this installation's users on import. */
export const USER_COLUMNS = new Set(['created_by', 'updated_by', 'user_id']);
/** Settings that describe this machine rather than the data. */
export const MACHINE_SETTINGS = new Set([
  'setup_done',
  'license_key',
  'license_email',
  'base_url',
  'custom_domain',
  'postback_secret',
  'postback_legacy_until',
]);

type Column = { name: string; notNull: boolean; hasDefault: boolean; pk: number };
export type TableInfo = {
  name: string;
  columns: Column[];
  deps: string[];
  reference: boolean;
  /** WITHOUT ROWID tables (the rollups) are paged by their primary key instead of rowid. */
  withoutRowid: boolean;
};

export type ManifestTable = { name: string; columns: string[]; rows: number; parts: string[] };
export type Manifest = { format: string; version: number; exportedAt: string; tables: ManifestTable[] };

export const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The table's primary key columns in key order (empty for rowid tables without one). */
export const primaryKey = (table: TableInfo) =>
  table.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);

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

/** Statements that empty the data, children before parents; reference tables stay. */
export function emptyingStatements(env: Pick<Env, 'DB'>, tables: TableInfo[]): D1PreparedStatement[] {
  return [
    ...TRANSIENT_TABLES.map((t) => env.DB.prepare(`DELETE FROM ${q(t)}`)),
    ...tables
      .filter((t) => !t.reference)
      .reverse()
      .map((t) => env.DB.prepare(`DELETE FROM ${q(t.name)}`)),
  ];
}

/** Deletes campaigns, their items and tokens, statistics and costs; users and settings stay. */
export async function cleanRecords(env: Env): Promise<void> {
  await env.DB.batch(emptyingStatements(env, await dataTables(env)));
  invalidateCompiledCampaign();
}
