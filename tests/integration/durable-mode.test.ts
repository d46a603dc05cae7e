import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../worker/env';
import worker from '../../worker/index';
import { replaySpool } from '../../worker/jobs/ingest';
import { deliveryStats, LOST_EVENTS_KEY, SPOOL_PREFIX } from '../../worker/services/hot-path/ingest-delivery';
import { invalidateSettings, settingsCacheForTests } from '../../worker/services/settings/settings';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { campaignAlerts, waitForCount } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { DESKTOP_UA, hit } from '../factories/traffic';

// When a click is durable (docs/tracking.md, docs/decisions/043): in the default mode the
// redirect is answered before its event reaches the queue (within the batch window); in
// durable mode only after the queue accepted it.

let campaign: number;
beforeAll(async () => {
  const token = await setupInstallation();
  campaign = await makeCampaign(token, { name: 'Durable' });
  await makeOffer(token, campaign);
});

async function mode(value: 'batched' | 'durable') {
  await env.DB.prepare(
    "INSERT INTO settings (key, value) VALUES ('tracking_mode', ?1) ON CONFLICT(key) DO UPDATE SET value = ?1",
  )
    .bind(value)
    .run();
  invalidateSettings();
}

describe('tracking modes', () => {
  it('batched (default): the redirect is answered before the queue has the event', async () => {
    await mode('batched');
    await new Promise((r) => setTimeout(r, 50));
    const before = deliveryStats.events;
    const res = await hit(`/go/${campaign}`);
    expect(res.status).toBe(302);
    expect(deliveryStats.events).toBe(before);
    await waitForCount('SELECT count(*) n FROM visits WHERE campaign_id = ?', [campaign], 1);
    expect(deliveryStats.events).toBe(before + 1);
  });

  it('durable: the redirect is answered only after the queue accepted the event', async () => {
    await mode('durable');
    for (let i = 1; i <= 3; i++) {
      const before = deliveryStats.events;
      const res = await hit(`/go/${campaign}`);
      expect(res.status).toBe(302);
      expect(deliveryStats.events - before).toBeGreaterThanOrEqual(1);
    }
    await waitForCount('SELECT count(*) n FROM visits WHERE campaign_id = ?', [campaign], 4);
    await mode('batched');
  });
});

// Fault injection (docs/decisions/126): the Worker's fetch handler called directly with the test's
// bindings, some of them wrapped to fail. The routing and settings are cached first (a real
// request), as they are in a running isolate; a failed background check keeps the copies.

type Faults = {
  queue?: boolean;
  /** down: every D1 call fails; ingest: D1 refuses the ingest transaction (a batch), small writes pass. */
  d1?: 'down' | 'ingest';
  r2?: boolean;
  /** D1 fails the next n reads of the settings table. */
  settingsReads?: number;
  /** The loss counter's write takes this long (concurrent losses overlap). */
  slowLossCountMs?: number;
};

const injected = (what: string) => new Error(`injected fault: ${what}`);

