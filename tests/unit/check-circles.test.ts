import { describe, expect, it } from 'vitest';
import {
  findCircles,
  importGraph,
  importSpecifiers,
  layerBreaks,
  resolveImport,
} from '../../scripts/import-graph.mjs';

// The import-circle check of `npm run lint` (scripts/check-circles.mjs, docs/decisions/161), on
// small trees held in memory: what counts as an import, the circles and the layering breaks it reports.

const tree = (files: Record<string, string>) => new Map(Object.entries(files));
const circlesOf = (files: Record<string, string>) => findCircles(importGraph(tree(files)));

describe('what counts as an import', () => {
  it('reads static imports and re-exports, type-only ones too, and leaves out comments, strings and run-time import()', () => {
    const source = [
      "// import gone from './in-a-line-comment';",
      "/* export * from './in-a-block-comment'; */",
      "import type { A } from './a';",
      'import {',
      '  b,',
      '  type C,',
      '} from "./b";',
      "import './side-effect';",
      "export * from './star';",
      "export * as ns from './namespace';",
      "export { d } from './d';",
      "export type { E } from './e';",
      "const text = 'import z from \\'./in-a-string\\'';",
      'const template = `',
      "import y from './in-a-template';",
      `\${flag ? \`import q from './in-a-nested-template'\` : ''}\`;`,
      'const quotes = /[\'"]/g;',
      "const lazy = () => import('./loaded-when-called');",
      "const later = import('./loaded-at-run-time').then((m) => m);",
      "type T = import('./type-reference').Foo;",
      "type U = typeof import('./type-query');",
      "import fs = require('./required');",
      "export const from = 'not-a-module';",
      "export default 'not-a-module-either';",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual([
      './a',
      './b',
      './side-effect',
      './star',
      './namespace',
      './d',
      './e',
      './type-reference',
      './type-query',
      './required',
    ]);
  });

  it('resolves as the bundler resolution does: no extension, .tsx, a folder index, .js for .ts; not packages or ?raw', () => {
    const files = tree({
      'web/src/a.ts': '',
      'web/src/view.tsx': '',
      'web/src/lib/index.ts': '',
      'schema/money.ts': '',
      'schema/data.json': '',
    });
    expect(resolveImport('web/src/a.ts', './view', files)).toBe('web/src/view.tsx');
    expect(resolveImport('web/src/a.ts', './lib', files)).toBe('web/src/lib/index.ts');
    expect(resolveImport('web/src/view.tsx', '../../schema/money.js', files)).toBe('schema/money.ts');
    expect(resolveImport('web/src/view.tsx', '../../schema/money', files)).toBe('schema/money.ts');
    expect(resolveImport('web/src/a.ts', 'hono', files)).toBeNull();
    expect(resolveImport('web/src/a.ts', './view?raw', files)).toBeNull();
    expect(resolveImport('web/src/a.ts', '../../schema/data.json', files)).toBeNull();
    expect(resolveImport('web/src/a.ts', './missing', files)).toBeNull();
  });
});

describe('the circles it reports', () => {
  // worker/env.ts, lib/auth.ts and lib/db.ts as they were before decision 161: env.ts named the
  // user's type with import('./lib/auth'), and lib/auth.ts and lib/db.ts import env.ts's types.
  const before = {
    'worker/env.ts': "export type AppEnv = { Variables: { user: import('./lib/auth').AuthUser } };",
    'worker/lib/auth.ts': [
      "import type { AppEnv, Env } from '../env';",
      "import { getDb } from './db';",
      'export type AuthUser = { id: number };',
    ].join('\n'),
    'worker/lib/db.ts': "import type { Env } from '../env';\nexport const getDb = (env: Env) => env;",
    'worker/app.ts': "import type { AppEnv } from './env';\nimport { getDb } from './lib/db';",
  };

  it('finds every circle of a small tree, each as a chain back to its first file', () => {
    expect(circlesOf(before)).toEqual([
      ['worker/env.ts', 'worker/lib/auth.ts', 'worker/env.ts'],
      ['worker/env.ts', 'worker/lib/auth.ts', 'worker/lib/db.ts', 'worker/env.ts'],
    ]);
  });

  it('passes the same tree once the shared type has its own module', () => {
    const after = {
      ...before,
      'worker/lib/auth-user.ts': 'export type AuthUser = { id: number };',
      'worker/env.ts': [
        "import type { AuthUser } from './lib/auth-user';",
        'export type AppEnv = { Variables: { user: AuthUser } };',
      ].join('\n'),
      'worker/lib/auth.ts': [
        "import type { AppEnv, Env } from '../env';",
        "import type { AuthUser } from './auth-user';",
        "import { getDb } from './db';",
        'export type { AuthUser };',
      ].join('\n'),
    };
    expect(circlesOf(after)).toEqual([]);
    expect(importGraph(tree(after)).get('worker/lib/auth.ts')).toEqual([
      'worker/env.ts',
      'worker/lib/auth-user.ts',
      'worker/lib/db.ts',
    ]);
  });

  it('counts a type-only loop, a re-export loop through a folder index and a file importing itself', () => {
    expect(
      circlesOf({
        'web/src/tab.tsx': "import type { TokensProps } from './tokens-card';\nexport type TabProps = {};",
        'web/src/tokens-card.tsx': "import type { TabProps } from './tab';\nexport type TokensProps = {};",
        'worker/services/cpc/index.ts': "export * from './assets';",
        'worker/services/cpc/assets.ts': "import { row } from '.';",
        'worker/self.ts': "export { x } from './self';",
      }),
    ).toEqual([
      ['web/src/tab.tsx', 'web/src/tokens-card.tsx', 'web/src/tab.tsx'],
      ['worker/self.ts', 'worker/self.ts'],
      ['worker/services/cpc/assets.ts', 'worker/services/cpc/index.ts', 'worker/services/cpc/assets.ts'],
    ]);
  });

  it('does not count a module loaded by import() when the code runs', () => {
    expect(
      circlesOf({
        'worker/a.ts': "import { b } from './b';\nexport const a = 1;",
        'worker/b.ts': "export const b = async () => (await import('./a')).a;",
      }),
    ).toEqual([]);
  });
});

describe('the layering it holds', () => {
  const rules = [
    { from: 'worker/lib/', only: ['worker/env.ts', 'schema/'] },
    { from: 'worker/services/', never: ['worker/tracking/', 'worker/jobs/'] },
  ];

  it('reports each import a layer may not make, and passes the ones it may', () => {
    const graph = importGraph(
      tree({
        'schema/money.ts': '',
        'worker/env.ts': '',
        'worker/lib/db.ts':
          "import type { Env } from '../env';\nimport { toMicros } from '../../schema/money';",
        'worker/lib/auth.ts':
          "import { getDb } from './db';\nimport { cached } from '../services/hot-path/cache';",
        'worker/services/hot-path/cache.ts': "import type { RequestUrl } from '../../tracking/url';",
        'worker/services/settings/read.ts': "import { cached } from '../hot-path/cache';",
        'worker/tracking/url.ts': "import { cached } from '../services/hot-path/cache';",
      }),
    );
    expect(layerBreaks(graph, rules).map(({ file, target, rule }) => [file, target, rule.from])).toEqual([
      ['worker/lib/auth.ts', 'worker/services/hot-path/cache.ts', 'worker/lib/'],
      ['worker/services/hot-path/cache.ts', 'worker/tracking/url.ts', 'worker/services/'],
    ]);
  });
});
