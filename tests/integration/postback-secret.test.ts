import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { campaignAlerts, conversionTotals, dbRows, dbValue, waitForCount } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { clickIdOf, hit, postbackSecret } from '../factories/traffic';

// Forged conversions (issue 10): anyone gets a click id by opening the campaign link, so the
// postback secret is what proves a conversion came from the network; negative payouts only
// reverse; a click converts a bounded number of times. docs/tracking.md, decision 042.

let admin: string;
const calls: string[] = [];
const realFetch = globalThis.fetch;
beforeAll(async () => {
  admin = await setupInstallation();
  // The traffic source's postback: recorded, so a refused conversion is seen never to fire it.
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (new URL(url).hostname === 'ts.example.com') {
      calls.push(url);
      return new Response('ok');
    }
    return realFetch(input, init);
  }) as typeof fetch;
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

/** A direct-link campaign with a traffic-source postback, and one visitor's click id. */
async function campaignWithClick() {
  const campaign = await makeCampaign(admin, {
    name: 'Secret',
    postback_enabled: 1,
    postback: 'https://ts.example.com/pb?c={clickid}&p={payout}',
  });
  await makeOffer(admin, campaign, { payout: '10' });
  const res = await hit(`/go/${campaign}`);
  const clickId = clickIdOf(res);
  await waitForCount('SELECT count(*) n FROM visits WHERE campaign_id = ?', [campaign], 1);
  return { campaign, clickId };
}

const settle = () => new Promise((r) => setTimeout(r, 400));

describe('postback secret', () => {
  it('refuses conversions without the right secret: 403, never stored, never forwarded, counted in the alerts', async () => {
    const { campaign, clickId } = await campaignWithClick();
    const forged = [
      `/postback?clickid=${clickId}&payout=99999&txid=F1`,
      `/postback?clickid=${clickId}&payout=99999&txid=F2&secret=guess`,
      `/pixel.gif?clickid=${clickId}&payout=99999&txid=F3`,
    ];
    for (const path of forged) {
      const res = await hit(path);
      expect(res.status, path).toBe(403);
      await res.arrayBuffer();
    }
    const json = await api(`/postback?clickid=${clickId}&payout=1&txid=F4`);
    expect(json.body).toEqual({
      message: 'The postback secret is missing or wrong.',
      errors: { secret: ['The postback secret is missing or wrong.'] },
    });
    await settle();
    expect(await conversionTotals(campaign)).toEqual({ conversions: 0, revenue_micros: 0 });
    expect(calls).toEqual([]);
    await waitForCount(
      "SELECT coalesce(sum(count), 0) n FROM conversion_rejections WHERE campaign_id = ? AND reason = 'secret'",
      [campaign],
      4,
    );
    const alert = (await campaignAlerts(campaign)).find((a) => a.key.startsWith('rejected-secret-'))!;
    expect(alert.type).toBe('postback');
    expect(alert.message).toMatch(
      /^4 conversions were refused on \d{4}-\d\d-\d\d \(UTC\) without the right postback secret\.$/,
    );

    const ok = await hit(
      `/postback?clickid=${clickId}&payout=12&txid=R1&secret=${await postbackSecret(clickId)}`,
    );
    expect(ok.status).toBe(200);
    await waitForCount('SELECT count(*) n FROM conversions WHERE campaign_id = ?', [campaign], 1);
    await waitForCount(
      "SELECT count(*) n FROM postback_log WHERE campaign_id = ? AND status = 'sent'",
      [campaign],
      1,
    );
    expect(calls).toEqual([`https://ts.example.com/pb?c=${clickId}&p=12.00`]);
  });

  it('rotates: the old secret stops working, the links show the new one', async () => {
    const { clickId, campaign } = await campaignWithClick();
    const old = await postbackSecret(campaign);
    const rotated = await api('/api/postback-secret/rotate', { method: 'POST', token: admin });
    expect(rotated.status).toBe(200);
    // Rotating the installation's secret rotates every derived campaign secret with it.
    const fresh = await postbackSecret(campaign);
    expect(fresh).not.toBe(old);
    expect(fresh).not.toBe(rotated.body.data.secret);
    expect((await hit(`/postback?clickid=${clickId}&txid=A&secret=${old}`)).status).toBe(403);
    expect((await hit(`/postback?clickid=${clickId}&txid=A&secret=${fresh}`)).status).toBe(200);
    const detail = await api(`/api/campaign?campaignId=${campaign}`, { token: admin });
    expect(detail.body.data.linkpixel.postback).toContain(`&secret=${fresh}`);
    expect(detail.body.data.linkpixel.pixel_url).toContain(`&secret=${fresh}`);
  });

  it('a campaign may have its own secret; the derived one then does not convert it', async () => {
    const { clickId, campaign } = await campaignWithClick();
    const derived = await postbackSecret(campaign);
    const own = await api(`/api/campaigns/${campaign}/postback-secret`, {
      token: admin,
      body: { own: true },
    });
    expect(own.status).toBe(200);
    expect((await hit(`/postback?clickid=${clickId}&txid=B&secret=${derived}`)).status).toBe(403);
    expect((await hit(`/postback?clickid=${clickId}&txid=B&secret=${own.body.data.secret}`)).status).toBe(
      200,
    );
  });

  it('only an admin sees or rotates the installation secret', async () => {
    const { userWithRole } = await import('../factories/install');
    const coach = await userWithRole(admin, 'coach');
    expect((await api('/api/postback-secret', { token: coach.token })).status).toBe(403);
    expect((await api('/api/postback-secret/rotate', { method: 'POST', token: coach.token })).status).toBe(
      403,
    );
    expect((await api('/api/postback-secret')).status).toBe(401);
  });
});

