import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { TestClickAnswer, TestConversionRow, TestPostbackAnswer } from '../../schema/tools-api';
import { mintClickId } from '../../worker/services/hot-path/click-ids';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { hit } from '../factories/traffic';
import { standInHosts } from '../support/fetch-stand-in';
import { toolsStandIn } from '../support/tools-stand-in';

// The Tools API's postback tester: test clicks and their conversions through the real postback
// route, kept out of every statistic and export (the link tester and the link builder are in
// tools.test.ts). The postback receiver is a stand-in answering by host name
// (tests/support/tools-stand-in.ts); everything else is the real Worker, D1 and queues.

const token = await setupInstallation();
// The tracker itself, and the fake resolver the outbound guard asks first (tests/fake-dns.ts).
const calls = standInHosts((host) => host === 'tracker.example.com' || host === 'dns.test', toolsStandIn);

const testClick = (body: Record<string, unknown>, auth = token) =>
  api<{ data: TestClickAnswer }>('/api/tools/test-clicks', { token: auth, body });
const testPostback = (body: Record<string, unknown>, auth = token) =>
  api<{ data: TestPostbackAnswer }>('/api/tools/test-postback', { token: auth, body });

describe('postback tester: test clicks and conversions', () => {
  async function postbackCampaign(
    template = 'https://ok.example.com/pb?cid={clickid}&p={payout}&ad={target}',
  ) {
    const campaignId = await makeCampaign(token, {
      name: 'Postback test',
      campaignType: 'direct_link',
      postback_enabled: 1,
      postback: template,
    });
    const offerId = await makeOffer(token, campaignId, { name: 'Offer', payout: '10' });
    return { campaignId, offerId };
  }

  it('accepts a test conversion through the real postback route and keeps it out of statistics and exports', async () => {
    const { campaignId, offerId } = await postbackCampaign();
    const click = await testClick({ campaignId, device: 'mobile', country: 'de', target: 'ad-42' });
    expect(click.status).toBe(201);
    const made = click.body.data;
    expect(made).toMatchObject({
      message: 'Test click made.',
      campaignId,
      offer: { id: offerId, name: 'Offer', payout: 10 },
    });
    expect(made.postbackUrl).toBe(
      `https://tracker.example.com/postback?clickid=${made.clickId}&payout={payout}&txid={txid}`,
    );

    const res = await testPostback({ clickId: made.clickId, payout: '12.5', txid: 'T-1' });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.request).toEqual({
      method: 'GET',
      url: `https://tracker.example.com/postback?clickid=${made.clickId}&payout=12.5&txid=T-1`,
    });
    expect(data.response).toEqual({
      status: 200,
      body: { data: { status: 'accepted', message: 'Conversion accepted.' } },
    });
    expect(data.outcome).toBe('accepted');
    expect(data.message).toBe('Conversion accepted.');
    expect(data.duplicateRule).toEqual({
      rule: 'transaction',
      key: `${made.clickId}|t|T-1`,
      description: 'The same click id and transaction id count once: a repeated postback is not paid twice.',
    });
    expect(data.conversion).toMatchObject({
      campaignId,
      campaignName: 'Postback test',
      event: 'purchase',
      isGoal: 1,
      transactionId: 'T-1',
      payout: 12.5,
      source: 'postback',
      duplicates: 0,
      postbackStatus: 'ready',
    });
    // The traffic source's postback, macros filled, not sent.
    expect(data.trafficSourcePostback).toEqual({
      status: 'ready',
      url: `https://ok.example.com/pb?cid=${made.clickId}&p=12.50&ad=ad-42`,
      message: 'Not sent: tick “Send it to the traffic source” to call it.',
      responseStatus: null,
    });
    expect(calls).toEqual([]);

    // A network calling the postback URL itself reaches the same record (the default payout: the offer's).
    const direct = await hit(`/postback?clickid=${made.clickId}`);
    expect(direct.status).toBe(200);
    expect(direct.headers.get('x-tracker-test')).toBe('recorded');

    const list = await api<{ data: { result: TestConversionRow[] } }>(
      `/api/tools/test-conversions?campaignId=${campaignId}`,
      { token },
    );
    expect(list.body.data.result.map((r) => [r.transactionId, r.event, r.payout])).toEqual([
      ['', 'purchase', 10],
      ['T-1', 'purchase', 12.5],
    ]);

    // Nothing reaches the numbers: raw tables, rollups, postback log, statistics, export.
    const real = await hit('/go/999999');
    expect(real.status).toBe(404);
    for (const table of [
      'visits',
      'conversions',
      'daily_stats',
      'daily_event_stats',
      'target_daily',
      'postback_log',
    ]) {
      const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE campaign_id = ?1`)
        .bind(campaignId)
        .first<{ n: number }>();
      expect([table, row!.n]).toEqual([table, 0]);
    }
    const stats = await api('/api/statistics', {
      token,
      body: { campaignId, startDate: '', endDate: '', force: true },
    });
    expect(stats.status).toBe(200);
    expect(stats.body.data.campaignVisits).toBe(0);
    expect(stats.body.data.offer.offerRecords.map((o: any) => [o.offer_name, o.conversion])).toEqual([
      ['Offer', 0],
    ]);
    const exported = await api('/api/export-statistics', {
      token,
      body: { campaignId, startDate: '', endDate: '' },
    });
    expect(exported.body.data).toEqual({ downloadLink: null, message: 'No Data To Export.' });
    // The install export carries no test table.
    const install = await api('/api/export-install', { token });
    const download = await SELF.fetch(`http://tracker.test${install.body.data.downloadLink}`);
    const files = unzipSync(new Uint8Array(await download.arrayBuffer()));
    const tables = JSON.parse(strFromU8(files['manifest.json'])).tables.map((t: { name: string }) => t.name);
    expect(tables).toContain('campaigns');
    expect(tables.filter((t: string) => t.startsWith('test_'))).toEqual([]);
  });

  it('applies the duplicate rule: a repeated transaction id, or a repeated event without one, counts once', async () => {
    const { campaignId } = await postbackCampaign();
    const { clickId } = (await testClick({ campaignId })).body.data;
    await testPostback({ clickId, payout: '5', txid: 'A' });
    const again = (await testPostback({ clickId, payout: '7', txid: 'A' })).body.data;
    expect(again.outcome).toBe('duplicate');
    expect(again.message).toBe('Conversion accepted. Counted once: this one is a duplicate and is ignored.');
    expect(again.conversion).toMatchObject({ payout: 5, duplicates: 1 });
    expect(again.trafficSourcePostback).toEqual({
      status: 'duplicate',
      url: '',
      message: 'A duplicate sends no postback.',
      responseStatus: null,
    });
    const lead = (await testPostback({ clickId, event: 'Lead' })).body.data;
    expect(lead.outcome).toBe('accepted');
    expect(lead.duplicateRule).toMatchObject({ rule: 'event', key: `${clickId}|e|lead` });
    expect(lead.trafficSourcePostback!.status).toBe('not_goal');
    expect((await testPostback({ clickId, event: 'lead' })).body.data.outcome).toBe('duplicate');
  });

  it('says why a postback is refused', async () => {
    const { campaignId } = await postbackCampaign();
    const { clickId } = (await testClick({ campaignId })).body.data;
    const payout = (await testPostback({ clickId, payout: 'ten dollars' })).body.data;
    expect(payout.outcome).toBe('refused');
    expect(payout.response).toEqual({
      status: 422,
      body: { message: 'Payout must be a number.', errors: { payout: ['Payout must be a number.'] } },
    });
    expect(payout.message).toBe('Payout must be a number.');
    expect(payout.conversion).toBeNull();
    const event = (await testPostback({ clickId, event: 'add to cart' })).body.data;
    expect(event.message).toBe('Event names may contain only letters, digits, underscore, dash and dot.');

    // A real click id never goes through here; a tampered test id is refused by the route itself.
    const realId = mintClickId(env, { campaignId, pathId: 0, landingId: 0, offerId: 0 });
    const notTest = await testPostback({ clickId: realId });
    expect(notTest.status).toBe(422);
    expect((notTest.body as any).errors.clickId).toEqual([
      'This is not a test click id: only test clicks can be converted here. Make a test click first.',
    ]);
    const tampered = `${clickId.slice(0, -2)}${clickId.endsWith('aa') ? 'bb' : 'aa'}`;
    const route = await hit(`/postback?clickid=${tampered}&payout=1`);
    expect(route.status).toBe(400);
    expect(await route.json()).toEqual({
      message: 'Click id is not valid.',
      errors: { clickid: ['Click id is not valid.'] },
    });
    const count = await env.DB.prepare('SELECT count(*) AS n FROM test_conversions WHERE campaign_id = ?1')
      .bind(campaignId)
      .first<{ n: number }>();
    expect(count!.n).toBe(0);
  });

  it('sends the traffic-source postback only when asked, and says when postbacks are off or refused', async () => {
    const { campaignId } = await postbackCampaign();
    const { clickId } = (await testClick({ campaignId, target: 'x' })).body.data;
    const sent = (await testPostback({ clickId, payout: '3', send: 1 })).body.data;
    expect(sent.trafficSourcePostback).toEqual({
      status: 'sent',
      url: `https://ok.example.com/pb?cid=${clickId}&p=3.00&ad=x`,
      message: 'Sent: the traffic source answered HTTP 200.',
      responseStatus: 200,
    });
    expect(sent.conversion).toMatchObject({ postbackStatus: 'sent', postbackResponse: 200 });
    expect(calls.map((c) => c.url)).toEqual([`https://ok.example.com/pb?cid=${clickId}&p=3.00&ad=x`]);

    const off = await makeCampaign(token, { name: 'No postback' });
    await makeOffer(token, off);
    const offClick = (await testClick({ campaignId: off })).body.data.clickId;
    const offAnswer = (await testPostback({ clickId: offClick, send: 1 })).body.data;
    expect(offAnswer.trafficSourcePostback).toMatchObject({
      status: 'off',
      message: 'Postbacks to the traffic source are off for this campaign (campaign editor, Basic tab).',
    });
    expect(calls).toHaveLength(1);
  });

  it('lists and clears test conversions per role, with the campaigns each one manages', async () => {
    const { campaignId } = await postbackCampaign();
    const student = await userWithRole(token, 'student');
    const own = await makeCampaign(student.token, { name: 'Student offers' });
    await makeOffer(student.token, own);
    const studentClick = (await testClick({ campaignId: own }, student.token)).body.data.clickId;
    await testPostback({ clickId: studentClick, txid: 'S1' }, student.token);
    const adminClick = (await testClick({ campaignId })).body.data.clickId;
    await testPostback({ clickId: adminClick, txid: 'A1' });

    // A student may neither click, convert nor list another's campaign.
    expect((await testClick({ campaignId }, student.token)).status).toBe(404);
    expect((await testPostback({ clickId: adminClick }, student.token)).status).toBe(404);
    const mine = await api('/api/tools/test-conversions', { token: student.token });
    expect(mine.body.data.result.map((r: TestConversionRow) => r.transactionId)).toEqual(['S1']);

    const cleared = await api('/api/tools/test-conversions', { token: student.token, method: 'DELETE' });
    expect(cleared.body.data).toEqual({ deleted: 1, message: 'Test conversions cleared.' });
    const left = await api(`/api/tools/test-conversions?campaignId=${campaignId}`, { token });
    expect(left.body.data.result.map((r: TestConversionRow) => r.transactionId)).toEqual(['A1']);
    const clicks = await env.DB.prepare('SELECT count(*) AS n FROM test_clicks WHERE campaign_id = ?1')
      .bind(own)
      .first<{ n: number }>();
    expect(clicks!.n).toBe(0);
    const one = await api('/api/tools/test-conversions', { token, method: 'DELETE', body: { campaignId } });
    expect(one.body.data.deleted).toBe(1);
  });
});
