import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TrackEvent } from '../../schema/tracking';
import worker from '../../worker/index';
import { mintClickId } from '../../worker/services/hot-path/click-ids';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { MAX_POSTBACK_ATTEMPTS } from '../../worker/services/postbacks/postbacks';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { dbRows, waitForCount } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';
import { standInHosts } from '../support/fetch-stand-in';
import { consume, messageBatch } from '../support/queues';

// Outbound postbacks to the traffic source. The traffic sources are stand-ins answering by
// host name; everything else (queue, consumer, D1, the log) is real.

function fakeTrafficSource(host: string): Response {
  switch (host) {
    case 'ok.example.com':
      return new Response('OK');
    case 'fail.example.com':
      return new Response('busy', { status: 503 });
    case 'gone.example.com':
      return new Response('no such campaign', { status: 404 });
    case 'moved.example.com':
      return new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/' } });
    default:
      throw new TypeError('Network connection lost.');
  }
}

const token = await setupInstallation();
const calls = standInHosts((host) => !host.endsWith('.example.com'), fakeTrafficSource);

const AT = Date.UTC(2026, 4, 3, 12, 0, 0);

async function campaignWithPostback(template: string) {
  const campaign = await makeCampaign(token, {
    name: 'Postbacks',
    campaignType: 'landing_page',
    postback_enabled: 1,
    postback: template,
    extratokens: [{ token_name: 'Sub', parameter: 'sub1' }],
  });
  const landing = await makeLanding(token, campaign);
  const offer = await makeOffer(token, campaign, { payout: '12.5' });
  return { campaign, landing, offer };
}

async function convert(
  ids: { campaign: number; landing: number; offer: number },
  extra: Partial<TrackEvent> = {},
) {
  const clickId = await mintClickId(env, {
    campaignId: ids.campaign,
    pathId: 0,
    landingId: ids.landing,
    offerId: 0,
  });
  const events: TrackEvent[] = [
    visitEvent({
      id: clickId,
      c: ids.campaign,
      l: ids.landing,
      at: AT,
      tgt: 'ad 5',
      dev: 'mobile',
      ua: 'x',
      tok: { 1: 'a b' },
    }),
    lpClickEvent({ id: clickId, c: ids.campaign, l: ids.landing, o: ids.offer, at: AT }),
    conversionEvent({ id: clickId, c: ids.campaign, l: ids.landing, at: AT, tx: 'TX-9', ...extra }),
  ];
  return { clickId, events };
}

async function deliver(id: number, attempts: number) {
  return consume(messageBatch('tracker-postbacks', [{ id: `p${id}-${attempts}`, attempts, body: { id } }]));
}

const logRow = (id: number) =>
  env.DB.prepare('SELECT status, attempts, response_status, error, url FROM postback_log WHERE id = ?1')
    .bind(id)
    .first<Record<string, any>>();

