import { describe, expect, it } from 'vitest';
import { CONSUMERS } from '../../worker/jobs/queue';
import { CRON_JOBS } from '../../worker/jobs/scheduled';
import wrangler from '../../wrangler.toml?raw';

// Queue consumers and cron jobs are listed in one table each (no registration by import side
// effect): the tables must cover exactly what wrangler.toml deploys.

const consumerQueues = [...wrangler.matchAll(/\[\[queues\.consumers\]\]\s*\nqueue = "([^"]+)"/g)].map(
  (m) => m[1],
);

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
