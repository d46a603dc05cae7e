import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversionEvent } from '../../schema/tracking';
import { parseClickId } from '../../worker/services/hot-path/click-ids';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { invalidateSettings } from '../../worker/services/settings/settings';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { campaignAlerts, dbRows, dbValue, waitForCount } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { hit, postbackSecret } from '../factories/traffic';

// The per-click conversion cap under concurrency (issue 24): parallel postbacks all pass the
// request's guard while their events wait in the batch and the queue, so the ingest holds the
// cap where it writes; what is over it is counted as refused (click_limit), never dropped
// silently. docs/tracking.md "Per-click limits", docs/decisions/121.

let admin: string;
beforeAll(async () => {
  admin = await setupInstallation();
  await env.DB.prepare(
    "INSERT INTO settings (key, value) VALUES ('conversion_cap_per_click', '10') ON CONFLICT(key) DO UPDATE SET value = '10'",
  ).run();
  invalidateSettings();
});

async function campaignWithClick(name: string) {
  const campaign = await makeCampaign(admin, { name });
  await makeOffer(admin, campaign, { payout: '100' });
  const res = await hit(`/go/${campaign}`);
  const clickId = new URL(res.headers.get('location')!).searchParams.get('clickid')!;
  await waitForCount('SELECT count(*) n FROM visits WHERE click_id = ?', [clickId], 1);
  return { campaign, clickId };
}

const rejections = (campaign: number) =>
  dbValue(
    "SELECT coalesce(sum(count), 0) n FROM conversion_rejections WHERE campaign_id = ? AND reason = 'click_limit'",
    campaign,
  );

function conversionEvent(clickId: string, tx: string, pay: number): ConversionEvent {
  const parsed = parseClickId(env, clickId)!;
  return {
    k: 'c',
    id: clickId,
    c: parsed.campaignId,
    p: parsed.pathId,
    l: parsed.landingId,
    o: parsed.offerId,
    at: Date.now(),
    ev: null,
    tx,
    pay,
    src: 'postback',
  };
}

describe('per-click conversion cap under concurrency', () => {
  it('40 parallel postbacks for one click with cap 10 leave 10 conversions and 30 refusals', async () => {
    const { campaign, clickId } = await campaignWithClick('Parallel');
    const secret = await postbackSecret(campaign);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        hit(`/postback?clickid=${clickId}&payout=100&txid=P-${i}&secret=${secret}`).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      ),
    );
    // The request's guard may already answer some with 429 (their refusal is counted there);
    // the rest were accepted and wait in the queue.
    expect(answers.every((s) => s === 200 || s === 429)).toBe(true);
    const accepted = answers.filter((s) => s === 200).length;
    expect(accepted).toBeGreaterThan(10);

    await waitForCount(
      "SELECT coalesce(sum(count), 0) n FROM conversion_rejections WHERE campaign_id = ? AND reason = 'click_limit'",
      [campaign],
      30,
    );
    await waitForCount('SELECT count(*) n FROM conversions WHERE campaign_id = ?', [campaign], 10);
    await new Promise((r) => setTimeout(r, 300));
    expect(await dbValue('SELECT count(*) n FROM conversions WHERE click_id = ?', clickId)).toBe(10);
    expect(await rejections(campaign)).toBe(30);
    // The accepted ones over the cap are kept as refused, with their payout.
    expect(
      await dbValue(
        "SELECT count(*) n FROM refused_conversions WHERE click_id = ? AND reason = 'click_limit'",
        clickId,
      ),
    ).toBe(accepted - 10);
    expect(
      await dbValue(
        'SELECT coalesce(sum(payout_micros), 0) n FROM refused_conversions WHERE click_id = ?',
        clickId,
      ),
    ).toBe((accepted - 10) * 100_000_000);
    // Revenue and counts: ten sales of $100.
    expect(await dbValue('SELECT sum(conversions) n FROM daily_stats WHERE campaign_id = ?', campaign)).toBe(
      10,
    );
    expect(
      await dbValue('SELECT sum(revenue_micros) n FROM daily_stats WHERE campaign_id = ?', campaign),
    ).toBe(1_000_000_000);
    const alert = (await campaignAlerts(campaign)).find((a) => a.key.startsWith('rejected-click_limit-'))!;
    expect(alert.message).toMatch(
      /^\d+ conversions were refused on \d{4}-\d\d-\d\d \(UTC\) past the conversion limit of their click\.$/,
    );
  });

  it('caps set-wise in one batch; resends, chargebacks and redeliveries follow the dedupe rules', async () => {
    const { campaign, clickId } = await campaignWithClick('One batch');
    // 12 new txids (one of them twice) and 3 more in a second batch.
    const first = Array.from({ length: 12 }, (_, i) => conversionEvent(clickId, `B-${i}`, 5_000_000));
    first.push(conversionEvent(clickId, 'b-3', 5_000_000)); // the same txid, another case: one conversion
    const one = await ingestEvents(env, first);
    expect(one.conversions).toBe(10);
    expect(await dbValue('SELECT count(*) n FROM conversions WHERE click_id = ?', clickId)).toBe(10);
    expect(await rejections(campaign)).toBe(2);
    const kept = (
      await dbRows(
        'SELECT dedupe_key FROM refused_conversions WHERE click_id = ? ORDER BY dedupe_key',
        clickId,
      )
    ).map((r) => r.dedupe_key);
    expect(kept).toEqual([`${clickId}|t|b-10`, `${clickId}|t|b-11`]);

    // The same message again (at-least-once delivery): nothing stored, nothing counted twice.
    const replay = await ingestEvents(env, first);
    expect(replay.conversions).toBe(0);
    expect(await rejections(campaign)).toBe(2);

    // A resend of a stored one is no refusal; a chargeback of a stored one is not capped.
    await env.DB.prepare('UPDATE conversions SET reversed_at = 1 WHERE dedupe_key = ?')
      .bind(`${clickId}|t|b-0`)
      .run();
    const second = await ingestEvents(env, [
      conversionEvent(clickId, 'B-0', 5_000_000),
      { ...conversionEvent(clickId, 'B-0', -5_000_000), ev: 'chargeback' },
      conversionEvent(clickId, 'C-1', 5_000_000),
      conversionEvent(clickId, 'C-2', 5_000_000),
    ]);
    expect(second.conversions).toBe(1);
    expect(await rejections(campaign)).toBe(4);
    expect(
      await dbValue('SELECT count(*) n FROM conversions WHERE click_id = ? AND payout_micros >= 0', clickId),
    ).toBe(10);
    expect(
      await dbValue(
        "SELECT count(*) n FROM conversions WHERE click_id = ? AND event = 'chargeback' AND payout_micros < 0",
        clickId,
      ),
    ).toBe(1);
    expect(
      await dbValue('SELECT sum(revenue_micros) n FROM daily_stats WHERE campaign_id = ?', campaign),
    ).toBe(45_000_000);
  });
});
