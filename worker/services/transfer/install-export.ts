import type { Env } from '../../env';
import { randomToken } from '../../lib/crypto';
import { isSecretValue } from '../../lib/secrets';
import {
  dataTables,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  MACHINE_SETTINGS,
  type Manifest,
  type ManifestTable,
  primaryKey,
  q,
} from './install-tables';
import { R2ZipWriter } from './r2-zip-writer';

// GET /api/export-install: the whole installation as one ZIP written to R2 as it is produced
// (the layout is in install-tables.ts).

const PART_BYTES = 4 * 1024 * 1024;
const PAGE_ROWS = 2_000;

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
      const keys = table.withoutRowid ? primaryKey(table).map((c) => q(c.name)) : ['rowid'];
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
