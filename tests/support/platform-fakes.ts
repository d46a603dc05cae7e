import { env } from 'cloudflare:workers';
import { PlatformError } from '../../worker/integrations/http';
import { setCredential } from '../../worker/services/integrations/credentials';

// Helpers for tests that talk to the ad platforms' fakes (fakes/platforms.js) through the
// PLATFORM_FAKES binding vitest.config.ts sets up.

export type ExpectedRow = {
  date: string;
  ad_id: string;
  ad_name: string;
  impressions: number;
  clicks: number;
  spend_micros: number;
};

/**
 * The installation's LiveIntent connection: the fake's account `clientId` (its manager account
 * unless a failing one) for advertiser `advertiserId`.
 */
export function connectLiveIntent(advertiserId: string, clientId = 'li-manager') {
  return setCredential(env, 'liveintent', null, { clientId, token: 'li-pass', meta: { advertiserId } });
}

/**
 * A test of its own on the LiveIntent fake, which keeps its objects in memory for the whole file:
 * connected to the new advertiser `advertiserId`, with no LiveIntent ids stored by an earlier test.
 */
export async function freshLiveIntentAdvertiser(advertiserId: string) {
  await connectLiveIntent(advertiserId);
  await env.DB.prepare("DELETE FROM settings WHERE key LIKE 'pli_%'").run();
}

/** The seeded rows the fake answers for a platform campaign and days. */
export async function expectedRows(platform: string, campaign: string, since: string, until: string) {
  const q = new URLSearchParams({ platform, campaign, since, until });
  const res = await env.PLATFORM_FAKES!.fetch(`http://fakes.test/__expected?${q}`);
  return ((await res.json()) as { rows: ExpectedRow[] }).rows;
}

/** Tells the fake how to answer requests naming `key` (a token, campaign or account id). */
export async function scenario(key: string, body: Record<string, unknown>) {
  const res = await env.PLATFORM_FAKES!.fetch('http://fakes.test/__control', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, ...body }),
  });
  if (!res.ok) throw new Error(`fake control failed: ${res.status}`);
}

export async function resetScenario(key: string) {
  await env.PLATFORM_FAKES!.fetch(`http://fakes.test/__control?key=${encodeURIComponent(key)}`, {
    method: 'DELETE',
  });
}

/** The same rows as a client maps them (AdDay). */
export const asAdDays = (rows: ExpectedRow[]) =>
  rows.map((r) => ({
    date: r.date,
    adId: r.ad_id,
    adName: r.ad_name,
    impressions: r.impressions,
    clicks: r.clicks,
    spendMicros: r.spend_micros,
  }));

/** How many requests the fakes served whose URL or credentials contain `needle`. */
export async function requestsContaining(needle: string): Promise<number> {
  const res = await env.PLATFORM_FAKES!.fetch(
    `http://fakes.test/__requests?contains=${encodeURIComponent(needle)}`,
  );
  return ((await res.json()) as { count: number }).count;
}

/** The PlatformError a client call fails with (the test fails when it does not fail). */
export async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof PlatformError) return err;
    throw err;
  }
  throw new Error('expected a PlatformError');
}
