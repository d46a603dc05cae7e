import { env } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { AFFILIATE_NETWORK_PARAMS } from '../../schema/campaigns';
import { mintClickId, parseClickId } from '../../worker/services/hot-path/click-ids';
import { invalidateSettings, saveSettings } from '../../worker/services/settings/settings';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { dbRows, waitForCount, waitForRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { clickIdOf, hit, IPAD_UA, IPHONE_UA, postbackSecret } from '../factories/traffic';

// The public tracking routes at their edges: unknown, empty, inactive campaigns, forged and
// missing click ids, cookies, networks, bots, devices, direct tracking, configurable paths.

const token = await setupInstallation();

async function lpCampaign(body: Record<string, unknown> = {}) {
  const campaign = await makeCampaign(token, { campaignType: 'landing_page', ...body });
  const landing = await makeLanding(token, campaign, { url: 'https://lp.example/p' });
  const offer = await makeOffer(token, campaign, { url: 'https://offer.example/o', payout: '5' });
  return { campaign, landing, offer };
}

/** Visits the campaign link and answers the click id the landing page received. */
async function visitClickId(campaign: number, query = 'tid=x'): Promise<string> {
  return clickIdOf(await hit(`/go/${campaign}?${query}`));
}

describe('campaigns that cannot serve', () => {
  it('answers an unknown campaign with the plain 404 page and records nothing', async () => {
    for (const path of ['/go/999999', '/go/abc', '/go', '/click/999999', '/go/0']) {
      const res = await hit(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('Link not available');
    }
    const [n] = await dbRows('SELECT count(*) n FROM visits WHERE campaign_id = 999999');
    expect(n.n).toBe(0);
  });

  it('sends visitors of an empty campaign to its custom URL, else the 404 page, and records them flagged', async () => {
    const empty = await makeCampaign(token, { name: 'Empty', campaignType: 'landing_page' });
    const res = await hit(`/go/${empty}?tid=e`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Link not available');

    const withFallback = await makeCampaign(token, {
      name: 'Empty with fallback',
      campaignType: 'direct_link',
      custom_url: 'https://fallback.example/',
    });
    const redirected = await hit(`/go/${withFallback}`);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe('https://fallback.example/');

    await waitForCount(
      'SELECT count(*) n FROM visits WHERE campaign_id IN (?1, ?2)',
      [empty, withFallback],
      2,
    );
    const flagged = await dbRows(
      'SELECT campaign_id, filter, target FROM visits WHERE campaign_id IN (?1, ?2) ORDER BY campaign_id',
      empty,
      withFallback,
    );
    expect(flagged).toEqual([
      { campaign_id: empty, filter: 'unrouted', target: 'e' },
      { campaign_id: withFallback, filter: 'unrouted', target: '' },
    ]);
    const [stats] = await dbRows(
      'SELECT sum(visits) visits, sum(filtered_visits) filtered FROM daily_stats WHERE campaign_id = ?1',
      empty,
    );
    expect(stats).toEqual({ visits: 0, filtered: 1 });
  });

  it('sends visitors of an inactive campaign to its custom URL and records them flagged', async () => {
    const { campaign } = await lpCampaign({
      name: 'Paused',
      active: 0,
      custom_url: 'https://paused.example/',
    });
    const res = await hit(`/go/${campaign}?tid=z`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://paused.example/');
    await waitForRows('visits', campaign, 1);
    expect(await dbRows('SELECT filter FROM visits WHERE campaign_id = ?1', campaign)).toEqual([
      { filter: 'inactive' },
    ]);
    // Its landing-page link also goes to the fallback.
    const click = await hit(`/click/${campaign}`);
    expect(click.headers.get('location')).toBe('https://paused.example/');
  });

  it('treats a deleted campaign and a folder as unknown', async () => {
    const folder = await makeCampaign(token, { name: 'Folder' });
    await env.DB.prepare('UPDATE campaigns SET is_dir = 1 WHERE id = ?1').bind(folder).run();
    const { campaign } = await lpCampaign({ name: 'Deleted' });
    await env.DB.prepare('UPDATE campaigns SET deleted = 1 WHERE id = ?1').bind(campaign).run();
    // The routing cache keeps a campaign a few seconds; a fresh isolate sees the change at once.
    const { invalidateCompiledCampaign } = await import('../../worker/services/hot-path/compiled-campaigns');
    invalidateCompiledCampaign();
    expect((await hit(`/go/${folder}`)).status).toBe(404);
    expect((await hit(`/go/${campaign}`)).status).toBe(404);
  });
});

describe('click ids', () => {
  it('refuses a postback with a forged or malformed click id and loses nothing valid', async () => {
    const { campaign, landing } = await lpCampaign({ name: 'Forged' });
    const real = await visitClickId(campaign);
    const forged = await mintClickId(
      { CLICK_ID_SECRET: 'someone-elses-secret-0000000000', JWT_SECRET: '' },
      { campaignId: campaign, pathId: 0, landingId: landing, offerId: 0 },
    );
    for (const bad of [forged, 'garbage', `${real.slice(0, -2)}aa`]) {
      const res = await hit(`/postback?clickid=${bad}&payout=100`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        message: 'Click id is not valid.',
        errors: { clickid: ['Click id is not valid.'] },
      });
    }
    const pixel = await hit(`/pixel.gif?clickid=${forged}`);
    expect(pixel.status).toBe(400);
    expect(pixel.headers.get('content-type')).toBe('image/gif');
    expect(pixel.headers.get('x-tracker-result')).toBe('rejected');

    // The genuine conversion afterwards is counted, and it is the only one.
    await waitForRows('visits', campaign, 1);
    await hit(`/click/${campaign}?clickid=${real}`);
    expect(
      (await hit(`/postback?clickid=${real}&payout=2&secret=${await postbackSecret(real)}`)).status,
    ).toBe(200);
    await waitForRows('conversions', campaign, 1);
    expect(
      await dbRows('SELECT click_id, payout_micros FROM conversions WHERE campaign_id = ?1', campaign),
    ).toEqual([{ click_id: real, payout_micros: 2_000_000 }]);
  });

  it('answers a postback without a click id with a clear 400', async () => {
    const res = await hit('/postback?payout=5&txid=1');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'Click id is required.',
      errors: { clickid: ['Click id is required.'] },
    });
    const post = await hit('/postback', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(post.status).toBe(400);
    const pixel = await hit('/pixel.gif?campaign=1');
    expect(pixel.status).toBe(400);
    const script = await hit('/script.js');
    expect(script.status).toBe(400);
    expect(await script.text()).toBe('/* Click id is required. */');
  });

  it('refuses a bad payout or event name', async () => {
    const { campaign } = await lpCampaign({ name: 'Bad payout' });
    const id = await visitClickId(campaign);
    const res = await hit(`/postback?clickid=${id}&payout=ten`);
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).errors).toEqual({ payout: ['Payout must be a number.'] });
    const ev = await hit(`/postback?clickid=${id}&event=${encodeURIComponent('<script>')}`);
    expect(ev.status).toBe(422);
  });

  it('sends a landing-page click with a forged id on to an offer under a new, genuine click id', async () => {
    const { campaign, offer } = await lpCampaign({ name: 'Forged LP click' });
    const forged = await mintClickId(
      { CLICK_ID_SECRET: 'someone-elses-secret-0000000000', JWT_SECRET: '' },
      { campaignId: campaign, pathId: 0, landingId: 1, offerId: 0 },
    );
    const res = await hit(`/click/${campaign}?clickid=${forged}`);
    expect(res.status).toBe(302);
    const fresh = clickIdOf(res);
    expect(fresh).not.toBe(forged);
    expect(await parseClickId(env, fresh)).toMatchObject({ campaignId: campaign, offerId: offer });
    await waitForRows('lp_clicks', campaign, 1);
    expect(await dbRows('SELECT click_id, filter FROM visits WHERE campaign_id = ?1', campaign)).toEqual([
      { click_id: fresh, filter: 'lp_direct' },
    ]);
    expect(
      await dbRows('SELECT click_id, offer_id, orphan FROM lp_clicks WHERE campaign_id = ?1', campaign),
    ).toEqual([{ click_id: fresh, offer_id: offer, orphan: 0 }]);
  });

  it('falls back to the first-party cookie when the landing page drops the click id', async () => {
    const { campaign, offer } = await lpCampaign({ name: 'Cookie' });
    const visit = await hit(`/go/${campaign}?tid=c`);
    const cookie = visit.headers.get('set-cookie')!.split(';')[0];
    const clickId = cookie.split('=')[1];
    expect(visit.headers.get('set-cookie')).toContain('HttpOnly');
    expect(visit.headers.get('set-cookie')).toContain('SameSite=Lax'); // http in tests; None+Secure on https
    await waitForRows('visits', campaign, 1);

    const click = await hit(`/click/${campaign}`, { headers: { cookie } });
    expect(new URL(click.headers.get('location')!).searchParams.get('clickid')).toBe(clickId);
    await waitForRows('lp_clicks', campaign, 1);

    // A pixel on the thank-you page names the campaign; the cookie gives the click id.
    const pixel = await hit(`/pixel.gif?campaign=${campaign}&secret=${await postbackSecret(campaign)}`, {
      headers: { cookie },
    });
    expect(pixel.status).toBe(200);
    await waitForRows('conversions', campaign, 1);
    expect(
      await dbRows(
        'SELECT click_id, offer_id, payout_micros, source FROM conversions WHERE campaign_id = ?1',
        campaign,
      ),
    ).toEqual([{ click_id: clickId, offer_id: offer, payout_micros: 5_000_000, source: 'pixel' }]);
    // A cookie of another campaign is not taken for this one.
    const other = await hit(`/pixel.gif?campaign=${campaign + 1000}`, { headers: { cookie } });
    expect(other.status).toBe(400);
  });
});

