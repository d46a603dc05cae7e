// The native profile of a Worker's process (BENCH_PERF=1, docs/performance.md "Where a click's
// CPU goes"): Linux `perf` attached to one workerd process for one round. `perf stat` counts the
// instructions and cycles the process retired; instructions hardly move with the machine's load
// or speed, so instructions per request is the figure that several runs in a row reproduce.
// `perf record` samples the call stacks, and each sample is put in one part of the process's work
// (SQLite, garbage collection, JavaScript, the kernel's sockets, workerd's own C++...), which the
// V8 sampling profiler of BENCH_PROFILE cannot see: it names JS frames and calls the rest
// "(program)". perf must be installed (Debian: linux-perf) and allowed to read the process's
// counters; where it is not, the bench says so and goes on without this part.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why `perf` cannot count here, or null when it can. */
export function perfMissing() {
  const probe = spawnSync('perf', ['stat', '-x', ',', '-e', 'instructions', 'true'], { encoding: 'utf8' });
  if (probe.error) return `perf is not installed (${probe.error.code})`;
  const line = probe.stderr.split('\n').find((l) => l.includes('instructions')) ?? '';
  if (!/^\d+,/.test(line))
    return `perf cannot count instructions here: ${line.trim() || probe.stderr.trim()}`;
  return null;
}

/**
 * The part of the process's work one sample belongs to, from its stack (leaf first). The first
 * rule that matches wins, so a JSON parse inside SQLite's answer counts as SQLite.
 */
const PARTS = [
  ['SQLite (local D1: the consumer statements, the settings and campaign reads)', /sqlite3|SqliteDatabase/],
  [
    'V8 garbage collection',
    /Heap::CollectGarbage|Scavenge|MarkCompact|MinorGC|MinorMS|IncrementalMarking|ConcurrentMarking|HeapTracer/,
  ],
  ["the cf object (Miniflare's entry proxy clones it for every request)", /CfProperty/],
  [
    'JSON parse and stringify (queue messages, D1 answers, entry proxy)',
    /JsonParser|JsonStringifier|JSON::Parse|JSON::Stringify/,
  ],
];

function partOf(frames) {
  const text = frames.join('\n');
  for (const [part, pattern] of PARTS) if (pattern.test(text)) return part;
  const leaf = frames[0] ?? '';
  if (leaf.includes('[kernel.kallsyms]')) return 'kernel (sockets, scheduling, memory)';
  if (leaf.includes('[JIT]') || /perf-\d+\.map|\sBuiltins_/.test(leaf))
    return 'JavaScript (JIT code, interpreter, builtins)';
  if (/tcmalloc|TCMalloc|malloc|free\b|memmove|memcpy|memset/.test(leaf))
    return 'memory allocation and copies';
  if (/v8::/.test(leaf)) return 'V8 runtime (handles, objects, API calls)';
  return "workerd's C++ (HTTP, headers, Request and Response objects, promises)";
}

/** A timer or device interrupt's frames on top of a sample: the work below them is what ran. */
const INTERRUPT = /asm_sysvec_|asm_common_interrupt|irqentry_|sysvec_|__irq_exit|do_softirq/;

/**
 * Parses `perf script -F comm,ip,sym,dso` output: one entry per sample (a `workerd` line, then
 * its frames leaf first), an interrupt's frames left out.
 */
function samplesOf(script) {
  return script
    .split(/\n\s*\n/)
    .map((block) => {
      const frames = block
        .split('\n')
        .slice(1)
        .map((l) => l.trim())
        .filter(Boolean);
      const last = frames.findLastIndex((f) => INTERRUPT.test(f));
      return last >= 0 && frames.slice(0, last + 1).every((f) => f.includes('[kernel.kallsyms]'))
        ? frames.slice(last + 1)
        : frames;
    })
    .filter((frames) => frames.length > 0);
}

/** The samples of a `perf record` file, counted per part. */
function partsOf(data) {
  const script = spawnSync('perf', ['script', '-i', data, '-F', 'comm,ip,sym,dso'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const parts = new Map();
  const samples = samplesOf(script.stdout ?? '');
  for (const frames of samples) {
    const part = partOf(frames);
    parts.set(part, (parts.get(part) ?? 0) + 1);
  }
  return { samples: samples.length, parts };
}

const exited = (child) => new Promise((resolve) => child.on('exit', resolve));

/** Starts counting and sampling one process; `stop()` answers its counts and parts. */
export function startNativeProfile(pid) {
  const dir = mkdtempSync(join(tmpdir(), 'edge-tracker-perf-'));
  const data = join(dir, 'perf.data');
  const stat = spawn('perf', ['stat', '-x', ',', '-e', 'instructions,cycles', '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let statText = '';
  stat.stderr.on('data', (chunk) => {
    statText += chunk;
  });
  const record = spawn('perf', ['record', '-q', '-F', '999', '-g', '-p', String(pid), '-o', data], {
    stdio: 'ignore',
  });
  return {
    async stop() {
      const done = Promise.all([exited(stat), exited(record)]);
      stat.kill('SIGINT');
      record.kill('SIGINT');
      await done;
      const counter = (name) => {
        const line = statText.split('\n').find((l) => l.split(',')[2] === name) ?? '';
        return Number(line.split(',')[0]) || 0;
      };
      const { samples, parts } = partsOf(data);
      rmSync(dir, { recursive: true, force: true });
      return { instructions: counter('instructions'), cycles: counter('cycles'), samples, parts };
    },
  };
}

const millions = (n) => `${(n / 1e6).toFixed(2)} M`;

/**
 * Prints the two processes side by side, per request: instructions, cycles, and the cycles of each
 * part (its share of the samples times the process's cycles). Answers the figures for the JSON.
 */
export function printNativeProfile(bare, tracked, requests, log) {
  const per = (p) => ({ instructions: p.instructions / requests, cycles: p.cycles / requests });
  const b = per(bare);
  const t = per(tracked);
  const row = (label, x, y) =>
    log(
      `  ${label.padEnd(72)} ${millions(x).padStart(9)} ${millions(y).padStart(9)}  ${y >= x ? '+' : '-'}${millions(Math.abs(y - x)).padStart(8)}`,
    );
  log(
    `native profile (perf, BENCH_PERF=1): one round of ${requests.toLocaleString('en-US')} requests to each Worker`,
  );
  log(
    `  ${'per request'.padEnd(72)} ${'bare'.padStart(9)} ${'tracked'.padStart(9)}  ${'difference'.padStart(9)}`,
  );
  row('instructions', b.instructions, t.instructions);
  row('cycles', b.cycles, t.cycles);
  log(
    `  instructions tracked/bare ${(t.instructions / b.instructions).toFixed(2)}; samples ${bare.samples} (bare), ${tracked.samples} (tracked)`,
  );
  log('  cycles per request by part of the process:');
  const share = (p, part) => (p.samples ? ((p.parts.get(part) ?? 0) / p.samples) * (p.cycles / requests) : 0);
  const parts = [...new Set([...bare.parts.keys(), ...tracked.parts.keys()])].sort(
    (x, y) => share(tracked, y) - share(bare, y) - (share(tracked, x) - share(bare, x)),
  );
  const result = {};
  for (const part of parts) {
    row(part, share(bare, part), share(tracked, part));
    result[part] = { bare: share(bare, part), tracked: share(tracked, part) };
  }
  return { bare: b, tracked: t, parts: result };
}
