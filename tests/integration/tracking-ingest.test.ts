import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ConversionEvent, LpClickEvent, TrackEvent, VisitEvent } from '../../schema/tracking';
import { MAX_RESOLVE_ATTEMPTS } from '../../worker/jobs/ingest';
import { mintClickId } from '../../worker/services/hot-path/click-ids';
import { deliver, SPOOL_PREFIX } from '../../worker/services/hot-path/ingest-delivery';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { dbRows, waitForCount } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';
import { consume, messageBatch } from '../support/queues';

// The ingest consumer driven directly with a message batch (tests/support/queues.ts):
// redelivery, duplicates, out-of-order events, orphans and their adoption, poison messages and the fallbacks.

const token = await setupInstallation();

type Ids = { campaign: number; landing: number; offer: number };

async function lpCampaign(payout = '10'): Promise<Ids> {
  const campaign = await makeCampaign(token, { name: 'Ingest', campaignType: 'landing_page' });
  const landing = await makeLanding(token, campaign);
  const offer = await makeOffer(token, campaign, { payout });
  return { campaign, landing, offer };
}

const AT = Date.UTC(2026, 4, 2, 15, 0, 0); // 11:00 in New York, 2026-05-02

function visit(ids: Ids, id: string, over: Partial<VisitEvent> = {}): VisitEvent {
  return visitEvent({
    id,
    c: ids.campaign,
    l: ids.landing,
    at: AT,
    tgt: 'ad-1',
    kw: 'kw',
    ua: 'Mozilla/5.0',
    tok: { 1: 'tok-a' },
    ...over,
  });
}
function lpClick(ids: Ids, id: string, over: Partial<LpClickEvent> = {}): LpClickEvent {
  return lpClickEvent({ id, c: ids.campaign, l: ids.landing, o: ids.offer, at: AT + 1000, ...over });
}
function conversion(ids: Ids, id: string, over: Partial<ConversionEvent> = {}): ConversionEvent {
  return conversionEvent({ id, c: ids.campaign, l: ids.landing, at: AT + 2000, ...over });
}

const newClickId = (ids: Ids) =>
  mintClickId(env, { campaignId: ids.campaign, pathId: 0, landingId: ids.landing, offerId: 0 }, AT);

let messageCounter = 0;
/** Runs the ingest consumer on messages; answers the ack/retry result. */
function ingest(bodies: unknown[], attempts = 1, queue = 'tracker-ingest') {
  return consume(
    messageBatch(
      queue,
      bodies.map((body) => ({ id: `m${++messageCounter}`, attempts, body })),
    ),
  );
}
const message = (...events: TrackEvent[]) => ({ v: 1, events });

async function one(sql: string, ...binds: unknown[]) {
  return env.DB.prepare(sql)
    .bind(...binds)
    .first<Record<string, any>>();
}

async function totals(campaignId: number) {
  return one(
    `SELECT coalesce(sum(visits), 0) visits, coalesce(sum(filtered_visits), 0) filtered,
       coalesce(sum(lp_clicks), 0) lp_clicks, coalesce(sum(conversions), 0) conversions,
       coalesce(sum(revenue_micros), 0) revenue FROM daily_stats WHERE campaign_id = ?1`,
    campaignId,
  );
}
async function rawCounts(campaignId: number) {
  return one(
    `SELECT (SELECT count(*) FROM visits WHERE campaign_id = ?1) visits,
       (SELECT count(*) FROM lp_clicks WHERE campaign_id = ?1) lp_clicks,
       (SELECT count(*) FROM conversions WHERE campaign_id = ?1) conversions`,
    campaignId,
  );
}

