import { beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../../worker/services/ingest/days';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer, makeOption, makePath } from '../factories/campaigns';
import { dbRows, waitForCount, waitForRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { hit, IPHONE_UA, postbackSecret } from '../factories/traffic';

// Each campaign type walked from the ad click to a conversion through the real Worker, the
// real ingest queue and the real local D1; every stored row and rollup value is checked.

const TZ = 'America/New_York'; // the installation time zone set up by the factories
let token: string;

beforeAll(async () => {
  token = await setupInstallation();
});

const count = (table: string, campaignId: number) =>
  waitForCount(`SELECT count(*) n FROM ${table} WHERE campaign_id = ?1`, [campaignId], 1);

/** The daily rollup rows of a campaign, without the day (checked separately). */
async function rollups(campaignId: number) {
  return dbRows(
    `SELECT target, path_id, landing_id, offer_id, visits, filtered_visits, lp_clicks, conversions, revenue_micros
     FROM daily_stats WHERE campaign_id = ?1 ORDER BY path_id, landing_id, offer_id, target`,
    campaignId,
  );
}

async function eventRollups(campaignId: number) {
  return dbRows(
    `SELECT target, landing_id, offer_id, event, events, revenue_micros FROM daily_event_stats
     WHERE campaign_id = ?1 ORDER BY event`,
    campaignId,
  );
}

async function expectDaysMatch(campaignId: number) {
  const days = await dbRows('SELECT DISTINCT day FROM daily_stats WHERE campaign_id = ?1', campaignId);
  const visit = (
    await dbRows('SELECT created_at, day FROM visits WHERE campaign_id = ?1 LIMIT 1', campaignId)
  )[0];
  expect(visit.day).toBe(dayIn(visit.created_at, TZ));
  expect(days.map((d) => d.day)).toContain(visit.day);
}

describe('landing_page campaign', () => {
  it('ad click -> landing page -> LP click -> offer -> postback, counted exactly', async () => {
    const id = await makeCampaign(token, {
      name: 'LP flow',
      campaignType: 'landing_page',
      affiliate_network: 'clickbank',
      extratokens: [
        { token_name: 'Sub 1', parameter: 'sub1', landing_page_enabled: 1, offer_page_enabled: 1 },
        { token_name: 'Placement', parameter: 'placement' },
      ],
    });
    const landing = await makeLanding(token, id, { url: 'https://lp.example/a?x=1' });
    const offer = await makeOffer(token, id, { url: 'https://offer.example/buy', payout: '12.34' });

    const visit = await hit(`/go/${id}?tid=creative-7&keyword=shoes&sub1=abc&placement=top`, {
      headers: { referer: 'https://news.example/article', 'cf-ipcountry': 'de' },
    });
    expect(visit.status).toBe(302);
    const lpUrl = new URL(visit.headers.get('location')!);
    expect(`${lpUrl.origin}${lpUrl.pathname}`).toBe('https://lp.example/a');
    expect(lpUrl.searchParams.get('x')).toBe('1');
    expect(lpUrl.searchParams.get('sub1')).toBe('abc');
    expect(lpUrl.searchParams.has('placement')).toBe(false);
    const clickId = lpUrl.searchParams.get('clickid')!;
    expect(clickId).toMatch(/^[a-z2-7]{30,45}$/);
    expect(visit.headers.get('set-cookie')).toContain(`etk_${id}=${clickId}`);
    expect(visit.headers.get('cache-control')).toContain('no-store');

    await count('visits', id);
    const [v] = await dbRows('SELECT * FROM visits WHERE campaign_id = ?1', id);
    expect(v).toMatchObject({
      click_id: clickId,
      path_id: 0,
      landing_id: landing,
      offer_id: 0,
      target: 'creative-7',
      keyword: 'shoes',
      device: 'desktop',
      country: 'DE',
      referrer: 'https://news.example/article',
      filter: null,
      direct: 0,
      t1: 'abc',
      t2: 'top',
      t3: null,
    });

    // The landing page's link to the offer carries the click id it received.
    const click = await hit(`/click/${id}?clickid=${clickId}&sub1=abc`);
    expect(click.status).toBe(302);
    const offerUrl = new URL(click.headers.get('location')!);
    expect(`${offerUrl.origin}${offerUrl.pathname}`).toBe('https://offer.example/buy');
    expect(offerUrl.searchParams.get('tid')).toBe(clickId); // clickbank's parameter
    expect(offerUrl.searchParams.get('sub1')).toBe('abc');

    await count('lp_clicks', id);
    const [l] = await dbRows('SELECT * FROM lp_clicks WHERE campaign_id = ?1', id);
    expect(l).toMatchObject({
      dedupe_key: clickId,
      click_id: clickId,
      landing_id: landing,
      offer_id: offer,
      target: 'creative-7',
      keyword: 'shoes',
      device: 'desktop',
      country: 'DE',
      filter: null,
      orphan: 0,
      visit_at: v.created_at,
      t1: 'abc',
      t2: 'top',
    });

    // The network's server-to-server postback, payout defaulting to the offer's.
    const postback = await hit(
      `/postback?clickid=${clickId}&txid=ORDER-1&secret=${await postbackSecret(clickId)}`,
    );
    expect(postback.status).toBe(200);
    expect(await postback.json()).toEqual({ data: { status: 'accepted', message: 'Conversion accepted.' } });

    await count('conversions', id);
    const [conv] = await dbRows('SELECT * FROM conversions WHERE campaign_id = ?1', id);
    expect(conv).toMatchObject({
      dedupe_key: `${clickId}|t|order-1`,
      click_id: clickId,
      landing_id: landing,
      offer_id: offer,
      target: 'creative-7',
      event: 'purchase',
      is_goal: 1,
      transaction_id: 'ORDER-1',
      payout_micros: 12_340_000,
      source: 'postback',
      orphan: 0,
      t1: 'abc',
    });

    expect(await rollups(id)).toEqual([
      {
        target: 'creative-7',
        path_id: 0,
        landing_id: landing,
        offer_id: 0,
        visits: 1,
        filtered_visits: 0,
        lp_clicks: 0,
        conversions: 0,
        revenue_micros: 0,
      },
      {
        target: 'creative-7',
        path_id: 0,
        landing_id: landing,
        offer_id: offer,
        visits: 0,
        filtered_visits: 0,
        lp_clicks: 1,
        conversions: 1,
        revenue_micros: 12_340_000,
      },
    ]);
    expect(await eventRollups(id)).toEqual([
      {
        target: 'creative-7',
        landing_id: landing,
        offer_id: offer,
        event: 'purchase',
        events: 1,
        revenue_micros: 12_340_000,
      },
    ]);
    await expectDaysMatch(id);
  });
});

describe('direct_link campaign', () => {
  it('ad click -> offer -> pixel conversion and a named event', async () => {
    const id = await makeCampaign(token, { name: 'Direct flow', campaignType: 'direct_link' });
    const offer = await makeOffer(token, id, { url: 'https://offer.example/go?s2={clickid}', payout: '3' });

    const visit = await hit(`/go/${id}?tid=t-1`, { headers: { 'user-agent': IPHONE_UA } });
    expect(visit.status).toBe(302);
    const offerUrl = new URL(visit.headers.get('location')!);
    const clickId = offerUrl.searchParams.get('s2')!;
    // The {clickid} macro placed the click id: no second parameter is added.
    expect(offerUrl.searchParams.has('clickid')).toBe(false);
    await count('visits', id);
    const [v] = await dbRows('SELECT * FROM visits WHERE campaign_id = ?1', id);
    expect(v).toMatchObject({
      click_id: clickId,
      landing_id: 0,
      offer_id: offer,
      device: 'mobile',
      target: 't-1',
    });

    // A thank-you page pixel with its own payout, then an add-to-cart event.
    const pixel = await hit(
      `/pixel.gif?clickid=${clickId}&payout=5.50&secret=${await postbackSecret(clickId)}`,
      {
        headers: { accept: 'image/*' },
      },
    );
    expect(pixel.status).toBe(200);
    expect(pixel.headers.get('content-type')).toBe('image/gif');
    expect((await pixel.arrayBuffer()).byteLength).toBe(42);
    const atc = await hit(`/pixel.gif?clickid=${clickId}&event=ATC1&secret=${await postbackSecret(clickId)}`);
    expect(atc.status).toBe(200);

    await waitForRows('conversions', id, 2);
    const convs = await dbRows(
      'SELECT event, is_goal, payout_micros, offer_id, source FROM conversions WHERE campaign_id = ?1 ORDER BY event',
      id,
    );
    expect(convs).toEqual([
      { event: 'atc1', is_goal: 0, payout_micros: 0, offer_id: offer, source: 'pixel' },
      { event: 'purchase', is_goal: 1, payout_micros: 5_500_000, offer_id: offer, source: 'pixel' },
    ]);
    await waitForCount(
      'SELECT coalesce(sum(events), 0) n FROM daily_event_stats WHERE campaign_id = ?1',
      [id],
      2,
    );
    expect(await rollups(id)).toEqual([
      {
        target: 't-1',
        path_id: 0,
        landing_id: 0,
        offer_id: offer,
        visits: 1,
        filtered_visits: 0,
        lp_clicks: 0,
        conversions: 1,
        revenue_micros: 5_500_000,
      },
    ]);
    expect(await eventRollups(id)).toEqual([
      { target: 't-1', landing_id: 0, offer_id: offer, event: 'atc1', events: 1, revenue_micros: 0 },
      {
        target: 't-1',
        landing_id: 0,
        offer_id: offer,
        event: 'purchase',
        events: 1,
        revenue_micros: 5_500_000,
      },
    ]);
    await expectDaysMatch(id);
  });
});

describe('rotator campaign', () => {
  it('ad click -> participant offer (meta refresh) -> POST postback', async () => {
    const id = await makeCampaign(token, {
      name: 'Rotator flow',
      campaignType: 'rotator',
      trafficSource: 'taboola', // choosing rotator clears the traffic source
      redirectType: 'meta',
    });
    const offerA = await makeOffer(token, id, {
      url: 'https://a.example/',
      share: 1,
      rotator_participant_email: 'a@example.com',
    });
    await makeOffer(token, id, {
      url: 'https://b.example/',
      share: 0,
      rotator_participant_email: 'b@example.com',
    });

    const visit = await hit(`/go/${id}?tid=r1`);
    expect(visit.status).toBe(200);
    const html = await visit.text();
    const match = /content="0;url=([^"]+)"/.exec(html);
    expect(match).not.toBeNull();
    const destination = new URL(match![1].replace(/&amp;/g, '&'));
    expect(destination.origin).toBe('https://a.example');
    const clickId = destination.searchParams.get('clickid')!;
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    await count('visits', id);

    const postback = await hit('/postback', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        clickid: clickId,
        payout: 7.25,
        txid: 'R-1',
        secret: await postbackSecret(clickId),
      }),
    });
    expect(postback.status).toBe(200);
    await count('conversions', id);
    expect(await rollups(id)).toEqual([
      {
        target: 'r1',
        path_id: 0,
        landing_id: 0,
        offer_id: offerA,
        visits: 1,
        filtered_visits: 0,
        lp_clicks: 0,
        conversions: 1,
        revenue_micros: 7_250_000,
      },
    ]);
    const detail = await api(`/api/campaign?campaignId=${id}`, { token });
    expect(detail.body.data.trafficSource).toBe('');
  });
});

