import { env } from 'cloudflare:workers';
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as tables from '../../schema/tables';

// The migrations are hand-written SQL (migrations/*.sql, applied by wrangler and by this test
// pool); the drizzle tables in schema/ are what the worker's queries are typed against. The two
// are kept in step by hand, so this compares them: every drizzle table, column, primary key and
// index exists in the migrated database as declared, and the database has no table drizzle does
// not know. (The drizzle snapshot, migrations/meta, is checked against schema/ by
// `npm run lint`: scripts/check-drizzle-snapshot.mjs.)

type ColumnInfo = { name: string; notnull: number; pk: number };
type IndexInfo = { name: string; unique: number; origin: string; partial: number };

const drizzleTables = (Object.values(tables) as unknown[])
  .filter((t): t is SQLiteTable => is(t, SQLiteTable))
  .map((t) => getTableConfig(t));

async function rows<T>(sql: string): Promise<T[]> {
  return (await env.DB.prepare(sql).all<T>()).results;
}

describe('the migrated database and the drizzle schema', () => {
  it('have the same tables', async () => {
    const inDb = (
      await rows<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
          AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name <> 'd1_migrations' ORDER BY name`,
      )
    ).map((r) => r.name);
    expect(drizzleTables.length).toBeGreaterThan(50);
    expect(inDb).toEqual(drizzleTables.map((t) => t.name).sort());
  });

  for (const table of drizzleTables) {
    it(`${table.name}: columns, not-null, primary key and indexes`, async () => {
      const info = await rows<ColumnInfo>(`PRAGMA table_info("${table.name}")`);
      expect(info.map((c) => c.name).sort()).toEqual(table.columns.map((c) => c.name).sort());

      const compositeKey = table.primaryKeys[0]?.columns.map((c) => c.name) ?? [];
      for (const column of table.columns) {
        const row = info.find((c) => c.name === column.name);
        // A primary key column may be nullable in SQLite's own bookkeeping; drizzle says NOT NULL.
        const keyed = column.primary || compositeKey.includes(column.name);
        expect({ column: column.name, notNull: Boolean(row?.notnull) || keyed }).toEqual({
          column: column.name,
          notNull: column.notNull || keyed,
        });
      }
      const dbKey = info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      const key = compositeKey.length
        ? compositeKey
        : table.columns.filter((c) => c.primary).map((c) => c.name);
      expect(dbKey).toEqual(key);

      const dbIndexes = (await rows<IndexInfo>(`PRAGMA index_list("${table.name}")`)).filter(
        (i) => i.origin === 'c',
      );
      // Declared indexes, and a column's .unique(), which drizzle writes as a unique index.
      const declared = [
        ...table.indexes.map(({ config }) => ({
          name: config.name,
          // An expression such as lower(username) has no column name in SQLite's index_info.
          columns: config.columns.map((c) => (is(c, SQLiteColumn) ? c.name : null)),
          unique: Boolean(config.unique),
          partial: Boolean(config.where),
        })),
        ...table.columns
          .filter((c) => c.isUnique)
          .map((c) => ({ name: c.uniqueName ?? '', columns: [c.name], unique: true, partial: false })),
      ];
      const found = [];
      for (const index of dbIndexes) {
        const columns = (await rows<{ name: string | null }>(`PRAGMA index_info("${index.name}")`)).map(
          (c) => c.name,
        );
        found.push({
          name: index.name,
          columns,
          unique: Boolean(index.unique),
          partial: Boolean(index.partial),
        });
      }
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect(found.sort(byName)).toEqual(declared.sort(byName));
    });
  }
});
