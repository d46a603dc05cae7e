import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaigns } from '../../schema/campaigns';
import type { FilterReason, TrackEvent } from '../../schema/tracking';
import { getDb } from '../../worker/lib/db';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { dayBounds, type TargetAgg, targetTokenAggregates } from '../../worker/services/statistics';
import { writeCosts } from '../../worker/services/statistics/costs';
import { type StatsCampaignRow, toStatsCampaign } from '../../worker/services/statistics/stats-jobs';
import {
  OTHER_VALUE,
  TOKEN_ROLLUP_LIMIT,
  targetTokenRollupAggregates,
} from '../../worker/services/statistics/token-rollup';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';

// Issue 16 item 4: grouping by extra tokens reads token_daily (migration 0017). The rollup's
// groups must equal the raw-row computation (targetTokenAggregates, kept for exports) for one
// and for several tokens, through filtered visits, LP clicks, custom events, orphans adopted
// later and redelivered batches; past TOKEN_ROLLUP_LIMIT keys a day's rest is one "other" group.

let token: string;
let campaignId: number;
let landing: number;
let offer: number;
// 2026-11-10 and 11 in New York (the factories' time zone).
const D1 = Date.UTC(2026, 10, 10, 15, 0);
const D2 = Date.UTC(2026, 10, 11, 15, 0);
const SLOTS = [
  { slot: 1, parameter: 'sub1' },
  { slot: 2, parameter: 'sub2' },
];

const visit = (
  id: string,
  tgt: string,
  at: number,
  tok: Record<number, string>,
  f: FilterReason | null = null,
) => visitEvent({ id, c: campaignId, l: landing, at, tgt, f, tok });
const lpClick = (id: string, at: number) => lpClickEvent({ id, c: campaignId, l: landing, o: offer, at });
const conversion = (id: string, at: number, ev: string | null = null, pay: number | null = null) =>
  conversionEvent({ id, c: campaignId, l: landing, o: offer, at, ev, pay });

async function campaign() {
  const row = await getDb(env).select().from(campaigns).where(eq(campaigns.id, campaignId)).get();
  return toStatsCampaign(row as StatsCampaignRow);
}

/** Groups in a stable order with the fields a report shows. */
const sorted = (aggs: TargetAgg[]) =>
  aggs
    .map((a) => ({ ...a, key: `${a.target}|${JSON.stringify(a.tokens)}` }))
    .sort((a, b) => a.key.localeCompare(b.key));

beforeAll(async () => {
  token = await setupInstallation();
  campaignId = await makeCampaign(token, {
    name: 'Token rollup',
    campaignType: 'landing_page',
    cpc: '0.40',
    extratokens: [
      { token_name: 'Sub 1', parameter: 'sub1' },
      { token_name: 'Sub 2', parameter: 'sub2' },
    ],
  });
  landing = await makeLanding(token, campaignId, { name: 'LP' });
  offer = await makeOffer(token, campaignId, { name: 'Offer', payout: '12.5' });

  const events: TrackEvent[] = [];
  for (let i = 0; i < 40; i++) {
    const tok: Record<number, string> = { 1: `ad${i % 4}` };
    if (i % 3 === 0) tok[2] = `pl${i % 2}`;
    events.push(visit(`v${i}`, i % 5 === 0 ? 'T2' : 'T1', i < 30 ? D1 : D2, tok));
    if (i % 2 === 0) events.push(lpClick(`v${i}`, (i < 30 ? D1 : D2) + 1000));
    if (i % 4 === 0) events.push(conversion(`v${i}`, (i < 30 ? D1 : D2) + 2000));
    if (i % 8 === 0) events.push(conversion(`v${i}`, (i < 30 ? D1 : D2) + 3000, 'lead', 0));
  }
  events.push(visit('bot', 'T1', D1, { 1: 'ad0' }, 'bot'));
  await ingestEvents(env, events);
  // The same batch again (a redelivery) adds nothing to either side.
  await ingestEvents(env, events);
  // A conversion before its visit: kept as an orphan, adopted when the visit comes.
  await ingestEvents(env, [conversion('late', D2 + 5000, null, 7_000_000)]);
  await ingestEvents(env, [visit('late', 'T2', D2, { 1: 'ad9', 2: 'pl1' }), lpClick('late', D2 + 1000)]);
  await writeCosts(
    env,
    campaignId,
    'sync',
    [
      { date: '2026-11-10', target: 'T1', impressions: 1000, ad_clicks: 30, spend: 9_000_000 },
      { date: '2026-11-11', target: 'T2', impressions: 300, ad_clicks: 7, spend: 3_300_000 },
    ],
    null,
  );
});

