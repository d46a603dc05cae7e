import { beforeAll, describe, expect, it } from 'vitest';
import { METAINFO_MESSAGES as MM } from '../../schema/campaign-metainfo';
import { CONNECTION_MESSAGES as CM } from '../../schema/connections-api';
import { numberSetsOf, statisticsRequestSchema } from '../../schema/stats-api';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { waitForRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { polledJob } from '../factories/reports';
import { postback, visitLink } from '../factories/traffic';
import { OTHER_SOURCE_TICKED_METRICS } from '../support/ticked-metrics';

// Issue 30 part B: the traffic sources spec 3 names (apple-news-feed, cdsp, jeeng) can be set,
// and each gets spec 3's statistics defaults: the cdsp metrics, the apple-news-feed sort and the
// number set of its source.

let token: string;

beforeAll(async () => {
  token = await setupInstallation();
});

async function statistics(campaignId: number, body: Record<string, unknown> = {}) {
  const res = await api('/api/statistics', {
    token,
    body: { campaignId, startDate: '', endDate: '', part: 'target', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function targetRows(campaignId: number, body: Record<string, unknown> = {}) {
  const queued = await statistics(campaignId, { force: true, ...body });
  const job = await polledJob(token, '/api/get-target-statistics', { uuid: queued.queueId });
  return job.data.data.targetRecords as {
    target: string;
    visits: number;
    conversions: number;
  }[];
}

const ticked = (answer: { metrics: { parameter: string; ticked: boolean }[] }) =>
  answer.metrics.filter((m) => m.ticked).map((m) => m.parameter);

describe('traffic sources of spec 3 §1', () => {
  it('saves apple-news-feed, cdsp and jeeng as a campaign source, and refuses a source it does not know', async () => {
    for (const source of ['apple-news-feed', 'cdsp', 'jeeng']) {
      const id = await makeCampaign(token, { name: `Source ${source}`, trafficSource: source });
      const detail = await api(`/api/campaign?campaignId=${id}`, { token });
      expect(detail.status).toBe(200);
      expect(detail.body.data.trafficSource).toBe(source);
      const edited = await api('/api/edit-campaign', {
        method: 'PUT',
        token,
        body: { campaignId: id, name: `Source ${source}`, trafficSource: 'cdsp' },
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    }
    const bad = await api('/api/add-campaign', {
      token,
      body: { name: 'Bad source', trafficSource: 'myspace' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.trafficSource).toEqual(['Select a valid traffic source.']);
  });

  it('ticks the cdsp metrics for a cdsp campaign and the other-promotion ones for jeeng and apple-news-feed', async () => {
    const cdsp = await makeCampaign(token, { name: 'CDSP metrics', trafficSource: 'cdsp' });
    expect(ticked(await statistics(cdsp))).toEqual([
      'lpclicks',
      'lpctr',
      'cpa',
      'cr',
      'ad_spent',
      'revenue',
      'net',
    ]);
    for (const source of ['jeeng', 'apple-news-feed']) {
      const id = await makeCampaign(token, { name: `Metrics ${source}`, trafficSource: source });
      const answer = await statistics(id);
      expect(answer.campaign.trafficSource).toBe(source);
      expect(new Set(ticked(answer))).toEqual(new Set(OTHER_SOURCE_TICKED_METRICS));
    }
  });

  it('sorts an apple-news-feed campaign by conversions, most first, when no sort is asked for', async () => {
    const id = await makeCampaign(token, {
      name: 'Apple feed sort',
      trafficSource: 'apple-news-feed',
      cpc: '1',
    });
    await makeOffer(token, id, { payout: '10' });
    await visitLink(id, 'many-visits');
    await visitLink(id, 'many-visits');
    await visitLink(id, 'many-visits');
    const buyer = await visitLink(id, 'one-sale');
    await waitForRows('visits', id, 4);
    expect((await postback(buyer, 'txid=APPLE-1')).status).toBe(200);
    await waitForRows('conversions', id, 1);
    const rows = await targetRows(id);
    expect(rows.map((r) => [r.target, r.visits, r.conversions])).toEqual([
      ['one-sale', 1, 1],
      ['many-visits', 3, 0],
    ]);
    // A sort the marketer picked still wins.
    const byVisits = await targetRows(id, { sortKey: 'visits', sortOrder: 'desc' });
    expect(byVisits.map((r) => r.target)).toEqual(['many-visits', 'one-sale']);
    // An empty sort key is no sort: the source's default again.
    const same = await targetRows(id, { sortKey: '', sortOrder: 'desc' });
    expect(same.map((r) => r.target)).toEqual(['one-sale', 'many-visits']);
  });

  it('gives each source its number set: liveintent, blaze and trrcpc one each, the others none', () => {
    const none = { showLiveIntentNumbers: false, showBlazeNumbers: false, showCPCNumbers: false };
    expect(numberSetsOf('liveintent')).toEqual({ ...none, showLiveIntentNumbers: true });
    expect(numberSetsOf('blaze')).toEqual({ ...none, showBlazeNumbers: true });
    expect(numberSetsOf('trrcpc')).toEqual({ ...none, showCPCNumbers: true });
    for (const source of ['apple-news-feed', 'cdsp', 'jeeng', 'crane', 'facebook', 'tiktok', 'taboola', ''])
      expect(numberSetsOf(source)).toEqual(none);
  });

  it('reads the number sets of a statistics request, as booleans or their text', async () => {
    const parsed = statisticsRequestSchema.parse({
      campaignId: 1,
      showLiveIntentNumbers: 'true',
      showBlazeNumbers: 0,
      showCPCNumbers: true,
    });
    expect(parsed).toMatchObject({
      showLiveIntentNumbers: true,
      showBlazeNumbers: false,
      showCPCNumbers: true,
    });
    const id = await makeCampaign(token, { name: 'Number sets sent', trafficSource: 'jeeng' });
    const answer = await statistics(id, numberSetsOf('jeeng'));
    expect(answer.campaign.trafficSource).toBe('jeeng');
  });
});

describe('the metainfo fields of spec 2 §3', () => {
  it('stores and answers the dataset id, event name, blaze placement, direct URL and campaign id, and the jeeng campaign id', async () => {
    const blaze = {
      current_placement_type: 'DEDICATED_PLACEMENT',
      placement_direct_url: 'https://blaze.example/placement/42',
      campaign_id: 'BLZ-77',
    };
    const id = await makeCampaign(token, {
      name: 'Metainfo fields',
      trafficSource: 'blaze',
      metainfo: { dataset_id: '123456789012345', event_name: 'Lead', blaze, jeeng: { campaign_id: 'J_901' } },
    });
    const detail = await api(`/api/campaign?campaignId=${id}`, { token });
    expect(detail.body.data.metainfo).toEqual({
      dataset_id: '123456789012345',
      event_name: 'Lead',
      blaze,
      jeeng: { campaign_id: 'J_901' },
    });
    // An edit writes the metainfo the form sends, alerts and other keys included.
    const edited = await api('/api/edit-campaign', {
      method: 'PUT',
      token,
      body: {
        campaignId: id,
        name: 'Metainfo fields',
        trafficSource: 'jeeng',
        metainfo: JSON.stringify({ jeeng: { campaign_id: 'J_902' }, alerts: [] }),
      },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const after = await api(`/api/campaign?campaignId=${id}`, { token });
    expect(after.body.data.metainfo).toEqual({ jeeng: { campaign_id: 'J_902' }, alerts: [] });
  });

  it('refuses each field written wrong, under its own key, and a blaze part that is not an object', async () => {
    const bad = await api('/api/add-campaign', {
      token,
      body: {
        name: 'Bad metainfo',
        metainfo: {
          dataset_id: 'pixel-1',
          event_name: 'two words',
          blaze: {
            current_placement_type: 'BILLBOARD',
            placement_direct_url: 'ftp://blaze.example/',
            campaign_id: 'a b',
          },
          jeeng: { campaign_id: 'j/1' },
        },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      'metainfo.dataset_id': [MM.datasetInvalid],
      'metainfo.event_name': [MM.eventInvalid],
      'metainfo.blaze.current_placement_type': [MM.placementInvalid],
      'metainfo.blaze.placement_direct_url': [MM.urlInvalid],
      'metainfo.blaze.campaign_id': [MM.externalIdInvalid],
      'metainfo.jeeng.campaign_id': [MM.externalIdInvalid],
    });
    const notObject = await api('/api/add-campaign', {
      token,
      body: { name: 'Bad blaze', metainfo: { blaze: 'dedicated' } },
    });
    expect(notObject.status).toBe(422);
    expect(notObject.body.errors).toEqual({ 'metainfo.blaze': [MM.metainfoInvalid] });
  });

  it('sends the Facebook test event as the campaign event name, and checks that name first', async () => {
    const bad = await api('/api/facebook/test-conversion', {
      token,
      body: { dataset_id: '123456789', test_event_code: 'TEST1', event_name: 'two words' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ event_name: [MM.eventInvalid] });
    // A valid name passes the checks; this installation has no Facebook account connected.
    const good = await api('/api/facebook/test-conversion', {
      token,
      body: { dataset_id: '123456789', test_event_code: 'TEST1', event_name: 'Lead' },
    });
    expect(good.status).toBe(409);
    expect(good.body.message).toBe(CM.fbNotConnected);
  });
});
