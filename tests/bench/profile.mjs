// CPU profiles of a Worker under load (BENCH_PROFILE=1, docs/performance.md "Where a click's CPU
// goes"). workerd's inspector (Miniflare's `inspectorPort`) lists one target per isolate: the
// Worker under test, and Miniflare's own Workers that stand in for the platform locally (the
// entry proxy, the D1 and queue simulators). Each one's V8 sampling profiler runs during a
// round; self time is summed per isolate, per source file of the bundle and per stage of the
// click. The bundle's `// path/to/file.ts` markers (esbuild) map a sample's line to its file.
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';

/** Samples every 200 us: fine enough for a ~100 us click, light enough not to drown it. */
const SAMPLING_US = 200;

/** One inspector connection: `send` answers the reply of a CDP call. */
function connect(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    let next = 1;
    const waiting = new Map();
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      const pending = waiting.get(message.id);
      if (!pending) return;
      waiting.delete(message.id);
      if (message.error) pending.reject(new Error(`${url}: ${message.error.message}`));
      else pending.resolve(message.result);
    });
    socket.on('error', reject);
    socket.on('open', () =>
      resolve({
        send(method, params = {}) {
          const id = next++;
          socket.send(JSON.stringify({ id, method, params }));
          return new Promise((ok, fail) => waiting.set(id, { resolve: ok, reject: fail }));
        },
        close: () => socket.close(),
      }),
    );
  });
}

/** Starts the sampling profiler of every isolate behind the inspector port; `stop` answers the profiles. */
export async function startProfiles(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const sessions = [];
  for (const target of targets) {
    // A target id with '#' (a service binding to a Node function, ASSETS here) cannot be
    // reached through its URL; it runs no code of the Worker's, so it is left out.
    if (target.id.includes('#')) continue;
    const session = await connect(target.webSocketDebuggerUrl);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await session.send('Profiler.start');
    sessions.push({ id: target.id, session });
  }
  return {
    async stop() {
      const profiles = [];
      for (const { id, session } of sessions) {
        const { profile } = await session.send('Profiler.stop');
        session.close();
        profiles.push({ id, profile });
      }
      return profiles;
    },
  };
}

/**
 * The bundle's module markers: for a frame of the bundle (its URL ends with the bundle's file
 * name) the source file its line came from; null for any other script (runtime, Miniflare's).
 */
