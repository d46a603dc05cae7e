import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { consume, messageBatch } from '../support/queues';

// Messages that died after every retry end in a dead-letter queue; their consumers make sure
// nothing is left pending forever.

describe('dead-letter consumers', () => {
  it('marks a pending postback failed when its message dies', async () => {
    await env.DB.prepare(
      "INSERT INTO postback_log (id, conversion_id, campaign_id, click_id, status) VALUES (41, 4100, 1, 'c41', 'pending'), (42, 4200, 1, 'c42', 'sent')",
    ).run();
    const result = await consume(
      messageBatch('tracker-postbacks-dlq', [
        { id: 'm1', body: { id: 41 } },
        { id: 'm2', body: { id: 42 } },
      ]),
    );
    expect(result.explicitAcks.sort()).toEqual(['m1', 'm2']);
    const rows = await env.DB.prepare('SELECT id, status, error FROM postback_log ORDER BY id').all();
    expect(rows.results).toEqual([
      { id: 41, status: 'failed', error: 'Gave up after every retry (dead-letter queue).' },
      { id: 42, status: 'sent', error: '' },
    ]);
  });

  it('marks a statistics job failed when its message dies, so the poller stops', async () => {
    await env.DB.prepare(
      "INSERT INTO stats_jobs (id, kind, campaign_id, user_id, request_hash, request) VALUES ('job-1', 'target', 1, 1, 'h', '{}')",
    ).run();
    const result = await consume(messageBatch('tracker-stats-dlq', [{ id: 's1', body: { jobId: 'job-1' } }]));
    expect(result.explicitAcks).toEqual(['s1']);
    const job = await env.DB.prepare("SELECT status, error FROM stats_jobs WHERE id = 'job-1'").first();
    expect(job).toEqual({
      status: 'error',
      error: 'The statistics could not be computed. Please try again.',
    });
  });
});
