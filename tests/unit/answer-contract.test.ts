/// <reference types="vite/types/importMeta.d.ts" />
import { describe, expect, it } from 'vitest';

// The answer contract (docs/decisions/005-hand-typed-web-client.md): every answer is typed once
// in schema/*-api.ts, the worker's routes answer with `satisfies` against those types, and the
// SPA names them rather than writing an answer's shape again. The typecheck proves a renamed
// field; these checks keep new code on that road.

const routes = import.meta.glob('../../worker/routes/*.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const web = import.meta.glob('../../web/src/**/*.{ts,tsx}', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

/** The argument text of every `c.json(...)` call (parentheses balanced; strings are plain here). */
function jsonCalls(source: string): string[] {
  const calls: string[] = [];
  let from = 0;
  for (;;) {
    const start = source.indexOf('c.json(', from);
    if (start < 0) return calls;
    let depth = 0;
    let i = start + 'c.json'.length;
    for (; i < source.length; i++) {
      if (source[i] === '(') depth++;
      else if (source[i] === ')' && --depth === 0) break;
    }
    calls.push(source.slice(start, i + 1));
    from = i + 1;
  }
}

// Development-only answers the SPA never reads.
const UNTYPED = ['c.json({ data: { result: rows } })'];

describe('the answer contract', () => {
  it('finds the route and web sources', () => {
    expect(Object.keys(routes).length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(web).length).toBeGreaterThan(50);
  });

  it('types every data answer of worker/routes with satisfies', () => {
    const untyped: string[] = [];
    let answers = 0;
    for (const [file, source] of Object.entries(routes)) {
      for (const call of jsonCalls(source)) {
        if (!call.includes('data')) continue; // the error envelopes (errorBody)
        answers++;
        if (!call.includes('satisfies') && !UNTYPED.includes(call))
          untyped.push(`${file}: ${call.slice(0, 80)}`);
      }
    }
    expect(answers).toBeGreaterThan(80);
    expect(untyped).toEqual([]);
  });

  it('never writes an answer shape inline in web/', () => {
    const inline = /\b(?:api\.(?:get|post|put|delete)|useApi|useSWR|uploadWithProgress|FileUpload)<\s*\{/;
    const found = Object.entries(web)
      .filter(([, source]) => inline.test(source))
      .map(([file]) => file);
    expect(found).toEqual([]);
  });
});
