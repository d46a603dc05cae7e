import { describe, expect, it } from 'vitest';
import { consumeIngest } from '../../worker/jobs/ingest';
import { consumeOperator } from '../../worker/jobs/operator';
import { CONSUMERS, consumerFor } from '../../worker/jobs/queue';
import { CRON_JOBS } from '../../worker/jobs/scheduled';
import wrangler from '../../wrangler.toml?raw';

// Queue consumers and cron jobs are listed in one table each (no registration by import side
// effect): the tables must cover exactly what wrangler.toml deploys.

const consumerQueues = [...wrangler.matchAll(/\[\[queues\.consumers\]\]\s*\nqueue = "([^"]+)"/g)].map(
  (m) => m[1],
);

// The configuration check of `npm test` (docs/decisions/127): wrangler.toml, read as text in the
// Workers pool, against the consumers and cron tables. tests/deploy/deploy.mjs reads it with
// wrangler's own reader and deploys it.
const sections = (name: string) =>
  wrangler
    .split(/^(?=\[)/m)
    .filter((s) => s.startsWith(`[[${name}]]`))
    .map((s) => Object.fromEntries([...s.matchAll(/^(\w+) = "([^"]*)"/gm)].map((m) => [m[1], m[2]])));
const producers = sections('queues.producers');
const consumers = sections('queues.consumers');
const crons = JSON.parse(/^crons = (\[.*\])$/m.exec(wrangler)?.[1] ?? '[]') as string[];

describe('wrangler.toml agrees with the job tables', () => {
  it('carries no resource ids: npm run deploy fills them in per installation', () => {
    expect(wrangler).not.toMatch(/^\s*(database_id|preview_database_id|id) =/m);
    expect(wrangler).not.toMatch(/00000000-0000/);
  });

  it('consumes every queue it produces to, and every dead-letter queue it names', () => {
    const consumed = new Set(consumers.map((c) => c.queue));
    expect(producers.map((p) => p.binding).sort()).toEqual([
      'INGEST_QUEUE',
      'OPERATOR_QUEUE',
      'POSTBACK_QUEUE',
      'STATS_QUEUE',
    ]);
    for (const p of producers) expect(consumed.has(p.queue), p.queue).toBe(true);
    const dlqs = consumers.map((c) => c.dead_letter_queue).filter(Boolean);
    expect(dlqs.sort()).toEqual([
      'tracker-ingest-dlq',
      'tracker-operator-dlq',
      'tracker-postbacks-dlq',
      'tracker-stats-dlq',
    ]);
    for (const q of dlqs) expect(consumed.has(q), q).toBe(true);
  });

  it("finds each queue's consumer, also under an installation's name (npm run deploy -- --name)", () => {
    for (const c of consumers) {
      expect(consumerFor(c.queue), c.queue).toBe(CONSUMERS[c.queue.replace(/-dlq$/, '')]);
      expect(consumerFor(`acme-${c.queue}`), `acme-${c.queue}`).toBe(consumerFor(c.queue));
    }
    expect(consumerFor('acme-tracker-ingest-dlq')).toBe(consumeIngest);
    expect(consumerFor('shop-2-tracker-operator')).toBe(consumeOperator);
    expect(consumerFor('tracker-unknown')).toBeUndefined();
    expect(consumerFor('constructor')).toBeUndefined();
  });

  it('runs the cron jobs table on one five-minute trigger', () => {
    expect(crons).toEqual(['*/5 * * * *']);
    expect(CRON_JOBS.length).toBeGreaterThan(0);
  });
});

describe('job tables', () => {
  it('has a consumer for every queue wrangler.toml consumes (dead-letter queues by their queue)', () => {
    expect(consumerQueues.length).toBeGreaterThan(0);
    const needed = new Set(consumerQueues.map((q) => q.replace(/-dlq$/, '')));
    expect(Object.keys(CONSUMERS).sort()).toEqual([...needed].sort());
    expect(Object.keys(CONSUMERS).sort()).toEqual([
      'tracker-ingest',
      'tracker-operator',
      'tracker-postbacks',
      'tracker-stats',
    ]);
  });

  it('lists each cron job once', () => {
    expect(CRON_JOBS.map((j) => j.name)).toEqual([
      'ingest-spool-replay',
      'postback-sweeper',
      'stats-jobs-cleanup',
      'landing-optimizer',
      'landing-test-reporting',
      'wallet-spend',
      'platform-cost-sync',
      'operator-refresh',
      'system-alerts',
      'raw-archive',
    ]);
  });
});