describe('exactly once', () => {
  it('counts a redelivered batch once', async () => {
    const ids = await lpCampaign('10');
    const id = await newClickId(ids);
    const body = message(visit(ids, id), lpClick(ids, id), conversion(ids, id, { tx: 'T1' }));

    const first = await ingest([body]);
    expect(first.explicitAcks).toEqual([`m${messageCounter}`]);
    expect(first.retryMessages).toEqual([]);
    const expected = { visits: 1, filtered: 0, lp_clicks: 1, conversions: 1, revenue: 10_000_000 };
    expect(await totals(ids.campaign)).toEqual(expected);

    // The queue delivers the same message again (at-least-once), then once more in a batch of two.
    const again = await ingest([body], 2);
    expect(again.retryMessages).toEqual([]);
    await ingest([body, body], 3);
    expect(await totals(ids.campaign)).toEqual(expected);
    expect(await rawCounts(ids.campaign)).toEqual({ visits: 1, lp_clicks: 1, conversions: 1 });
    const events = await one(
      'SELECT sum(events) n, sum(revenue_micros) r FROM daily_event_stats WHERE campaign_id = ?1',
      ids.campaign,
    );
    expect(events).toEqual({ n: 1, r: 10_000_000 });
  });

  it('adds only the new visits of a batch that mixes new and stored ones, in every rollup grain', async () => {
    const ids = await lpCampaign();
    const stored = await newClickId(ids);
    await ingest([message(visit(ids, stored, { tgt: 'a' }))]);
    const fresh = [await newClickId(ids), await newClickId(ids)];
    await ingest([
      message(
        visit(ids, stored, { tgt: 'a' }),
        visit(ids, fresh[0], { tgt: 'a' }),
        visit(ids, fresh[1], { tgt: 'b', f: 'bot' }),
        visit(ids, fresh[0], { tgt: 'a' }),
      ),
    ]);
    const fine = await dbRows(
      'SELECT target, visits, filtered_visits FROM daily_stats WHERE campaign_id = ?1 ORDER BY target',
      ids.campaign,
    );
    expect(fine).toEqual([
      { target: 'a', visits: 2, filtered_visits: 0 },
      { target: 'b', visits: 0, filtered_visits: 1 },
    ]);
    // The coarse grains count only the visits that count, and agree with the fine one.
    const coarse = await one(
      `SELECT (SELECT sum(visits) FROM target_daily WHERE campaign_id = ?1) t,
              (SELECT sum(visits) FROM placement_daily WHERE campaign_id = ?1) p`,
      ids.campaign,
    );
    expect(coarse).toEqual({ t: 2, p: 2 });
  });

  it('counts a duplicate conversion once: same transaction id, or same event without one', async () => {
    const ids = await lpCampaign('4');
    const id = await newClickId(ids);
    await ingest([message(visit(ids, id), lpClick(ids, id))]);

    await ingest([
      message(
        conversion(ids, id, { tx: 'A' }),
        conversion(ids, id, { tx: 'A', pay: 99_000_000 }), // same transaction: ignored
        conversion(ids, id, { tx: 'B', pay: 1_500_000 }), // another transaction: counted
        conversion(ids, id, { ev: 'atc1' }),
        conversion(ids, id, { ev: 'ATC1' }), // same event, no transaction: ignored
        conversion(ids, id, { ev: 'lp' }),
      ),
    ]);
    await ingest([message(conversion(ids, id, { tx: 'B' }), conversion(ids, id, { ev: 'lp' }))]);

    expect(await totals(ids.campaign)).toEqual({
      visits: 1,
      filtered: 0,
      lp_clicks: 1,
      conversions: 2,
      revenue: 5_500_000,
    });
    const byEvent = await dbRows(
      'SELECT event, events, revenue_micros FROM daily_event_stats WHERE campaign_id = ?1 ORDER BY event',
      ids.campaign,
    );
    expect(byEvent).toEqual([
      { event: 'atc1', events: 1, revenue_micros: 0 },
      { event: 'lp', events: 1, revenue_micros: 0 },
      { event: 'purchase', events: 2, revenue_micros: 5_500_000 },
    ]);
  });

  it('counts one landing-page click per visit, and a prefetch never hides the real click', async () => {
    const ids = await lpCampaign();
    const id = await newClickId(ids);
    await ingest([message(visit(ids, id))]);
    await ingest([
      message(lpClick(ids, id, { f: 'prefetch' }), lpClick(ids, id), lpClick(ids, id, { at: AT + 5000 })),
    ]);
    const rows = await dbRows(
      'SELECT dedupe_key, filter FROM lp_clicks WHERE campaign_id = ?1 ORDER BY id',
      ids.campaign,
    );
    expect(rows).toEqual([
      { dedupe_key: `${id}|prefetch`, filter: 'prefetch' },
      { dedupe_key: id, filter: null },
    ]);
    expect((await totals(ids.campaign))?.lp_clicks).toBe(1);
  });
});

