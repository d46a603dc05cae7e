import { createExecutionContext, createMessageBatch } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { setCredential } from '../../worker/services/integrations/credentials';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { waitForCount } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { hit, postbackSecret } from '../factories/traffic';
import { requestsContaining } from '../support/platform-fakes';

// No request to an ad platform happens inside a tracking request: the tracking code cannot reach
// a platform client (checked on the import graph), and a visit and a postback of a campaign that
// is linked to Facebook leave no request at the fake (while a sync of the same campaign does).

const sources = import.meta.glob('../../worker/**/*.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
});

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const p of spec.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.') parts.push(p);
  }
  const base = parts.join('/');
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) if (candidate in sources) return candidate;
  return null;
}

/** Every worker file a file reaches through its imports (type-only imports included). */
function reachable(start: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of sources[file].matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
      const next = resolve(file, m[1]);
      if (next) queue.push(next);
    }
  }
  return seen;
}

describe('no platform request inside a tracking request', () => {
  it('the tracking code cannot reach a platform client or the integration services', () => {
    const tracking = Object.keys(sources).filter((f) => f.includes('/worker/tracking/'));
    expect(tracking.length).toBeGreaterThan(3);
    const reached = [...reachable(tracking)];
    expect(reached.length).toBeGreaterThan(tracking.length);
    expect(
      reached.filter((f) => f.includes('/worker/integrations/') || f.includes('/services/integrations/')),
    ).toEqual([]);
    // The check itself sees an import chain when there is one.
    expect([...reachable(['../../worker/jobs/platform-jobs.ts'])]).toContain(
      '../../worker/integrations/http.ts',
    );
  });

  let token: string;
  let campaignId: number;
  const FB_TOKEN = 'isolation-token-7q';
  const FB_CAMPAIGN = '120209955500001';

  beforeAll(async () => {
    token = await setupInstallation();
    campaignId = await makeCampaign(token, { name: 'Linked and tracked' });
    await makeOffer(token, campaignId, { url: 'https://offer.example/buy', payout: '5' });
    await setCredential(env, 'facebook', null, { token: FB_TOKEN });
    await api('/api/integrations/campaign-link', {
      token,
      body: { campaignId, platform: 'facebook', externalCampaignId: FB_CAMPAIGN },
    });
  });

  it('a visit and a postback of a linked campaign call no platform; a sync does', async () => {
    const visit = await hit(`/go/${campaignId}?tid=ad-1`);
    expect(visit.status).toBe(302);
    const clickId = new URL(visit.headers.get('location')!).searchParams.get('clickid');
    const postback = await hit(
      `/postback?clickid=${clickId}&txid=ISO-1&secret=${await postbackSecret(clickId!)}`,
    );
    expect(postback.status).toBe(200);
    await waitForCount('SELECT count(*) AS n FROM conversions WHERE campaign_id = ?1', [campaignId], 1);
    expect(await requestsContaining(FB_TOKEN)).toBe(0);
    expect(await requestsContaining(FB_CAMPAIGN)).toBe(0);

    const batch = createMessageBatch('tracker-stats', [
      {
        id: 'iso',
        timestamp: new Date(),
        attempts: 1,
        body: { kind: 'platform-sync', campaignId, platform: 'facebook' },
      },
    ]);
    await worker.queue(batch, env, createExecutionContext());
    expect(await requestsContaining(FB_TOKEN)).toBeGreaterThan(0);
  });
});
