import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryStats } from '../../worker/services/ingest-delivery';
import { invalidateSettings } from '../../worker/services/settings';
import { hit, makeCampaign, makeOffer, setupInstallation, waitForCount } from '../factories';

// When a click is durable (docs/tracking.md, docs/decisions/043): in the default mode the
// redirect is answered before its event reaches the queue (within the batch window); in
// durable mode only after the queue accepted it.

let campaign: number;
beforeAll(async () => {
  const token = await setupInstallation();
  campaign = await makeCampaign(token, { name: 'Durable' });
  await makeOffer(token, campaign);
});

async function mode(value: 'batched' | 'durable') {
  await env.DB.prepare(
    "INSERT INTO settings (key, value) VALUES ('tracking_mode', ?1) ON CONFLICT(key) DO UPDATE SET value = ?1",
  )
    .bind(value)
    .run();
  invalidateSettings();
}

describe('tracking modes', () => {
  it('batched (default): the redirect is answered before the queue has the event', async () => {
    await mode('batched');
    await new Promise((r) => setTimeout(r, 50));
    const before = deliveryStats.events;
    const res = await hit(`/go/${campaign}`);
    expect(res.status).toBe(302);
    expect(deliveryStats.events).toBe(before);
    await waitForCount('SELECT count(*) n FROM visits WHERE campaign_id = ?', [campaign], 1);
    expect(deliveryStats.events).toBe(before + 1);
  });

  it('durable: the redirect is answered only after the queue accepted the event', async () => {
    await mode('durable');
    for (let i = 1; i <= 3; i++) {
      const before = deliveryStats.events;
      const res = await hit(`/go/${campaign}`);
      expect(res.status).toBe(302);
      expect(deliveryStats.events - before).toBeGreaterThanOrEqual(1);
    }
    await waitForCount('SELECT count(*) n FROM visits WHERE campaign_id = ?', [campaign], 4);
    await mode('batched');
  });
});