export function bundleFiles(bundlePath) {
  const name = bundlePath.split('/').pop();
  const markers = [];
  readFileSync(bundlePath, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const m = /^\/\/ ((?:worker|schema|node_modules)\/\S+)$/.exec(line);
      if (m) markers.push([i, m[1].replace(/^node_modules\/(\.pnpm\/)?/, 'node_modules/')]);
    });
  return (url, line) => {
    if (!url.endsWith(name)) return null;
    let lo = 0;
    let hi = markers.length - 1;
    let found = '(bundle preamble)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (markers[mid][0] <= line) {
        found = markers[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** The stage of the click a source file (or V8 pseudo-frame) belongs to. */
function stageOf(file, fn) {
  if (fn === '(garbage collector)') return 'garbage collection';
  if (fn === '(program)') return 'V8 and workerd native (program)';
  if (file.startsWith('node_modules/hono') || file.startsWith('node_modules/drizzle')) return 'API framework';
  const rules = [
    [/tracking\/request-url/, 'URL parsing'],
    [/hot-path\/(routing|compiled-campaigns|swr-cache)/, 'campaign lookup and routing'],
    [/settings\/settings/, 'settings lookup'],
    [/hot-path\/(click-ids|hmac)/, 'click id minting and signing'],
    [/tracking\/device/, 'user agent and bot checks'],
    [/tracking\/batcher|hot-path\/ingest-delivery/, 'event batcher and queue send'],
    [/tracking\/(pages|cookies)/, 'the response (redirect, cookie)'],
    [/tracking\/(handler|durable)|worker\/index/, 'handler (parameters, tokens, event)'],
    [/schema\/tracking/, 'handler (parameters, tokens, event)'],
    [/services\/ingest|jobs\//, 'ingest consumer (D1 statements)'],
  ];
  for (const [pattern, stage] of rules) if (pattern.test(file)) return stage;
  return file === '(native)' ? 'workerd built-ins (URL, Headers, crypto...)' : `other: ${file}`;
}

/**
 * Self time per isolate and, in the Worker under test (`workerId`), per stage and per function,
 * in microseconds. Idle samples are left out.
 */
export function summarizeProfiles(profiles, { workerId, fileOf }) {
  const isolates = new Map();
  const stages = new Map();
  const functions = new Map();
  /** The busiest functions of the other isolates (Miniflare's stand-ins for the platform). */
  const others = new Map();
  for (const { id, profile } of profiles) {
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    let busy = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      const node = nodes.get(profile.samples[i]);
      // A gap longer than two intervals is time the sampler did not run (the thread or the
      // sampler waited for a core): only the interval itself is counted for that sample.
      const dt = Math.min(profile.timeDeltas[i + 1] ?? 0, 2 * SAMPLING_US);
      const fn = node.callFrame.functionName;
      if (fn === '(idle)') continue;
      busy += dt;
      if (id !== workerId) {
        const key = `${id}: ${fn || '(anonymous)'}  ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber + 1}`;
        others.set(key, (others.get(key) ?? 0) + dt);
        continue;
      }
      const url = node.callFrame.url;
      const file = fileOf(url, node.callFrame.lineNumber) ?? '(native)';
      const stage = stageOf(file, fn);
      stages.set(stage, (stages.get(stage) ?? 0) + dt);
      const where = file === '(native)' ? url || '(native)' : `${file}:${node.callFrame.lineNumber + 1}`;
      const key = `${fn || '(anonymous)'}  ${where}`;
      functions.set(key, (functions.get(key) ?? 0) + dt);
    }
    isolates.set(id, busy);
  }
  return { isolates, stages, functions, others };
}

/** What each of workerd's isolates is, locally; in production only the Worker's own code runs in it. */
const ISOLATES = [
  [/^core:user:/, "the Worker's own code"],
  [/^core:entry/, "Miniflare's entry proxy (every request; not in production)"],
  [/^d1:/, "local D1: SQLite and its wrapper (the ingest consumer's statements)"],
  [/^queues:/, "local queue broker (sends and the consumer's batches)"],
  [/^cache:/, 'local Cache API'],
  [/^r2:/, 'local R2'],
];
const isolateName = (id) => {
  const known = ISOLATES.find(([pattern]) => pattern.test(id));
  return known ? `${known[1]}  [${id}]` : id;
};

/** Prints a summary as microseconds per request. */
export function printProfile(title, summary, requests, log, { top = 12 } = {}) {
  const per = (us) => (us / requests).toFixed(1).padStart(7);
  const sorted = (map) => [...map].filter(([, us]) => us / requests >= 0.05).sort((a, b) => b[1] - a[1]);
  log(`${title}: sampled CPU per request (us), ${requests.toLocaleString('en-US')} requests`);
  log('  by isolate:');
  for (const [id, us] of sorted(summary.isolates)) log(`  ${per(us)}  ${isolateName(id)}`);
  if (summary.stages.size) {
    log('  the Worker under test, by stage:');
    for (const [stage, us] of sorted(summary.stages)) log(`  ${per(us)}  ${stage}`);
    log(`  the Worker under test, top ${top} functions:`);
    for (const [fn, us] of sorted(summary.functions).slice(0, top)) log(`  ${per(us)}  ${fn}`);
  }
  log(`  the other isolates, top ${top} functions:`);
  for (const [fn, us] of sorted(summary.others).slice(0, top)) log(`  ${per(us)}  ${fn}`);
}