describe('offer parameters', () => {
  it("puts the click id in each affiliate network's parameter", async () => {
    for (const [network, param] of Object.entries(AFFILIATE_NETWORK_PARAMS)) {
      const campaign = await makeCampaign(token, {
        name: network,
        campaignType: 'direct_link',
        affiliate_network: network,
      });
      await makeOffer(token, campaign, { url: 'https://network.example/hop?aff=me' });
      const res = await hit(`/go/${campaign}`);
      const url = new URL(res.headers.get('location')!);
      expect(url.searchParams.get('aff')).toBe('me');
      const clickId = url.searchParams.get(param)!;
      expect(await parseClickId(env, clickId)).toMatchObject({ campaignId: campaign });
      const detail = await api(`/api/campaign?campaignId=${campaign}`, { token });
      expect(detail.body.data.opTargetParam).toBe(param);
    }
  });

  it("uses an offer's own postback parameter over the network's", async () => {
    const campaign = await makeCampaign(token, {
      name: 'Override',
      campaignType: 'direct_link',
      affiliate_network: 'maxweb',
    });
    await makeOffer(token, campaign, { url: 'https://network.example/x', postback: 'aff_sub2' });
    const url = new URL((await hit(`/go/${campaign}`)).headers.get('location')!);
    expect(url.searchParams.has('subid')).toBe(false);
    expect(url.searchParams.get('aff_sub2')).toMatch(/^[a-z2-7]+$/);
  });
});