function withFaults(faults: Faults): Env {
  const base = env as unknown as Env;
  const queue = faults.queue
    ? ({
        send: async () => {
          throw injected('queue send');
        },
        sendBatch: async () => {
          throw injected('queue send');
        },
      } as unknown as Queue)
    : base.INGEST_QUEUE;
  let settingsReads = faults.settingsReads ?? 0;
  const db = new Proxy(base.DB, {
    get(target, prop) {
      if (prop === 'withSession') return undefined;
      if (prop === 'batch' && faults.d1) return async () => Promise.reject(injected('D1 batch'));
      if (prop === 'prepare') {
        return (sql: string) => {
          if (faults.d1 === 'down') throw injected('D1 prepare');
          if (settingsReads > 0 && sql.startsWith('SELECT key, value FROM settings')) {
            settingsReads -= 1;
            throw injected('D1 settings read');
          }
          if (faults.slowLossCountMs && sql.includes(LOST_EVENTS_KEY)) {
            return {
              bind: (...values: unknown[]) => ({
                run: async () => {
                  await new Promise((r) => setTimeout(r, faults.slowLossCountMs));
                  return target
                    .prepare(sql)
                    .bind(...values)
                    .run();
                },
              }),
            };
          }
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const bucket = faults.r2
    ? new Proxy(base.BUCKET, {
        get(target, prop) {
          if (prop === 'put') return async () => Promise.reject(injected('R2 put'));
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      })
    : base.BUCKET;
  return { ...base, INGEST_QUEUE: queue, DB: db, BUCKET: bucket };
}

/** One click through the Worker with `bindings`; what deliveryStats held when it was answered. */
async function clickWith(bindings: Env) {
  const ctx = createExecutionContext();
  const before = { ...deliveryStats };
  const res = await worker.fetch(
    new Request(`http://tracker.test/go/${campaign}`, {
      redirect: 'manual',
      headers: { 'user-agent': DESKTOP_UA, 'sec-fetch-mode': 'navigate', accept: 'text/html' },
    }),
    bindings,
    ctx,
  );
  const atAnswer = { ...deliveryStats };
  const visitsAtAnswer = await visitCount();
  const body = await res.text();
  await waitOnExecutionContext(ctx);
  const delta = (key: keyof typeof deliveryStats) => atAnswer[key] - before[key];
  return { res, body, delta, visitsAtAnswer };
}

async function visitCount() {
  const row = await env.DB.prepare('SELECT count(*) n FROM visits WHERE campaign_id = ?')
    .bind(campaign)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function lostCounted() {
  const row = await env.DB.prepare('SELECT value FROM settings WHERE key = ?')
    .bind(LOST_EVENTS_KEY)
    .first<{ value: string }>();
  return Number(row?.value ?? 0);
}

async function alertKeys() {
  return (await campaignAlerts(campaign)).filter((a) => a.type === 'tracking').map((a) => a.key);
}

/**
 * Sets the mode and lets one real click cache the settings and the campaign's routing. Waits
 * until that click is stored and no earlier click is still on its way through the queue, so the
 * counts a test reads next change only by what it sends itself.
 */
async function warm(value: 'batched' | 'durable') {
  await mode(value);
  const before = await visitCount();
  expect((await hit(`/go/${campaign}`)).status).toBe(302);
  await waitForCount('SELECT count(*) n FROM visits WHERE campaign_id = ?', [campaign], before + 1);
  let last = await visitCount();
  for (let same = 0; same < 8; ) {
    await new Promise((r) => setTimeout(r, 50));
    const now = await visitCount();
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

describe('durable mode under failing stores (fault injection)', () => {
  it('queue send failing: the redirect comes after the direct D1 write', async () => {
    await warm('durable');
    const stored = await waitForCount('SELECT count(*) n FROM visits WHERE campaign_id = ?', [campaign], 1);
    const { res, delta, visitsAtAnswer } = await clickWith(withFaults({ queue: true }));
    expect(res.status).toBe(302);
    expect(delta('sendFailures')).toBe(3);
    expect(delta('directWrites')).toBe(1);
    expect(delta('lost')).toBe(0);
    expect(visitsAtAnswer).toBe(stored + 1);
  });

  it('queue and D1 failing: the redirect comes after the event is spooled to R2, which the replay stores', async () => {
    await warm('durable');
    const stored = await waitForCount('SELECT count(*) n FROM visits WHERE campaign_id = ?', [campaign], 1);
    const spooledBefore = (await env.BUCKET.list({ prefix: SPOOL_PREFIX })).objects.length;
    const { res, delta, visitsAtAnswer } = await clickWith(withFaults({ queue: true, d1: 'down' }));
    expect(res.status).toBe(302);
    expect(delta('spooled')).toBe(1);
    expect(delta('lost')).toBe(0);
    expect(visitsAtAnswer).toBe(stored);
    expect((await env.BUCKET.list({ prefix: SPOOL_PREFIX })).objects.length).toBe(spooledBefore + 1);
    expect(await replaySpool(env as unknown as Env)).toBe(1);
    await waitForCount('SELECT count(*) n FROM visits WHERE campaign_id = ?', [campaign], stored + 1);
  });

  it('D1 failing alone: the queue takes the event', async () => {
    await warm('durable');
    const { res, delta } = await clickWith(withFaults({ d1: 'down' }));
    expect(res.status).toBe(302);
    expect(delta('events')).toBe(1);
    expect(delta('lost')).toBe(0);
  });

  it('every store failing: the visitor is redirected and the loss is counted, in D1 once it answers', async () => {
    await warm('durable');
    const counted = await lostCounted();
    const spooled = (await env.BUCKET.list({ prefix: SPOOL_PREFIX })).objects.length;
    const stored = await visitCount();

    // Queue, D1 and R2 all down: only this isolate can count it (and the logs hold the event).
    const down = await clickWith(withFaults({ queue: true, d1: 'down', r2: true }));
    expect(down.res.status).toBe(302);
    expect(down.delta('lost')).toBe(1);
    expect(down.delta('directWrites')).toBe(0);
    expect(down.delta('spooled')).toBe(0);
    expect(await lostCounted()).toBe(counted);

    // D1 refuses the ingest but takes a small write: both losses are counted there, and alerted.
    const refused = await clickWith(withFaults({ queue: true, d1: 'ingest', r2: true }));
    expect(refused.res.status).toBe(302);
    expect(refused.delta('lost')).toBe(1);
    expect(await lostCounted()).toBe(counted + 2);
    const day = new Date().toISOString().slice(0, 10);
    expect(await alertKeys()).toEqual([`tracking-lost-${day}`]);

    expect(await visitCount()).toBe(stored);
    expect((await env.BUCKET.list({ prefix: SPOOL_PREFIX })).objects.length).toBe(spooled);
  });

  it('concurrent losses are each counted once', async () => {
    await warm('durable');
    const counted = await lostCounted();
    const faulty = withFaults({ queue: true, d1: 'ingest', r2: true, slowLossCountMs: 50 });
    const clicks = await Promise.all(Array.from({ length: 12 }, () => clickWith(faulty)));
    expect(clicks.map((c) => c.res.status)).toEqual(Array(12).fill(302));
    expect(await lostCounted()).toBe(counted + 12);
  });

  it('batched mode, every store failing: the loss of the flushed batch is counted too', async () => {
    await warm('batched');
    const counted = await lostCounted();
    const lost = deliveryStats.lost;
    const { res, delta } = await clickWith(withFaults({ queue: true, d1: 'ingest', r2: true }));
    expect(res.status).toBe(302);
    expect(delta('lost')).toBe(0); // answered before the batch was sent
    expect(deliveryStats.lost).toBe(lost + 1);
    expect(await lostCounted()).toBe(counted + 1);
  });
});

describe('the mode when the settings cannot be read', () => {
  it.each([
    {
      value: 'durable',
      title: 'durable stays durable when the first settings read fails (no silent fall back to batched)',
    },
    { value: 'batched', title: 'batched installations are answered as durable while the mode is unknown' },
  ] as const)('$title', async ({ value }) => {
    await warm(value);
    await settingsCacheForTests.simulate({ forget: true, shared: true });
    const { res, delta } = await clickWith(withFaults({ settingsReads: 1 }));
    expect(res.status).toBe(302);
    expect(delta('events')).toBe(1);
  });

  it('settings unreadable twice: the visitor gets the temporarily-unavailable page, not a 500', async () => {
    await warm('durable');
    await settingsCacheForTests.simulate({ forget: true, shared: true });
    const { res, body } = await clickWith(withFaults({ settingsReads: 2 }));
    expect(res.status).toBe(503);
    expect(body).toContain('This link is temporarily unavailable.');
    await mode('batched');
  });
});