describe('out of order', () => {
  it('retries a conversion whose visit is not written, then keeps it as an orphan, then adopts it', async () => {
    const ids = await lpCampaign('8.5');
    const id = await newClickId(ids);
    const early = message(lpClick(ids, id), conversion(ids, id, { tx: 'X' }));

    // First deliveries: nothing written, the message is retried with a delay.
    const first = await ingest([early], 1);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual([`m${messageCounter}`]);
    expect(await rawCounts(ids.campaign)).toEqual({ visits: 0, lp_clicks: 0, conversions: 0 });

    // Last attempt: kept as orphans, not counted yet (no visit, so no target to count them under).
    const last = await ingest([early], MAX_RESOLVE_ATTEMPTS);
    expect(last.retryMessages).toEqual([]);
    expect(await rawCounts(ids.campaign)).toEqual({ visits: 0, lp_clicks: 1, conversions: 1 });
    const orphan = await one(
      'SELECT orphan, target, offer_id, payout_micros FROM conversions WHERE click_id = ?1',
      id,
    );
    expect(orphan).toEqual({ orphan: 1, target: '', offer_id: 0, payout_micros: null });
    expect((await totals(ids.campaign))?.conversions).toBe(0);

    // A redelivery of the orphans changes nothing.
    await ingest([early], MAX_RESOLVE_ATTEMPTS + 1);
    expect(await rawCounts(ids.campaign)).toEqual({ visits: 0, lp_clicks: 1, conversions: 1 });

    // The visit arrives: both orphans are adopted and counted under its target, offer and payout.
    await ingest([message(visit(ids, id))]);
    expect(
      await one(
        'SELECT orphan, target, offer_id, payout_micros, t1 FROM conversions WHERE click_id = ?1',
        id,
      ),
    ).toEqual({
      orphan: 0,
      target: 'ad-1',
      offer_id: ids.offer,
      payout_micros: 8_500_000,
      t1: 'tok-a',
    });
    expect(await one('SELECT orphan, target FROM lp_clicks WHERE click_id = ?1', id)).toEqual({
      orphan: 0,
      target: 'ad-1',
    });
    expect(await totals(ids.campaign)).toEqual({
      visits: 1,
      filtered: 0,
      lp_clicks: 1,
      conversions: 1,
      revenue: 8_500_000,
    });
    const row = await one(
      'SELECT target, landing_id, offer_id, lp_clicks, conversions FROM daily_stats WHERE campaign_id = ?1 AND offer_id > 0',
      ids.campaign,
    );
    expect(row).toEqual({
      target: 'ad-1',
      landing_id: ids.landing,
      offer_id: ids.offer,
      lp_clicks: 1,
      conversions: 1,
    });

    // The visit delivered again adopts nothing twice.
    await ingest([message(visit(ids, id))], 2);
    expect((await totals(ids.campaign))?.conversions).toBe(1);
  });

  it('waits for the landing-page click of a landing-page campaign before counting its conversion', async () => {
    const ids = await lpCampaign('6');
    const id = await newClickId(ids);
    await ingest([message(visit(ids, id))]);
    const conv = message(conversion(ids, id));
    const first = await ingest([conv], 1);
    expect(first.retryMessages.length).toBe(1);
    await ingest([message(lpClick(ids, id))]);
    const second = await ingest([conv], 2);
    expect(second.retryMessages).toEqual([]);
    expect(await one('SELECT offer_id, payout_micros FROM conversions WHERE click_id = ?1', id)).toEqual({
      offer_id: ids.offer,
      payout_micros: 6_000_000,
    });
  });

  it('writes the resolvable events of a message at once and retries only for the rest', async () => {
    const ids = await lpCampaign();
    const known = await newClickId(ids);
    const unknown = await newClickId(ids);
    const result = await ingest([message(visit(ids, known), lpClick(ids, known), lpClick(ids, unknown))]);
    expect(result.retryMessages.length).toBe(1);
    expect(await rawCounts(ids.campaign)).toEqual({ visits: 1, lp_clicks: 1, conversions: 0 });
    expect(await totals(ids.campaign)).toMatchObject({ visits: 1, lp_clicks: 1 });
  });
});

describe('filters and days', () => {
  it('stores bot, HEAD and prefetch visits flagged and leaves them out of the visits', async () => {
    const ids = await lpCampaign();
    const events: TrackEvent[] = [];
    for (const f of [null, null, 'bot', 'head', 'prefetch'] as const)
      events.push(visit(ids, await newClickId(ids), { f }));
    await ingest([message(...events)]);
    expect(await totals(ids.campaign)).toMatchObject({ visits: 2, filtered: 3 });
    const flagged = await dbRows(
      'SELECT filter, count(*) n FROM visits WHERE campaign_id = ?1 GROUP BY filter ORDER BY filter',
      ids.campaign,
    );
    expect(flagged).toEqual([
      { filter: null, n: 2 },
      { filter: 'bot', n: 1 },
      { filter: 'head', n: 1 },
      { filter: 'prefetch', n: 1 },
    ]);
  });

  it("counts each event on its day in the installation's time zone", async () => {
    const ids = await lpCampaign('1');
    const id = await newClickId(ids);
    const lateEvening = Date.UTC(2026, 2, 8, 4, 30); // 23:30 on 2026-03-07 in New York
    const nextMorning = Date.UTC(2026, 2, 8, 14, 0); // 10:00 on 2026-03-08 in New York
    await ingest([
      message(
        visit(ids, id, { at: lateEvening }),
        lpClick(ids, id, { at: lateEvening + 60_000 }),
        conversion(ids, id, { at: nextMorning }),
      ),
    ]);
    const days = await dbRows(
      'SELECT day, visits, lp_clicks, conversions FROM daily_stats WHERE campaign_id = ?1 ORDER BY day, offer_id',
      ids.campaign,
    );
    expect(days).toEqual([
      { day: '2026-03-07', visits: 1, lp_clicks: 0, conversions: 0 },
      { day: '2026-03-07', visits: 0, lp_clicks: 1, conversions: 0 },
      { day: '2026-03-08', visits: 0, lp_clicks: 0, conversions: 1 },
    ]);
    expect(await one('SELECT visit_at FROM conversions WHERE click_id = ?1', id)).toEqual({
      visit_at: lateEvening,
    });
  });
});