describe('multiple_path_type campaign', () => {
  it('path by share, then its landing page and offer; the LP reads the click id from its own parameter', async () => {
    const id = await makeCampaign(token, {
      name: 'Path flow',
      campaignType: 'multiple_path_type',
      lpTargetParam: 'cid',
    });
    const pathA = await makePath(token, id, { name: 'A', share: 1 });
    const pathB = await makePath(token, id, { name: 'B', share: 0 });
    const landingA = await makeLanding(token, id, { pathId: pathA, url: 'https://lp.example/a' });
    await makeLanding(token, id, { pathId: pathB, url: 'https://lp.example/b' });
    const offerA = await makeOffer(token, id, {
      pathId: pathA,
      url: 'https://offer.example/a',
      payout: '20',
    });
    await makeOffer(token, id, { pathId: pathB, url: 'https://offer.example/b', payout: '99' });

    const visit = await hit(`/go/${id}?tid=p`);
    const lpUrl = new URL(visit.headers.get('location')!);
    expect(lpUrl.pathname).toBe('/a');
    const clickId = lpUrl.searchParams.get('cid')!;
    expect(clickId).toBeTruthy();
    await count('visits', id);

    // The landing page passes the click id on under the same name it received it.
    const click = await hit(`/click/${id}?cid=${clickId}`);
    const offerUrl = new URL(click.headers.get('location')!);
    expect(offerUrl.origin + offerUrl.pathname).toBe('https://offer.example/a');
    expect(offerUrl.searchParams.get('clickid')).toBe(clickId);
    await count('lp_clicks', id);

    await hit(`/postback?clickid=${clickId}&secret=${await postbackSecret(clickId)}`);
    await count('conversions', id);
    const [conv] = await dbRows(
      'SELECT path_id, landing_id, offer_id, payout_micros FROM conversions WHERE campaign_id = ?1',
      id,
    );
    expect(conv).toEqual({
      path_id: pathA,
      landing_id: landingA,
      offer_id: offerA,
      payout_micros: 20_000_000,
    });
    expect(await rollups(id)).toEqual([
      {
        target: 'p',
        path_id: pathA,
        landing_id: landingA,
        offer_id: 0,
        visits: 1,
        filtered_visits: 0,
        lp_clicks: 0,
        conversions: 0,
        revenue_micros: 0,
      },
      {
        target: 'p',
        path_id: pathA,
        landing_id: landingA,
        offer_id: offerA,
        visits: 0,
        filtered_visits: 0,
        lp_clicks: 1,
        conversions: 1,
        revenue_micros: 20_000_000,
      },
    ]);
  });
});

