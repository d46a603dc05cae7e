// `npm run lint`: no import circles in worker/, web/src/ or schema/ (docs/decisions/161). Reads
// every TypeScript file of the three, follows the relative imports and re-exports between them
// (type-only ones too) and prints each circle as a chain; exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findCircles, importGraph } from './import-circles.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['worker', 'web/src', 'schema'];

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
const circles = findCircles(importGraph(files));
if (circles.length === 0) {
  console.log(`check-circles: no import circles in ${FOLDERS.join(', ')} (${files.size} files)`);
} else {
  console.error(`check-circles: ${circles.length} import circle(s):`);
  for (const circle of circles) console.error(`  ${circle.join(' -> ')}`);
  process.exitCode = 1;
}
