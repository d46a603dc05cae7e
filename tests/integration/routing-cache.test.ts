import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Env } from '../../worker/env';
import { campaignCacheForTests } from '../../worker/services/hot-path/compiled-campaigns';
import { CHECK_MS } from '../../worker/services/hot-path/swr-cache';
import { settingsCacheForTests } from '../../worker/services/settings/settings';
import { handleTracking } from '../../worker/tracking/handler';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';

// The click's two-level routing cache (docs/decisions/100). The clicks here go through the
// tracking handler of this module graph, so the test controls its isolate cache (level 1) and
// sees the data centre's Cache API (level 2); the changes go through the product's API.
// The bound: a change is honoured from the first click that starts after a version check that
// began after the change; a check starts on the first click CHECK_MS after the previous one.
// Under traffic that is CHECK_MS plus one D1 read and one click.

let token: string;
// CHECK_MS, one local D1 read and the click that starts the check, with room for a machine whose
// two cores are shared with other runs (a click and its waitUntil can take a few hundred ms).
const BOUND_MS = CHECK_MS + 900;

beforeAll(async () => {
  token = await setupInstallation();
});

beforeEach(async () => {
  await campaignCacheForTests.simulate({ forget: true, shared: true });
  await settingsCacheForTests.simulate({ forget: true, shared: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One click on the campaign's link, answered by the tracking handler; its location's origin. */
async function click(id: number, db: D1Database = env.DB) {
  const ctx = createExecutionContext();
  const res = await handleTracking(
    new Request(`http://tracker.test/go/${id}?tid=t`, {
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0 Safari/537.36' },
      redirect: 'manual',
    }),
    { ...(env as unknown as Env), DB: db },
    ctx,
  );
  // The background check and the event batch finish before the next click.
  await waitOnExecutionContext(ctx);
  expect(res?.status).toBe(302);
  return new URL(res!.headers.get('location')!).origin;
}

async function clicks(id: number, n = 16) {
  const out = new Set<string>();
  for (let i = 0; i < n; i++) out.add(await click(id));
  return out;
}

/**
 * Clicks every 50 ms from the moment of a change until well past the bound: how long after the
 * change a click last went the old way (-1: never), then where 16 more clicks go.
 */
async function lastOldClickAfter(id: number, old: string, changedAt: number) {
  let last = -1;
  while (Date.now() - changedAt < BOUND_MS + 600) {
    if ((await click(id)) === old) last = Date.now() - changedAt;
    await sleep(50);
  }
  return { last, after: await clicks(id) };
}

async function twoPages(name: string, body: Record<string, unknown> = {}) {
  const id = await makeCampaign(token, { name, campaignType: 'landing_page', ...body });
  const a = await makeLanding(token, id, { name: 'A', url: 'https://a.example/' });
  await makeLanding(token, id, { name: 'B', url: 'https://b.example/' });
  await makeOffer(token, id, { url: 'https://offer.example/' });
  return { id, a };
}

const version = async (id: number) =>
  (
    await env.DB.prepare('SELECT version FROM campaign_versions WHERE campaign = ?1')
      .bind(id)
      .first<{ version: number }>()
  )?.version;

/** A D1 binding that fails every statement, as an unreachable database would. */
const failingDb = {
  prepare() {
    throw new Error('D1_ERROR: Network connection lost.');
  },
  batch() {
    return Promise.reject(new Error('D1_ERROR: Network connection lost.'));
  },
} as unknown as D1Database;

describe('a change reaches the clicks within the bound, both cache levels in place', () => {
  it('a landing page switched off in the statistics table', async () => {
    const { id, a } = await twoPages('Stats switch, cached');
    // Both levels hold the campaign with A and B live.
    expect(await clicks(id, 24)).toEqual(new Set(['https://a.example', 'https://b.example']));
    const before = await version(id);

    const off = await api('/api/update-landing-status', { token, body: { landingId: a, status: 0 } });
    expect(off.status).toBe(200);
    const changedAt = Date.now();
    expect(await version(id)).toBeGreaterThan(before ?? 0);

    const { last, after } = await lastOldClickAfter(id, 'https://a.example', changedAt);
    expect(last).toBeLessThan(BOUND_MS);
    expect(after).toEqual(new Set(['https://b.example']));
  });

  it('a landing page switched off in the editor, seen by a new isolate from the shared copy', async () => {
    const { id, a } = await twoPages('Editor switch, cached');
    expect(await clicks(id, 24)).toEqual(new Set(['https://a.example', 'https://b.example']));
    const res = await api('/api/edit-landing', {
      method: 'PUT',
      token,
      body: { campaignId: id, landingPageId: a, name: 'A', url: 'https://a.example/', active: 0 },
    });
    expect(res.status).toBe(200);
    const changedAt = Date.now();
    // A new isolate: nothing of its own, the data centre's copy (the old version) in the Cache API.
    await campaignCacheForTests.simulate({ forget: true });
    const { last, after } = await lastOldClickAfter(id, 'https://a.example', changedAt);
    expect(last).toBeLessThan(BOUND_MS);
    expect(after).toEqual(new Set(['https://b.example']));
  });

  it('a campaign paused in the editor sends its clicks to the custom URL', async () => {
    const { id } = await twoPages('Paused, cached', { custom_url: 'https://paused.example/' });
    expect(await clicks(id, 24)).toEqual(new Set(['https://a.example', 'https://b.example']));
    const res = await api('/api/edit-campaign', {
      method: 'PUT',
      token,
      body: { campaignId: id, name: 'Paused, cached', active: 0, custom_url: 'https://paused.example/' },
    });
    expect(res.status).toBe(200);
    const changedAt = Date.now();
    let last = -1;
    while (Date.now() - changedAt < BOUND_MS + 600) {
      if ((await click(id)) !== 'https://paused.example') last = Date.now() - changedAt;
      await sleep(50);
    }
    expect(last).toBeLessThan(BOUND_MS);
    expect(await clicks(id)).toEqual(new Set(['https://paused.example']));
  });

  it("an alert on the campaign (metainfo) does not bump the campaign's version", async () => {
    const { id } = await twoPages('Alerts only');
    const before = await version(id);
    await env.DB.prepare("UPDATE campaigns SET metainfo = json_set(metainfo, '$.x', 1) WHERE id = ?1")
      .bind(id)
      .run();
    expect(await version(id)).toBe(before);
  });
});

describe('a click never waits for the database when a copy exists', () => {
  it('serves a stale copy from the isolate while D1 fails', async () => {
    const { id } = await twoPages('D1 down, isolate copy');
    expect(await clicks(id, 24)).toEqual(new Set(['https://a.example', 'https://b.example']));
    // Past the check interval: every click starts a check, and every check fails.
    await campaignCacheForTests.simulate({ ageMs: CHECK_MS * 10 });
    await settingsCacheForTests.simulate({ ageMs: CHECK_MS * 10 });
    const seen = new Set<string>();
    for (let i = 0; i < 24; i++) seen.add(await click(id, failingDb));
    expect(seen).toEqual(new Set(['https://a.example', 'https://b.example']));
  });

  it("serves the data centre's copy to a new isolate while D1 fails", async () => {
    const { id } = await twoPages('D1 down, shared copy');
    await clicks(id, 4);
    await campaignCacheForTests.simulate({ forget: true });
    await settingsCacheForTests.simulate({ forget: true });
    const seen = new Set<string>();
    for (let i = 0; i < 24; i++) seen.add(await click(id, failingDb));
    expect(seen).toEqual(new Set(['https://a.example', 'https://b.example']));
  });

  it('answers a truly cold click with one D1 read, and no copy anywhere with D1 down as unavailable', async () => {
    const { id } = await twoPages('Cold');
    await clicks(id, 2); // settings cached
    await campaignCacheForTests.simulate({ forget: true, shared: true });
    const statements: string[] = [];
    const counting = {
      prepare(sql: string) {
        statements.push(sql);
        return env.DB.prepare(sql);
      },
      batch: (s: D1PreparedStatement[]) => env.DB.batch(s),
    } as unknown as D1Database;
    expect(await click(id, counting)).toMatch(/^https:\/\/[ab]\.example$/);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('FROM campaigns c WHERE c.id = ?1');

    await campaignCacheForTests.simulate({ forget: true, shared: true });
    const ctx = createExecutionContext();
    const res = await handleTracking(
      new Request(`http://tracker.test/go/${id}`),
      { ...(env as unknown as Env), DB: failingDb },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res?.status).toBe(503);
  });
});