describe('outbound postbacks', () => {
  it('fires the template with its macros once per new goal conversion, through the queue', async () => {
    const ids = await campaignWithPostback(
      'https://ok.example.com/pb?cid={clickid}&sum={payout}&t={target}&tx={txid}&s={sub1}',
    );
    const { clickId, events } = await convert(ids);
    // Through the real ingest consumer, which hands the new postback to the postback queue.
    await consume(messageBatch('tracker-ingest', [{ id: 'ingest-1', body: { v: 1, events } }]));
    await waitForCount(
      "SELECT count(*) n FROM postback_log WHERE campaign_id = ?1 AND status = 'sent'",
      [ids.campaign],
      1,
    );

    expect(calls.map((c) => c.url)).toEqual([
      `https://ok.example.com/pb?cid=${clickId}&sum=12.50&t=ad%205&tx=TX-9&s=a%20b`,
    ]);
    expect(calls[0].init?.redirect).toBe('manual');
    expect(calls[0].init?.signal).toBeInstanceOf(AbortSignal);
    const [log] = await dbRows(
      'SELECT status, attempts, response_status, url FROM postback_log WHERE campaign_id = ?1',
      ids.campaign,
    );
    expect(log).toEqual({ status: 'sent', attempts: 1, response_status: 200, url: calls[0].url });

    // The same conversion again, and a named event: no new postback.
    const again = await ingestEvents(env, [
      events[2],
      { ...(events[2] as object), ev: 'atc1', tx: '' } as TrackEvent,
    ]);
    expect(again.postbackIds).toEqual([]);
    const [n] = await dbRows('SELECT count(*) n FROM postback_log WHERE campaign_id = ?1', ids.campaign);
    expect(n).toEqual({ n: 1 });
  });

  it('retries a failing traffic source with backoff, then marks the postback failed', async () => {
    const ids = await campaignWithPostback('https://fail.example.com/pb?cid={clickid}');
    const { events } = await convert(ids);
    const [logId] = (await ingestEvents(env, events)).postbackIds;
    expect(logId).toBeGreaterThan(0);

    for (let attempt = 1; attempt < MAX_POSTBACK_ATTEMPTS; attempt++) {
      const result = await deliver(logId, attempt);
      expect(result.retryMessages.length).toBe(1);
      expect(await logRow(logId)).toMatchObject({
        status: 'pending',
        attempts: attempt,
        response_status: 503,
      });
    }
    const last = await deliver(logId, MAX_POSTBACK_ATTEMPTS);
    expect(last.retryMessages).toEqual([]);
    expect(last.explicitAcks.length).toBe(1);
    expect(await logRow(logId)).toMatchObject({
      status: 'failed',
      attempts: MAX_POSTBACK_ATTEMPTS,
      error: 'HTTP 503',
    });
    expect(calls.length).toBe(MAX_POSTBACK_ATTEMPTS);
    // A failed postback is not sent again.
    await deliver(logId, 1);
    expect(calls.length).toBe(MAX_POSTBACK_ATTEMPTS);
  });

  it('retries a network error, gives up at once on a 4xx, and never follows a redirect', async () => {
    const down = await campaignWithPostback('https://down.example.com/pb?cid={clickid}');
    const [downId] = (await ingestEvents(env, (await convert(down)).events)).postbackIds;
    expect((await deliver(downId, 1)).retryMessages.length).toBe(1);
    expect(await logRow(downId)).toMatchObject({
      status: 'pending',
      error: 'TypeError: Network connection lost.',
    });

    const gone = await campaignWithPostback('https://gone.example.com/pb?cid={clickid}');
    const [goneId] = (await ingestEvents(env, (await convert(gone)).events)).postbackIds;
    expect((await deliver(goneId, 1)).retryMessages).toEqual([]);
    expect(await logRow(goneId)).toMatchObject({ status: 'failed', response_status: 404 });

    const moved = await campaignWithPostback('https://moved.example.com/pb?cid={clickid}');
    const [movedId] = (await ingestEvents(env, (await convert(moved)).events)).postbackIds;
    await deliver(movedId, 1);
    expect(await logRow(movedId)).toMatchObject({ status: 'sent', response_status: 302 });
    // Only the three calls above: the redirect to the metadata address was not followed.
    expect(calls.map((c) => new URL(c.url).hostname)).toEqual([
      'down.example.com',
      'gone.example.com',
      'moved.example.com',
    ]);
  });

  it('refuses private, IP and metadata addresses when saving and when sending', async () => {
    for (const postback of [
      'http://127.0.0.1/pb?c={clickid}',
      'http://169.254.169.254/x',
      'https://{target}/pb',
      'ftp://ok.example.com/',
    ]) {
      const res = await api('/api/add-campaign', {
        token,
        body: { name: 'Bad postback', postback_enabled: 1, postback },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.postback).toEqual(['Postback URL must be a public http or https URL.']);
    }
    // A template changed behind the API's back is still refused at send time.
    const ids = await campaignWithPostback('https://ok.example.com/pb?cid={clickid}');
    const [logId] = (await ingestEvents(env, (await convert(ids)).events)).postbackIds;
    await env.DB.prepare(
      "UPDATE campaigns SET postback = 'http://metadata.google.internal/x?c={clickid}' WHERE id = ?1",
    )
      .bind(ids.campaign)
      .run();
    const result = await deliver(logId, 1);
    expect(result.explicitAcks.length).toBe(1);
    expect(await logRow(logId)).toMatchObject({
      status: 'blocked',
      error: 'private host names are not allowed',
    });
    expect(calls).toEqual([]);
  });

  it('re-sends pending postbacks whose queue message was lost, from the cron sweep', async () => {
    const ids = await campaignWithPostback('https://ok.example.com/late?cid={clickid}');
    const [logId] = (await ingestEvents(env, (await convert(ids)).events)).postbackIds;
    // Never enqueued, and older than the sweep's threshold.
    await env.DB.prepare('UPDATE postback_log SET updated_at = 0 WHERE id = ?1').bind(logId).run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '*/5 * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    await waitForCount("SELECT count(*) n FROM postback_log WHERE id = ?1 AND status = 'sent'", [logId], 1);
    expect(calls.length).toBe(1);
    expect(calls[0].url).toContain('https://ok.example.com/late?cid=');
  });
});
