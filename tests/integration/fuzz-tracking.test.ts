import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintClickId } from '../../worker/services/hot-path/click-ids';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';
import { postbackSecret } from '../factories/traffic';
import { FuzzChecker, HOSTILE, invalidUtf8, UNREADABLE } from '../fuzz-support';

// The fuzz suite, tracking half (issue 10; the /api/ half is tests/fuzz-api-suite.ts, run by
// fuzz-api-*.test.ts, each in a fresh isolate): malformed and hostile input to every public
// tracking route, by every method. Each answer must be below 500 and carry no stack trace; a
// refused request (4xx) must leave the database exactly as it was, and no refused conversion is
// stored. The checks are tests/fuzz-support.ts; the number of cases is printed (docs/operations.md).

let campaignId = 0;
const fuzz = new FuzzChecker();

beforeAll(async () => {
  const admin = await setupInstallation();
  campaignId = await makeCampaign(admin, { name: 'Fuzz target', campaignType: 'landing_page' });
  await makeOffer(admin, campaignId);
  // Made at first need: made here, so that no refused request of the suite is the one to make it.
  await postbackSecret(campaignId);
});

afterAll(() => {
  console.log(`fuzz (tracking): ${fuzz.cases} cases tried`);
});

describe('fuzz: every public tracking route', () => {
  const routes = ['/go', '/click', '/pixel.gif', '/iframe', '/script.js', '/postback', '/go/_hop'];
  const queries = [
    '',
    '/abc',
    '/-1',
    '/99999999999999999999',
    `/1?clickid=${encodeURIComponent(HOSTILE[0])}&payout=1e308&txid=${encodeURIComponent(HOSTILE[2])}`,
    '/1?clickid=%FF%FE&payout=-1&event=%00',
    '/1?campaign=1&mode=visit&lp=-5&_ref=javascript:alert(1)',
    `/1?tid=${'t'.repeat(20_000)}`,
    '/_hop?u=%%%&s=x',
    '?clickid=aeaqaaiawwt4uk7jhmzmolgfds6yoxkrooaa&payout=NaN&secret=',
  ];
  it.each(routes)('%s', { timeout: 120_000 }, async (route) => {
    await fuzz.checkedGroup(async () => {
      for (const q of queries) {
        for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']) {
          await fuzz.send(method, `${route}${q}`, null, {
            name: 'hostile body',
            body: invalidUtf8,
            type: 'application/json',
          });
        }
        await fuzz.send('POST', `${route}${q}`, null, {
          name: 'form',
          body: `clickid=${encodeURIComponent(HOSTILE[1])}&payout=-500&secret=${encodeURIComponent(HOSTILE[3])}`,
          type: 'application/x-www-form-urlencoded',
        });
      }
    });
    // A real click id with a wrong secret, a negative payout and a huge one: all refused.
    const secret = await postbackSecret(campaignId);
    const visit = await SELF.fetch(`http://tracker.test/go/${campaignId}`, { redirect: 'manual' });
    const clickId = new URL(visit.headers.get('location') ?? 'http://x/').searchParams.get('clickid') ?? '';
    for (const q of ['payout=-500&txid=x', `payout=99999999999999999&txid=y&secret=${secret}x`, 'payout=1']) {
      await fuzz.send('GET', `${route}?campaign=${campaignId}&clickid=${clickId}&${q}`, null);
    }
    await new Promise((r) => setTimeout(r, 100));
    const stored = await env.DB.prepare('SELECT count(*) n FROM conversions').first<{ n: number }>();
    expect(stored?.n, 'a refused conversion was stored').toBe(0);
  });

  it.each(['/pixel.gif', '/iframe', '/script.js', '/postback'])(
    'POST %s with an unreadable body: 400, nothing stored',
    async (route) => {
      // A valid click id and secret in the query: only the body is wrong.
      const clickId = mintClickId(env, { campaignId, pathId: 0, landingId: 0, offerId: 0 });
      const secret = await postbackSecret(campaignId);
      await fuzz.checkedGroup(async () => {
        for (const payload of UNREADABLE) {
          const status = await fuzz.send(
            'POST',
            `${route}?clickid=${clickId}&payout=5&secret=${secret}`,
            null,
            payload,
          );
          expect(status, `${route} with ${payload.name}`).toBe(400);
          // The pixel and the iframe answer their usual body; the postback and the script say why.
          if (route === '/postback' || route === '/script.js') {
            expect(fuzz.lastText, `${route} with ${payload.name}`).toContain(payload.message);
          }
        }
      });
      await new Promise((r) => setTimeout(r, 100));
      const stored = await env.DB.prepare('SELECT count(*) n FROM conversions').first<{ n: number }>();
      expect(stored?.n, 'a conversion with an unreadable body was stored').toBe(0);
    },
  );
});
