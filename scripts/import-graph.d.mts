// Types of scripts/import-graph.mjs, for tests/unit/check-circles.test.ts.

/** The module names a file imports or re-exports statically, type-only ones included, in order. */
export function importSpecifiers(source: string): string[];
/** The file of `files` a relative specifier of `from` names, or null. */
export function resolveImport(from: string, specifier: string, files: Map<string, string>): string | null;
/** Each file's imports within the set. `files`: path → source. */
export function importGraph(files: Map<string, string>): Map<string, string[]>;
/** Every circle of the graph, each as a chain from its first file back to it. */
export function findCircles(graph: Map<string, string[]>, limit?: number): string[][];

export type LayerRule =
  | { from: string; only: string[]; never?: undefined }
  | { from: string; never: string[]; only?: undefined };
/** The imports that break a layering rule, in path order. */
export function layerBreaks(
  graph: Map<string, string[]>,
  rules: LayerRule[],
): { file: string; target: string; rule: LayerRule }[];
