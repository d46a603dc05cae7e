import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { forgetReportMemory } from '../../worker/services/money/report-cache';
import { reportThrottled } from '../../worker/services/money/report-throttle';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';

// Issue 24, item 6: the public rotator report had no limit on guessing emails. Misses are
// counted like failed logins (docs/decisions/041, 125): per (offer, address), per offer and per
// address over every offer; an address that must wait gets 429 with Retry-After. The cached
// answer of a right email is still served at once (docs/decisions/053).

let offer: number;
let otherOffer: number;

beforeAll(async () => {
  const admin = await setupInstallation();
  const rotator = await makeCampaign(admin, { name: 'Throttled rotator', campaignType: 'rotator' });
  offer = await makeOffer(admin, rotator, { name: 'Carol', rotator_participant_email: 'carol@example.com' });
  otherOffer = await makeOffer(admin, rotator, { name: 'Dan', rotator_participant_email: 'dan@example.com' });
});

const report = (offerId: number, email: string, ip: string) =>
  SELF.fetch(`http://tracker.test/api/rotators/reports/${offerId}?email=${encodeURIComponent(email)}`, {
    headers: { 'CF-Connecting-IP': ip },
  });

async function statuses(requests: (() => Promise<Response>)[]) {
  const out: number[] = [];
  for (const r of requests) {
    const res = await r();
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

describe('guessing report emails', () => {
  it('answers 429 with Retry-After from the sixth miss of one address for one offer', async () => {
    const ip = '203.0.113.10';
    const guesses = ['a', 'b', 'c', 'd', 'e'].map((g) => () => report(offer, `${g}@example.com`, ip));
    expect(await statuses(guesses)).toEqual([404, 404, 404, 404, 404]);
    const sixth = await report(offer, 'f@example.com', ip);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('1');
    expect(await sixth.json()).toEqual({
      message: reportThrottled(1),
      errors: { message: [reportThrottled(1)] },
    });
    // The refused guess was not even checked: nothing more was counted for it.
    const counted = await env.DB.prepare(
      'SELECT count(*) AS n FROM login_failures WHERE username = ?1 AND ip = ?2',
    )
      .bind(`report:${offer}`, ip)
      .first<{ n: number }>();
    expect(counted!.n).toBe(5);
  });

  it('still hears another address, and serves the cached right answer to the waiting one', async () => {
    const guesser = '203.0.113.11';
    for (const g of ['a', 'b', 'c', 'd', 'e'])
      await (await report(otherOffer, `${g}@x.test`, guesser)).arrayBuffer();
    expect((await report(otherOffer, 'dan@example.com', guesser)).status).toBe(429);
    const owner = await report(otherOffer, 'dan@example.com', '203.0.113.12');
    expect(owner.status).toBe(200);
    expect(((await owner.json()) as any).data.offer_name).toBe('Dan');
    // The answer is now cached: the hit is served before the throttle is asked.
    const hit = await report(otherOffer, 'dan@example.com', guesser);
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-report-cache')).toBe('hit');
  });

  it('counts one address over every offer: the eleventh miss on ten other offers waits', async () => {
    const ip = '203.0.113.13';
    forgetReportMemory();
    const misses = Array.from({ length: 10 }, (_, i) => () => report(900_000 + i, 'x@example.com', ip));
    expect(await statuses(misses)).toEqual(Array(10).fill(404));
    const next = await report(900_100, 'x@example.com', ip);
    expect(next.status).toBe(429);
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