describe('bots and devices', () => {
  it('stores bots, HEAD and prefetch requests flagged and still sends them on', async () => {
    const { campaign } = await lpCampaign({ name: 'Bots' });
    const bot = await hit(`/go/${campaign}`, {
      headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    });
    expect(bot.status).toBe(302);
    expect((await hit(`/go/${campaign}`, { method: 'HEAD' })).status).toBe(302);
    expect((await hit(`/go/${campaign}`, { headers: { 'sec-purpose': 'prefetch' } })).status).toBe(302);
    expect((await hit(`/go/${campaign}`)).status).toBe(302);
    await waitForRows('visits', campaign, 4);
    const flags = await dbRows('SELECT filter FROM visits WHERE campaign_id = ?1 ORDER BY filter', campaign);
    expect(flags.map((r) => r.filter)).toEqual([null, 'bot', 'head', 'prefetch']);
    await waitForCount(
      'SELECT coalesce(sum(visits + filtered_visits), 0) n FROM daily_stats WHERE campaign_id = ?1',
      [campaign],
      4,
    );
    const [stats] = await dbRows(
      'SELECT sum(visits) visits, sum(filtered_visits) filtered FROM daily_stats WHERE campaign_id = ?1',
      campaign,
    );
    expect(stats).toEqual({ visits: 1, filtered: 3 });
  });

  it('routes each device only to the pages whose agents include it', async () => {
    const campaign = await makeCampaign(token, { name: 'Devices', campaignType: 'landing_page' });
    const desktop = await makeLanding(token, campaign, { url: 'https://lp.example/desktop', agents: [2] });
    const mobile = await makeLanding(token, campaign, { url: 'https://lp.example/mobile', agents: '3' });
    await makeOffer(token, campaign);
    for (let i = 0; i < 6; i++) {
      expect(new URL((await hit(`/go/${campaign}`)).headers.get('location')!).pathname).toBe('/desktop');
      expect(
        new URL(
          (await hit(`/go/${campaign}`, { headers: { 'user-agent': IPHONE_UA } })).headers.get('location')!,
        ).pathname,
      ).toBe('/mobile');
    }
    // No page for tablets: the visitor gets the 404 page and the visit is stored flagged.
    expect((await hit(`/go/${campaign}`, { headers: { 'user-agent': IPAD_UA } })).status).toBe(404);
    await waitForRows('visits', campaign, 13);
    const byDevice = await dbRows(
      'SELECT device, landing_id, filter, count(*) n FROM visits WHERE campaign_id = ?1 GROUP BY 1, 2, 3 ORDER BY 1',
      campaign,
    );
    expect(byDevice).toEqual([
      { device: 'desktop', landing_id: desktop, filter: null, n: 6 },
      { device: 'mobile', landing_id: mobile, filter: null, n: 6 },
      { device: 'tablet', landing_id: 0, filter: 'unrouted', n: 1 },
    ]);
  });
});