describe('token rollup', () => {
  it('equals the raw-row report grouped by one token and by two, over one day and over both', async () => {
    const c = await campaign();
    for (const bounds of [dayBounds('2026-11-10', '2026-11-11'), dayBounds('2026-11-11', '2026-11-11')]) {
      for (const slots of [[SLOTS[0]], [SLOTS[1]], SLOTS]) {
        const raw = sorted(await targetTokenAggregates(env, c, bounds, slots));
        const rollup = sorted(await targetTokenRollupAggregates(env, c, bounds, slots));
        expect(rollup).toEqual(raw);
      }
    }
    const both = sorted(
      await targetTokenRollupAggregates(env, c, dayBounds('2026-11-10', '2026-11-11'), SLOTS),
    );
    // Real values: 41 counted visits (the bot is not), the adopted conversion with its $7 payout.
    expect(both.reduce((s, g) => s + g.visits, 0)).toBe(41);
    expect(both.reduce((s, g) => s + g.lpClicks, 0)).toBe(21);
    expect(both.reduce((s, g) => s + g.conversions, 0)).toBe(11);
    expect(both.reduce((s, g) => s + g.revenue, 0)).toBe(10 * 12_500_000 + 7_000_000);
    expect(both.reduce((s, g) => s + (g.events.lead ?? 0), 0)).toBe(5);
    const late = both.find((g) => g.tokens.sub1 === 'ad9');
    expect(late).toMatchObject({
      target: 'T2',
      tokens: { sub1: 'ad9', sub2: 'pl1' },
      visits: 1,
      conversions: 1,
    });
  });

  it(`keeps at most ${TOKEN_ROLLUP_LIMIT} keys a campaign-day and counts the rest as "other"`, async () => {
    const day = Date.UTC(2026, 10, 12, 15, 0);
    const total = TOKEN_ROLLUP_LIMIT + 150;
    for (let from = 0; from < total; from += 400) {
      const batch: TrackEvent[] = [];
      for (let i = from; i < Math.min(total, from + 400); i++) {
        batch.push(visit(`m${i}`, 'T3', day, { 1: `many${i}` }));
        if (i % 10 === 0) batch.push(conversion(`m${i}`, day + 1000, null, 1_000_000));
      }
      await ingestEvents(env, batch);
    }
    const keys = await env.DB.prepare(
      "SELECT count(*) n FROM token_daily WHERE campaign_id = ?1 AND day = '2026-11-12'",
    )
      .bind(campaignId)
      .first<{ n: number }>();
    expect(keys?.n).toBe(TOKEN_ROLLUP_LIMIT);
    const c = await campaign();
    const groups = await targetTokenRollupAggregates(env, c, dayBounds('2026-11-12', '2026-11-12'), [
      SLOTS[0],
    ]);
    expect(groups).toHaveLength(TOKEN_ROLLUP_LIMIT);
    const other = groups.find((g) => g.tokens.sub1 === OTHER_VALUE);
    expect(other?.target).toBe('');
    expect(other?.visits).toBe(total - (TOKEN_ROLLUP_LIMIT - 1));
    // Nothing is lost: the day's sums equal the raw rows'.
    expect(groups.reduce((s, g) => s + g.visits, 0)).toBe(total);
    expect(groups.reduce((s, g) => s + g.conversions, 0)).toBe(Math.ceil(total / 10));
    expect(groups.reduce((s, g) => s + g.revenue, 0)).toBe(Math.ceil(total / 10) * 1_000_000);
    // Keys admitted earlier keep their own rows when more of them arrive on a full day.
    await ingestEvents(env, [visit('m-again', 'T3', day, { 1: 'many0' })]);
    const again = await targetTokenRollupAggregates(env, c, dayBounds('2026-11-12', '2026-11-12'), [
      SLOTS[0],
    ]);
    expect(again.find((g) => g.tokens.sub1 === 'many0')?.visits).toBe(2);
    expect(again).toHaveLength(TOKEN_ROLLUP_LIMIT);
  });
});
