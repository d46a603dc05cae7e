import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { setItemsActive } from '../../worker/services/campaigns/item-switch';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { campaignAlerts, dbRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { hit } from '../factories/traffic';

// One way to switch an item (worker/services/campaigns/item-switch.ts): whichever screen switches a page,
// the routing cached in this isolate is dropped, so the very next click already obeys it. The
// tests and SELF share one isolate, and the routing cache keeps a campaign for 5 s: without the
// invalidation the clicks below would still reach the page switched off.

const token = await setupInstallation();

const CLICKS = 24;

/** Where the next clicks on the campaign's link go (the redirect's location). */
async function destinations(campaignId: number, n = CLICKS) {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await hit(`/go/${campaignId}?tid=t${i}`);
    expect(res.status).toBe(302);
    out.push(new URL(res.headers.get('location')!).origin);
  }
  return out;
}

/** Where the next landing-page clicks go (no click id: each is routed afresh). */
async function offerDestinations(campaignId: number, n = CLICKS) {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await hit(`/click/${campaignId}`);
    expect(res.status).toBe(302);
    out.push(new URL(res.headers.get('location')!).origin);
  }
  return out;
}

async function twoPages(name: string) {
  const id = await makeCampaign(token, { name, campaignType: 'landing_page' });
  const a = await makeLanding(token, id, { name: 'A', url: 'https://a.example/' });
  const b = await makeLanding(token, id, { name: 'B', url: 'https://b.example/' });
  await makeOffer(token, id, { url: 'https://offer.example/' });
  return { id, a, b };
}

describe('switching an item reaches the next click in the same isolate', () => {
  it('a landing page switched off in the statistics table gets none of the next clicks', async () => {
    const { id, a } = await twoPages('Stats switch');
    // Warm the isolate's routing cache with both pages live.
    expect(new Set(await destinations(id))).toEqual(new Set(['https://a.example', 'https://b.example']));

    const off = await api('/api/update-landing-status', { token, body: { landingId: a, status: 0 } });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ status: true, active: 0, message: 'Landing page status updated.' });
    expect(await destinations(id)).toEqual(Array(CLICKS).fill('https://b.example'));

    // And back on: the next clicks reach it again.
    await api('/api/update-landing-status', { token, body: { landingId: a, status: 1 } });
    expect(await destinations(id)).toContain('https://a.example');
  });

  it('a bulk switch does the same, and passes over deleted pages', async () => {
    const { id, a, b } = await twoPages('Bulk switch');
    const c = await makeLanding(token, id, { name: 'C', url: 'https://c.example/' });
    const gone = await makeLanding(token, id, { name: 'Gone', url: 'https://gone.example/' });
    await env.DB.prepare('UPDATE landing_pages SET deleted = 1 WHERE id = ?1').bind(gone).run();
    await destinations(id, 6);
    const res = await api('/api/update-landing-status-many', {
      token,
      body: { landingIds: [a, b, gone], status: 0 },
    });
    expect(res.body.data).toEqual({ updated: 2, active: 0 });
    expect(await destinations(id)).toEqual(Array(CLICKS).fill('https://c.example'));
    const flags = await env.DB.prepare(
      'SELECT id, active FROM landing_pages WHERE campaign_id = ?1 ORDER BY id',
    )
      .bind(id)
      .all();
    expect(flags.results).toEqual([
      { id: a, active: 0 },
      { id: b, active: 0 },
      { id: c, active: 1 },
      { id: gone, active: 1 },
    ]);
  });

  it('an offer switched off in the statistics table gets none of the next landing-page clicks', async () => {
    const { id } = await twoPages('Offer switch');
    const second = await makeOffer(token, id, { name: 'Second', url: 'https://second.example/' });
    expect(new Set(await offerDestinations(id))).toEqual(
      new Set(['https://offer.example', 'https://second.example']),
    );
    const off = await api('/api/update-offer-status', { token, body: { offerId: second, status: 0 } });
    expect(off.body.data).toEqual({ active: 0 });
    expect(await offerDestinations(id)).toEqual(Array(CLICKS).fill('https://offer.example'));
  });

  it("the editor's save switches through the same path", async () => {
    const { id, a } = await twoPages('Editor switch');
    await destinations(id, 6);
    const res = await api('/api/edit-landing', {
      method: 'PUT',
      token,
      body: { campaignId: id, landingPageId: a, name: 'A renamed', url: 'https://a.example/', active: 0 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.landing).toMatchObject({ landingPageId: a, name: 'A renamed', active: 0 });
    expect(await destinations(id)).toEqual(Array(CLICKS).fill('https://b.example'));
  });

  it('refuses a deleted page and an unknown id without switching anything', async () => {
    const { a } = await twoPages('Refusals');
    const { id: other, a: otherA } = await twoPages('Deleted item');
    await env.DB.prepare('UPDATE landing_pages SET deleted = 1 WHERE id = ?1').bind(otherA).run();
    const deleted = await api('/api/update-landing-status', {
      token,
      body: { landingId: otherA, status: 0 },
    });
    expect(deleted.status).toBe(422);
    expect(deleted.body.message).toBe('A deleted item cannot be switched. Restore it first.');
    const unknown = await api('/api/update-landing-status-many', {
      token,
      body: { landingIds: [a, 999_999], status: 0 },
    });
    expect(unknown.status).toBe(404);
    const flags = await env.DB.prepare(
      'SELECT count(*) n FROM landing_pages WHERE campaign_id IN (?1, ?2) AND active = 0',
    )
      .bind(other, a)
      .first<{ n: number }>();
    expect(flags!.n).toBe(0);
  });
});

describe('setItemsActive', () => {
  it('switches only live items of the campaign that are not already in that state', async () => {
    const { id, a, b } = await twoPages('Direct');
    const { a: foreign } = await twoPages('Foreign');
    const first = await setItemsActive(env, {
      campaignId: id,
      kind: 'landing',
      ids: [a, b, foreign],
      active: 0,
      actor: { kind: 'user', userId: 1 },
    });
    expect(first).toEqual([
      { id: a, name: 'A' },
      { id: b, name: 'B' },
    ]);
    const again = await setItemsActive(env, {
      campaignId: id,
      kind: 'landing',
      ids: [a],
      active: 0,
      actor: { kind: 'user', userId: 1 },
    });
    expect(again).toEqual([]);
    const foreignRow = await env.DB.prepare('SELECT active FROM landing_pages WHERE id = ?1')
      .bind(foreign)
      .first<{ active: number }>();
    expect(foreignRow!.active).toBe(1);
  });

  it("keeps the campaign's last active page on, and logs and alerts the optimiser's switches", async () => {
    const { id, a, b } = await twoPages('Keep one');
    const now = Date.UTC(2026, 10, 20);
    const changed = await setItemsActive(env, {
      campaignId: id,
      kind: 'landing',
      ids: [a, b],
      active: 0,
      actor: { kind: 'optimizer', reason: 'roi -100 below threshold 10' },
      keepOneActive: true,
      now,
    });
    expect(changed).toEqual([{ id: a, name: 'A' }]);
    expect(
      await dbRows('SELECT landing_id, action, reason FROM optimizer_log WHERE campaign_id = ?1', id),
    ).toEqual([{ landing_id: a, action: 'deactivated', reason: 'roi -100 below threshold 10' }]);
    const alerts = await campaignAlerts(id);
    expect(alerts).toEqual([
      {
        type: 'optimizer',
        message: 'Auto-optimiser switched off landing page "A": roi -100 below threshold 10.',
        created_at: now,
        key: `optimizer:${a}:${now}`,
      },
    ]);
  });
});
