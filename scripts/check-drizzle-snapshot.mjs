#!/usr/bin/env node
// The drizzle snapshot (migrations/meta) must describe schema/ as it is: otherwise the next
// `npm run db:generate` writes a migration nobody asked for (the migrations themselves are
// hand-written SQL; tests/integration/schema-drift.test.ts compares them with schema/).
// Runs drizzle-kit generate into a throwaway copy of migrations/meta and fails if it would write one.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// drizzle-kit reads --out as relative to the working directory, so the copy lives in the tree.
mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
const out = mkdtempSync(join(root, 'node_modules', '.cache', 'drizzle-check-'));
try {
  cpSync(join(root, 'migrations', 'meta'), join(out, 'meta'), { recursive: true });
  const bin = join(root, 'node_modules', '.bin', 'drizzle-kit');
  const run = spawnSync(
    bin,
    ['generate', '--dialect', 'sqlite', '--schema', './schema/tables.ts', '--out', relative(root, out)],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  const written = readdirSync(out).filter((f) => f.endsWith('.sql'));
  // drizzle-kit answers 0 even when it failed: only its own words say that nothing changed.
  if (run.status !== 0 || (!written.length && !run.stdout.includes('No schema changes'))) {
    console.error(run.stdout, run.stderr);
    console.error('check-drizzle-snapshot: drizzle-kit generate failed');
    process.exitCode = 1;
  } else if (written.length) {
    console.error(
      `check-drizzle-snapshot: schema/ differs from the drizzle snapshot in migrations/meta; ` +
        `drizzle-kit would write ${written.join(', ')}. Write the migration, then bring the snapshot ` +
        'up to date (docs/decisions/190-drizzle-snapshot.md).',
    );
    process.exitCode = 1;
  } else {
    console.log('check-drizzle-snapshot: schema/ and the drizzle snapshot agree');
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
