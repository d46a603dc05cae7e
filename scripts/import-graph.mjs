// The import graph, its circles and its layering (docs/decisions/161), free of I/O so that the
// Workers pool can test it on files held in memory; scripts/check-circles.mjs reads the tree and
// prints what this finds. Counted: every static `import` and `export ... from`, type-only ones included,
// `import x = require()` and the type `import('x').Name` (or `typeof import('x')`). Not counted:
// an `import()` that loads a module when it runs (awaited, or `.then(...)` called on it).

const REGEX_BEFORE = new Set([...'(,=:[!&|?{};+-*%<>~^']);
const REGEX_AFTER_WORDS = new Set(['return', 'typeof', 'case', 'in', 'of', 'new', 'delete', 'void', 'throw']);

/**
 * The source with comments, template literals and regular expressions blanked (newlines kept),
 * string literals kept whole: what is left of the text can only be code and strings. A quoted
 * string ends at its line's end (JSX text such as `Don't` then blanks one line only).
 */
function codeOnly(source) {
  const out = [...source];
  const blank = (from, to) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  const templates = []; // brace depth at which each open `${` of a template literal resumes it
  let depth = 0;
  let last = '';
  let lastWord = '';
  let i = 0;
  const templateBody = (start) => {
    // from just after a backtick or a `}` that closes `${`: to the closing backtick or the next `${`
    let j = start;
    while (j < source.length && source[j] !== '`') {
      if (source[j] === '\\') j++;
      else if (source[j] === '$' && source[j + 1] === '{') {
        blank(start, j);
        templates.push(depth);
        depth++;
        last = '{';
        return j + 2;
      }
      j++;
    }
    blank(start, j);
    last = '`';
    return j + 1;
  };
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      i = j + 1;
      last = c;
    } else if (c === '`') {
      i = templateBody(i + 1);
    } else if (c === '/' && (last === '' || REGEX_BEFORE.has(last) || REGEX_AFTER_WORDS.has(lastWord))) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== '\n' && (inClass || source[j] !== '/')) {
        if (source[j] === '\\') j++;
        else if (source[j] === '[') inClass = true;
        else if (source[j] === ']') inClass = false;
        j++;
      }
      blank(i, j + 1);
      i = j + 1;
      last = '/';
      lastWord = '';
    } else {
      if (c === '{') depth++;
      if (c === '}') {
        depth--;
        if (templates.length > 0 && templates[templates.length - 1] === depth) {
          templates.pop();
          i = templateBody(i + 1);
          continue;
        }
      }
      if (/\s/.test(c)) {
        i++;
        continue;
      }
      if (/[\w$]/.test(c)) {
        let j = i;
        while (j < source.length && /[\w$]/.test(source[j])) j++;
        lastWord = source.slice(i, j);
        last = 'a';
        i = j;
        continue;
      }
      last = c;
      lastWord = '';
      i++;
    }
  }
  return out.join('');
}

// Pieces of the patterns below: blanks within a line; a quoted module name, captured as the
// quote (group n) and the name (group n + 1); an `import('x')` call.
const _ = String.raw`[ \t]*`;
const quoted = (n) => `(['"])([^'"\\n]+)\\${n}`;
const call = (n) => String.raw`import${_}\(${_}${quoted(n)}${_}\)`;
// A statement starts the file or follows `;`, `}` or a line's end. An import clause or an export
// list holds names, braces, commas, `*`, `as` and `type`: never a quote, `;` or `(`.
const START = String.raw`(?:^|[;}\n])${_}`;
const STATEMENT = new RegExp(
  String.raw`${START}(?:import|export)\b(?:[^;'"\x60(]*?\bfrom)?\s*${quoted(1)}`,
  'g',
);
const IMPORT_EQUALS = new RegExp(
  String.raw`${START}(?:export\s+)?import\s+[\w$]+${_}=${_}require${_}\(${_}${quoted(1)}`,
  'g',
);
// In a type, `import('x')` follows `typeof` or is followed by a `.Name` that is not called
// (`import('x').then(` loads the module at run time).
const IMPORT_TYPE = new RegExp(
  String.raw`\btypeof\s+${call(1)}|\b${call(3)}(?=${_}\.${_}[\w$]+${_}(?![\w$( \t]))`,
  'g',
);

