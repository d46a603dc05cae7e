import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrackEvent } from '../../schema/tracking';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { waitForRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { exportedFile } from '../factories/reports';
import { clickIdOf, hit, postbackSecret } from '../factories/traffic';
import { visitEvent } from '../support/events';

// Issue 17 item 4 (brief item 2): filtered clicks per campaign and day, by reason, counted at
// ingest; conversions on filtered clicks shown apart. Clicks go through the real tracking routes
// and ingest queue; the duplicate is a visit event delivered twice to the ingest code.

let token: string;
let campaignId: number;
const BOT_UA = 'Googlebot/2.1 (+http://www.google.com/bot.html)';

beforeAll(async () => {
  token = await setupInstallation();
  campaignId = await makeCampaign(token, { name: 'Filtered', campaignType: 'direct_link' });
  await makeOffer(token, campaignId, { payout: '8' });
});

const filtered = (query = '') =>
  api(`/api/stats-reports/filtered?campaignId=${campaignId}${query}`, { token, method: 'GET' });

describe('filtered traffic', () => {
  it('counts every filtered click sent, by reason, and the conversions on them apart', async () => {
    const sent = { bot: 3, prefetch: 2, head: 2, counted: 4 };
    let botClickId = '';
    for (let i = 0; i < sent.bot; i++) {
      const res = await hit(`/go/${campaignId}?tid=t`, { headers: { 'user-agent': BOT_UA } });
      expect(res.status).toBe(302);
      botClickId = clickIdOf(res);
    }
    for (let i = 0; i < sent.prefetch; i++)
      expect((await hit(`/go/${campaignId}?tid=t`, { headers: { 'sec-purpose': 'prefetch' } })).status).toBe(
        302,
      );
    for (let i = 0; i < sent.head; i++)
      expect((await hit(`/go/${campaignId}?tid=t`, { method: 'HEAD' })).status).toBe(302);
    let countedClickId = '';
    for (let i = 0; i < sent.counted; i++) {
      const res = await hit(`/go/${campaignId}?tid=t`);
      countedClickId = clickIdOf(res);
    }
    await waitForRows('visits', campaignId, 11);

    // A postback on the bot's click and one on a counted click.
    const secret = await postbackSecret(campaignId);
    expect((await hit(`/postback?clickid=${botClickId}&txid=B-1&secret=${secret}`)).status).toBe(200);
    expect((await hit(`/postback?clickid=${countedClickId}&txid=C-1&secret=${secret}`)).status).toBe(200);
    await waitForRows('conversions', campaignId, 2);

    // The same visit event delivered again (a resent click): dropped, counted as a duplicate.
    const stored = await env.DB.prepare('SELECT * FROM visits WHERE click_id = ?1')
      .bind(countedClickId)
      .first<Record<string, unknown>>();
    const again: TrackEvent = visitEvent({
      id: countedClickId,
      c: campaignId,
      o: stored!.offer_id as number,
      at: stored!.created_at as number,
      tgt: 't',
      cc: '',
    });
    const replay = await ingestEvents(env, [again]);
    expect(replay.visits).toBe(0);

    const answer = await filtered();
    expect(answer.status).toBe(200);
    const { total, days } = answer.body.data;
    expect(total).toEqual({
      bot: 3,
      prefetch: 4, // 2 prefetch + 2 HEAD
      duplicate: 1,
      other: 0,
      clicks: 8,
      conversions: 1,
      revenue: 8,
    });
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject({ day: stored!.day, clicks: 8, bot: 3 });
    // The raw rows agree: every filtered visit stored is counted once.
    const raw = await env.DB.prepare(
      'SELECT count(*) n FROM visits WHERE campaign_id = ?1 AND filter IS NOT NULL',
    )
      .bind(campaignId)
      .first<{ n: number }>();
    expect(raw!.n).toBe(total.clicks - total.duplicate);

    // Replaying the same ingest adds nothing new to the bot/prefetch counts.
    expect((await filtered()).body.data.total.bot).toBe(3);
  });

  it('counts a visit left out by another rule (unroutable) as another rule', async () => {
    const result = await ingestEvents(env, [
      visitEvent({ id: 'unrouted-visit-1', c: campaignId, at: Date.now(), tgt: 't', cc: '', f: 'unrouted' }),
    ]);
    expect(result.visits).toBe(1);
    const { total } = (await filtered()).body.data;
    expect(total.other).toBe(1);
    expect(total.clicks).toBe(9);
    // A range before any traffic is empty.
    const none = (await filtered('&startDate=01-01-2020&endDate=02-01-2020')).body.data;
    expect(none.days).toEqual([]);
    expect(none.total.clicks).toBe(0);
  });

  it('exports the filtered traffic per day after the tables, with the titles the screen shows', async () => {
    const body = { campaignId, startDate: '', endDate: '', targetData: ['target', 'visits'] };
    const lines = (await exportedFile(token, body)).split('\r\n');
    const at = lines.indexOf(
      'Day,Filtered clicks,Bot user agent,Prefetch or HEAD,Duplicate click,Other rule,Conversions on filtered clicks,Revenue on filtered clicks',
    );
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at - 2, at)).toEqual(['', 'Filtered traffic']);
    const day = (await env.DB.prepare('SELECT day FROM filtered_daily WHERE campaign_id = ?1 LIMIT 1')
      .bind(campaignId)
      .first<{ day: string }>())!.day;
    // Revenue is money: 8.00, as in every table of the export (issue 27).
    expect(lines[at + 1]).toBe(`${day},9,3,4,1,1,1,8.00`);
    expect(lines[at + 2]).toBe('Total,9,3,4,1,1,1,8.00');
  });

  it('refuses a bad date with a 422 and a foreign campaign with a 404', async () => {
    const bad = await filtered('&startDate=2026-01-01');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.startDate[0]).toBe('Start date must be written dd-MM-yyyy.');
    const other = await api('/api/stats-reports/filtered?campaignId=999999', { token, method: 'GET' });
    expect(other.status).toBe(404);
  });
});
