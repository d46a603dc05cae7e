// `npm run lint`: no import circles in worker/, web/src/ or schema/, and the layering of
// docs/architecture.md (docs/decisions/161). Reads every TypeScript file of the three, follows
// the relative imports and re-exports between them (type-only ones too), prints each circle as a
// chain and each import a layer may not make; exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findCircles, importGraph, layerBreaks } from './import-graph.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['worker', 'web/src', 'schema'];

// What each room may import (docs/architecture.md, "Folders and what each may import").
const LAYERS = [
  { from: 'schema/', only: [] },
  { from: 'web/src/', only: ['schema/'] },
  { from: 'worker/lib/', only: ['worker/env.ts', 'schema/'] },
  { from: 'worker/env.ts', only: ['worker/lib/auth-user.ts', 'schema/'] },
  {
    from: 'worker/integrations/',
    never: ['worker/services/', 'worker/tracking/', 'worker/routes/', 'worker/jobs/'],
  },
  {
    from: 'worker/services/',
    never: ['worker/tracking/', 'worker/routes/', 'worker/jobs/', 'worker/app.ts'],
  },
  { from: 'worker/jobs/', never: ['worker/tracking/', 'worker/routes/', 'worker/app.ts'] },
  {
    from: 'worker/tracking/',
    never: ['worker/integrations/', 'worker/routes/', 'worker/jobs/', 'worker/app.ts'],
  },
];

function sourceFiles(folder) {
  const found = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name)) found.push(path);
  }
  return found;
}

const files = new Map();
for (const folder of FOLDERS) {
  for (const path of sourceFiles(folder)) files.set(path, readFileSync(join(ROOT, path), 'utf8'));
}
const graph = importGraph(files);
const circles = findCircles(graph);
const breaks = layerBreaks(graph, LAYERS);
if (circles.length > 0) {
  console.error(`check-circles: ${circles.length} import circle(s):`);
  for (const circle of circles) console.error(`  ${circle.join(' -> ')}`);
}
if (breaks.length > 0) {
  console.error(`check-circles: ${breaks.length} import(s) across the layering:`);
  for (const { file, target, rule } of breaks) {
    const allowed = rule.only
      ? `may import only ${[rule.from, ...rule.only].join(', ')}`
      : `never imports ${rule.never.join(', ')}`;
    console.error(`  ${file} -> ${target} (${rule.from} ${allowed})`);
  }
}
if (circles.length + breaks.length > 0) process.exitCode = 1;
else
  console.log(
    `check-circles: no import circles, layering kept in ${FOLDERS.join(', ')} (${files.size} files)`,
  );