describe('direct tracking script', () => {
  it('records the visit from the landing page and decorates its offer links', async () => {
    const { campaign, landing } = await lpCampaign({
      name: 'Direct',
      extratokens: [{ token_name: 'S1', parameter: 's1', offer_page_enabled: 1 }],
    });
    const res = await hit(
      `/script.js?mode=visit&campaign=${campaign}&lp=${landing}&tid=ad-9&s1=v&_ref=${encodeURIComponent('https://fb.example/')}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    const js = await res.text();
    const clickId = /"id":"([a-z2-7]+)"/.exec(js)![1];
    expect(js).toContain(`"prefix":"http://tracker.test/click"`);
    expect(js).toContain('"forward":["s1"]');
    await waitForRows('visits', campaign, 1);
    expect(
      await dbRows(
        'SELECT click_id, landing_id, target, referrer, direct, t1 FROM visits WHERE campaign_id = ?1',
        campaign,
      ),
    ).toEqual([
      {
        click_id: clickId,
        landing_id: landing,
        target: 'ad-9',
        referrer: 'https://fb.example/',
        direct: 1,
        t1: 'v',
      },
    ]);

    // A page that arrived through the redirect already has its click id: no second visit.
    const again = await hit(`/script.js?mode=visit&campaign=${campaign}&lp=${landing}&clickid=${clickId}`);
    expect(await again.text()).toContain(`"id":"${clickId}"`);
    const sentinel = await visitClickId(campaign);
    await waitForCount('SELECT count(*) n FROM visits WHERE click_id = ?1', [sentinel], 1);
    const [n] = await dbRows('SELECT count(*) n FROM visits WHERE campaign_id = ?1', campaign);
    expect(n.n).toBe(2);
  });
});

describe('configurable routes', () => {
  afterAll(async () => {
    await env.DB.prepare("DELETE FROM settings WHERE key IN ('route_main', 'route_click')").run();
    invalidateSettings();
  });

  it('serves the tracking link on the path set in settings, and the SPA elsewhere', async () => {
    const { campaign } = await lpCampaign({ name: 'Routes' });
    await saveSettings(env, { route_main: 'visit', route_click: 'out/offer' });
    const res = await hit(`/visit/${campaign}?tid=r`);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).origin).toBe('https://lp.example');
    const clickId = new URL(res.headers.get('location')!).searchParams.get('clickid');
    const click = await hit(`/out/offer/${campaign}?clickid=${clickId}`);
    expect(new URL(click.headers.get('location')!).origin).toBe('https://offer.example');
    // The old path is no longer a tracking route: the static assets (the SPA) answer it.
    const spa = await hit(`/go/${campaign}`);
    expect(spa.status).not.toBe(302);
    expect(await spa.text()).not.toContain('Link not available');
    const detail = await api(`/api/campaign?campaignId=${campaign}`, { token });
    expect(detail.body.data.linkpixel.campaignURL).toBe(
      `https://tracker.example.com/visit/${campaign}?tid=REPLACE_WITH_AD_ID`,
    );
    expect(detail.body.data.linkpixel.lpofferlink_simple).toBe(
      `https://tracker.example.com/out/offer/${campaign}`,
    );
  });
});

describe('one tracking pass per request', () => {
  it("answers tracking links in the Worker's fetch only: the app's catch-all serves the SPA without asking again", async () => {
    const { campaign } = await lpCampaign({ name: 'One pass' });
    let assets = 0;
    const spaEnv = {
      ...env,
      ASSETS: {
        fetch: async () => {
          assets += 1;
          return new Response('<!doctype html><title>SPA</title>', {
            headers: { 'content-type': 'text/html' },
          });
        },
      },
    } as unknown as typeof env;
    const { createApp } = await import('../../worker/app');
    const { default: worker } = await import('../../worker/index');
    const ctx = {
      waitUntil: () => {},
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext;
    const link = `http://tracker.test/go/${campaign}?tid=once`;
    // Through the Worker: the tracking handler answers, the app (and the assets) never see it.
    const tracked = await worker.fetch(new Request(link), spaEnv, ctx);
    expect(tracked.status).toBe(302);
    expect(assets).toBe(0);
    // The app alone no longer runs the tracking handler: a path reaching it is the SPA's.
    const spa = await createApp().app.fetch(new Request(link), spaEnv, ctx);
    expect(await spa.text()).toContain('<title>SPA</title>');
    expect(assets).toBe(1);
  });
});