/** The module names a file imports or re-exports statically, type-only ones included, in order. */
export function importSpecifiers(source) {
  const code = codeOnly(source);
  const found = [];
  for (const pattern of [STATEMENT, IMPORT_EQUALS, IMPORT_TYPE]) {
    for (const m of code.matchAll(pattern)) found.push({ at: m.index, specifier: m[2] ?? m[4] });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.specifier);
}

const SOURCE = /\.(?:d\.)?[cm]?tsx?$/;
const TRIES = ['', '.ts', '.tsx', '.d.ts', '.mts', '/index.ts', '/index.tsx'];

/** `a/b/../c` as `a/c`; paths use `/` and are relative to the repository. */
function normalize(path) {
  const parts = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/**
 * The file of `files` that a relative specifier of `from` names, as the bundler resolution of the
 * tsconfig finds it (extension left out, a folder's index, `.js` written for a `.ts` file), or
 * null: a package, or a file outside the set (JSON, CSS, a `?raw` text).
 */
export function resolveImport(from, specifier, files) {
  if (!/^\.\.?(?:\/|$)/.test(specifier)) return null;
  if (specifier.includes('?')) return null;
  const base = normalize(`${from.slice(0, from.lastIndexOf('/') + 1)}${specifier}`);
  const stems = [base];
  const js = base.match(/^(.*)\.([cm]?)js(x?)$/);
  if (js) stems.unshift(`${js[1]}.${js[2]}ts${js[3]}`);
  for (const stem of stems) {
    for (const tail of TRIES) {
      const path = stem + tail;
      if (files.has(path) && SOURCE.test(path)) return path;
    }
  }
  return null;
}

/** Each file's imports within the set: Map<file, files it imports>. `files`: Map<path, source>. */
export function importGraph(files) {
  const graph = new Map();
  for (const [file, source] of files) {
    const targets = new Set();
    for (const specifier of importSpecifiers(source)) {
      const target = resolveImport(file, specifier, files);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected groups of the graph (Tarjan), each sorted, the groups in path order. */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let counter = 0;
  const visit = (root) => {
    // iterative, so a long chain of imports cannot overflow the call stack
    const work = [{ node: root, edge: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const next = edges[frame.edge++];
        if (!index.has(next)) {
          index.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          work.push({ node: next, edge: 0 });
        } else if (onStack.has(next)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(next)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group.sort());
      }
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/**
 * Every circle of the graph, each as a chain that starts and ends at its first file in path
 * order (`[a, b, a]`), at most `limit` of them: the simple cycles of each strongly connected group.
 */
export function findCircles(graph, limit = 500) {
  const circles = [];
  for (const group of stronglyConnected(graph)) {
    const members = new Set(group);
    const selfLoop = group.length === 1 && (graph.get(group[0]) ?? []).includes(group[0]);
    if (group.length === 1 && !selfLoop) continue;
    // from each start, the cycles through files after it in the group's order only: each once
    group.forEach((start, rank) => {
      const allowed = new Set(group.slice(rank));
      const path = [start];
      const onPath = new Set(path);
      const walk = (node) => {
        for (const next of graph.get(node) ?? []) {
          if (circles.length >= limit) return;
          if (!members.has(next) || !allowed.has(next)) continue;
          if (next === start) circles.push([...path, start]);
          else if (!onPath.has(next)) {
            path.push(next);
            onPath.add(next);
            walk(next);
            onPath.delete(next);
            path.pop();
          }
        }
      };
      walk(start);
    });
  }
  return circles;
}

/**
 * The imports that break a layering rule: `rules` are `{ from, only }` (a file under `from` may
 * import only files under one of `only`, or under `from` itself) or `{ from, never }` (it may
 * import no file under one of `never`); a path prefix ending in `/` names a folder, another
 * names one file. Answers `{ file, target, rule }` in path order.
 */
export function layerBreaks(graph, rules) {
  const under = (path, prefix) => (prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix);
  const breaks = [];
  for (const [file, targets] of [...graph].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const rule of rules) {
      if (!under(file, rule.from)) continue;
      for (const target of targets) {
        const refused = rule.only
          ? !under(target, rule.from) && !rule.only.some((p) => under(target, p))
          : rule.never.some((p) => under(target, p));
        if (refused) breaks.push({ file, target, rule });
      }
    }
  }
  return breaks;
}