describe('volume and poison', () => {
  it('writes a full queue batch of 100 messages x 100 events exactly, far beyond 100 bound parameters', async () => {
    const ids = await lpCampaign();
    const bodies = [];
    for (let m = 0; m < 100; m++) {
      const events: TrackEvent[] = [];
      for (let e = 0; e < 100; e++) events.push(visit(ids, `bulk-${m}-${e}`, { tgt: `t${e % 7}` }));
      bodies.push(message(...events));
    }
    const result = await ingest(bodies);
    expect(result.explicitAcks.length).toBe(100);
    expect((await rawCounts(ids.campaign))?.visits).toBe(10_000);
    expect((await totals(ids.campaign))?.visits).toBe(10_000);
    const perTarget = await one(
      "SELECT visits FROM daily_stats WHERE campaign_id = ?1 AND target = 't0'",
      ids.campaign,
    );
    expect(perTarget?.visits).toBe(15 * 100); // e = 0, 7, ..., 98: 15 of every 100
  });

  it('keeps malformed messages and events in R2 dead letters and writes the good events', async () => {
    const ids = await lpCampaign();
    const good = visit(ids, await newClickId(ids));
    const result = await ingest([
      'not json at all',
      { v: 2, events: [] },
      message(good, { k: 'x' } as never),
    ]);
    expect(result.explicitAcks.length).toBe(3);
    expect(result.retryMessages).toEqual([]);
    expect((await rawCounts(ids.campaign))?.visits).toBe(1);
    const listed = await env.BUCKET.list({ prefix: 'dead-letters/tracker-ingest/' });
    const reasons = await Promise.all(
      listed.objects.map(
        async (o) => ((await (await env.BUCKET.get(o.key))!.json()) as { reason: string }).reason,
      ),
    );
    expect(reasons.sort()).toEqual(['malformed events', 'malformed message', 'malformed message']);
  });

  it('keeps messages that exhausted their retries (the dead-letter queue) in R2', async () => {
    const result = await ingest([{ v: 1, events: [] }], 6, 'tracker-ingest-dlq');
    expect(result.explicitAcks.length).toBe(1);
    const listed = await env.BUCKET.list({ prefix: 'dead-letters/tracker-ingest-dlq/' });
    expect(listed.objects.length).toBe(1);
  });
});

describe('hot-path fallbacks', () => {
  it('writes straight to D1 when the queue refuses the batch', async () => {
    const ids = await lpCampaign();
    const id = await newClickId(ids);
    const failingQueue = {
      send: async () => {
        throw new Error('Queue send failed: too many pending messages');
      },
    };
    const outcome = await deliver({ ...env, INGEST_QUEUE: failingQueue as unknown as Queue }, [
      visit(ids, id),
      lpClick(ids, id),
    ]);
    expect(outcome).toBe('direct');
    expect(await rawCounts(ids.campaign)).toEqual({ visits: 1, lp_clicks: 1, conversions: 0 });
    expect(await totals(ids.campaign)).toMatchObject({ visits: 1, lp_clicks: 1 });
  });

  it('spools to R2 when neither the queue nor D1 takes the batch, and the replay job requeues it', async () => {
    const ids = await lpCampaign();
    const id = await newClickId(ids);
    const failing = {
      send: async () => {
        throw new Error('queue down');
      },
    } as unknown as Queue;
    const brokenDb = {
      prepare: () => {
        throw new Error('D1 overloaded');
      },
      batch: async () => {
        throw new Error('D1 overloaded');
      },
    } as unknown as D1Database;
    const outcome = await deliver({ ...env, INGEST_QUEUE: failing, DB: brokenDb }, [visit(ids, id)]);
    expect(outcome).toBe('spooled');
    const spooled = await env.BUCKET.list({ prefix: SPOOL_PREFIX });
    expect(spooled.objects.length).toBe(1);

    const { replaySpool } = await import('../../worker/jobs/ingest');
    expect(await replaySpool(env)).toBe(1);
    expect((await env.BUCKET.list({ prefix: SPOOL_PREFIX })).objects.length).toBe(0);
    // Back on the real queue: the consumer writes it.
    await waitForCount('SELECT count(*) n FROM visits WHERE click_id = ?1', [id], 1);
  });
});