describe('negative payouts', () => {
  it('are refused unless they reverse an earlier conversion of the same click and txid', async () => {
    const { clickId, campaign } = await campaignWithClick();
    const secret = await postbackSecret(campaign);
    const alone = await api(`/postback?clickid=${clickId}&payout=-500&txid=X&secret=${secret}`);
    expect(alone.status).toBe(422);
    expect(alone.body.message).toBe(
      'A negative payout must reverse an earlier conversion of the same click and transaction id.',
    );
    expect((await hit(`/postback?clickid=${clickId}&payout=-5&secret=${secret}`)).status).toBe(422);

    expect((await hit(`/postback?clickid=${clickId}&payout=40&txid=ORD-1&secret=${secret}`)).status).toBe(
      200,
    );
    await waitForCount('SELECT count(*) n FROM conversions WHERE campaign_id = ?', [campaign], 1);
    // More than the sale was worth: refused.
    expect((await hit(`/postback?clickid=${clickId}&payout=-41&txid=ORD-1&secret=${secret}`)).status).toBe(
      422,
    );
    // The chargeback: the conversion shows reversed and revenue drops by it.
    expect((await hit(`/postback?clickid=${clickId}&payout=-40&txid=ord-1&secret=${secret}`)).status).toBe(
      200,
    );
    await waitForCount('SELECT count(*) n FROM conversions WHERE campaign_id = ?', [campaign], 2);
    const rows = await dbRows(
      'SELECT event, payout_micros, reversed_at IS NOT NULL AS reversed FROM conversions WHERE campaign_id = ? ORDER BY id',
      campaign,
    );
    expect(rows).toEqual([
      { event: 'purchase', payout_micros: 40_000_000, reversed: 1 },
      { event: 'chargeback', payout_micros: -40_000_000, reversed: 0 },
    ]);
    expect(
      await dbValue('SELECT sum(revenue_micros) n FROM daily_stats WHERE campaign_id = ?', campaign),
    ).toBe(0);
    // Reversed once only.
    expect((await hit(`/postback?clickid=${clickId}&payout=-40&txid=ORD-1&secret=${secret}`)).status).toBe(
      422,
    );
    expect(calls.filter((c) => c.includes(clickId))).toHaveLength(1);
  });
});

describe('per-click limits', () => {
  it('one conversion per txid, and at most the configured number of txids per click', async () => {
    await env.DB.prepare(
      "INSERT INTO settings (key, value) VALUES ('conversion_cap_per_click', '2') ON CONFLICT(key) DO UPDATE SET value = '2'",
    ).run();
    const { invalidateSettings } = await import('../../worker/services/settings/settings');
    invalidateSettings();
    const { clickId, campaign } = await campaignWithClick();
    const secret = await postbackSecret(campaign);
    const send = (tx: string) => hit(`/postback?clickid=${clickId}&payout=99999&txid=${tx}&secret=${secret}`);
    expect((await send('T1')).status).toBe(200);
    expect((await send('T1')).status).toBe(200); // a resend: counted once
    expect((await send('T2')).status).toBe(200);
    await waitForCount('SELECT count(*) n FROM conversions WHERE campaign_id = ?', [campaign], 2);
    const third = await send('T3');
    expect(third.status).toBe(429);
    expect((await send('T2')).status).toBe(200);
    await settle();
    expect(await dbValue('SELECT count(*) n FROM conversions WHERE campaign_id = ?', campaign)).toBe(2);
    expect(
      await dbValue(
        "SELECT count n FROM conversion_rejections WHERE campaign_id = ? AND reason = 'click_limit'",
        campaign,
      ),
    ).toBe(1);
  });
});