describe('multiple_option_type campaign', () => {
  it('the LP click names the option; the custom goal counts; double meta refresh hides the referrer', async () => {
    const id = await makeCampaign(token, {
      name: 'Option flow',
      campaignType: 'multiple_option_type',
      customConversionGoal: 'Lead',
      redirectType: 'double_meta',
    });
    const landing = await makeLanding(token, id, { url: 'https://lp.example/opt' });
    const optionX = await makeOption(token, id, { name: 'X' });
    const optionY = await makeOption(token, id, { name: 'Y' });
    await makeOffer(token, id, { optionId: optionX, url: 'https://offer.example/x', payout: '1' });
    const offerY = await makeOffer(token, id, {
      optionId: optionY,
      url: 'https://offer.example/y',
      payout: '2.5',
    });

    // First page refreshes to the signed hop, the hop to the landing page.
    const first = await hit(`/go/${id}?tid=o`);
    expect(first.status).toBe(200);
    const hopUrl = /content="0;url=([^"]+)"/.exec(await first.text())![1].replace(/&amp;/g, '&');
    expect(new URL(hopUrl).pathname).toBe('/go/_hop');
    const second = await hit(new URL(hopUrl).pathname + new URL(hopUrl).search);
    expect(second.status).toBe(200);
    const lpUrl = new URL(/content="0;url=([^"]+)"/.exec(await second.text())![1].replace(/&amp;/g, '&'));
    expect(lpUrl.origin + lpUrl.pathname).toBe('https://lp.example/opt');
    const clickId = lpUrl.searchParams.get('clickid')!;
    // A tampered hop is refused.
    const tampered = new URL(hopUrl);
    tampered.searchParams.set('u', btoa('https://evil.example/'));
    expect((await hit(tampered.pathname + tampered.search)).status).toBe(404);
    await count('visits', id);

    const click = await hit(`/click/${id}?clickid=${clickId}&option=${optionY}`);
    const offerPage = /content="0;url=([^"]+)"/.exec(await click.text());
    expect(offerPage).not.toBeNull(); // double meta applies to the LP click too
    await count('lp_clicks', id);
    const [l] = await dbRows('SELECT offer_id, option_id FROM lp_clicks WHERE campaign_id = ?1', id);
    expect(l).toEqual({ offer_id: offerY, option_id: optionY });

    // The iframe conversion without an event counts as the campaign's goal, 'lead'.
    const iframe = await hit(`/iframe?clickid=${clickId}&secret=${await postbackSecret(clickId)}`);
    expect(iframe.status).toBe(200);
    expect(iframe.headers.get('content-type')).toContain('text/html');
    await count('conversions', id);
    const [conv] = await dbRows(
      'SELECT event, is_goal, payout_micros, source FROM conversions WHERE campaign_id = ?1',
      id,
    );
    expect(conv).toEqual({ event: 'lead', is_goal: 1, payout_micros: 2_500_000, source: 'iframe' });
    expect(await rollups(id)).toEqual([
      {
        target: 'o',
        path_id: 0,
        landing_id: landing,
        offer_id: 0,
        visits: 1,
        filtered_visits: 0,
        lp_clicks: 0,
        conversions: 0,
        revenue_micros: 0,
      },
      {
        target: 'o',
        path_id: 0,
        landing_id: landing,
        offer_id: offerY,
        visits: 0,
        filtered_visits: 0,
        lp_clicks: 1,
        conversions: 1,
        revenue_micros: 2_500_000,
      },
    ]);
  });
});
