import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaigns } from '../../schema/campaigns';
import type { TrackEvent } from '../../schema/tracking';
import { getDb } from '../../worker/lib/db';
import {
  archivedRows,
  landingTokenAggregatesWithArchive,
  targetTokenAggregatesWithArchive,
} from '../../worker/services/archive/archived-rows';
import {
  archiveKey,
  archiveRawEvents,
  EqualParts,
  readArchive,
} from '../../worker/services/archive/raw-archive';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { dayBounds, type TargetAgg } from '../../worker/services/statistics';
import { type StatsCampaignRow, toStatsCampaign } from '../../worker/services/statistics/stats-jobs';
import { targetTokenRollupAggregates } from '../../worker/services/statistics/token-rollup';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';

// Issue 16 item 5: raw events older than RAW_ARCHIVE_AFTER_DAYS (default 90) move to R2 as one
// NDJSON object per campaign and day and leave D1; the rollups stay; the raw-row drill-down (the
// export grouped by tokens) reads D1 and the archive and gives the same numbers as before.

let campaignId: number;
let landing: number;
let offer: number;
// New York days (the factories' time zone): two old days and a recent one; "now" is 2026-11-20.
const OLD1 = Date.UTC(2026, 5, 1, 15, 0);
const OLD2 = Date.UTC(2026, 5, 2, 15, 0);
const RECENT = Date.UTC(2026, 10, 10, 15, 0);
const NOW = Date.UTC(2026, 10, 20, 15, 0);
const ALL = dayBounds('2026-01-01', '2026-11-20');

const visit = (id: string, tgt: string, at: number, sub1: string) =>
  visitEvent({ id, c: campaignId, l: landing, at, tgt, dev: 'mobile', cc: 'DE', tok: { 1: sub1 } });
const lpClick = (id: string, at: number) => lpClickEvent({ id, c: campaignId, l: landing, o: offer, at });
const conversion = (id: string, at: number) =>
  conversionEvent({ id, c: campaignId, l: landing, o: offer, at });

const sorted = (aggs: TargetAgg[]) =>
  aggs
    .map((a) => ({ ...a, key: `${a.target}|${JSON.stringify(a.tokens)}` }))
    .sort((a, b) => a.key.localeCompare(b.key));
const count = async (table: string, day: string) =>
  (
    await env.DB.prepare(`SELECT count(*) n FROM ${table} WHERE campaign_id = ?1 AND day = ?2`)
      .bind(campaignId, day)
      .first<{ n: number }>()
  )?.n;
const rollupSums = () =>
  env.DB.prepare(
    'SELECT sum(visits) v, sum(lp_clicks) l, sum(conversions) c, sum(revenue_micros) r FROM target_daily WHERE campaign_id = ?1',
  )
    .bind(campaignId)
    .first();
async function campaign() {
  return toStatsCampaign(
    (await getDb(env).select().from(campaigns).where(eq(campaigns.id, campaignId)).get()) as StatsCampaignRow,
  );
}

beforeAll(async () => {
  const token = await setupInstallation();
  campaignId = await makeCampaign(token, {
    name: 'Archive',
    campaignType: 'landing_page',
    extratokens: [{ token_name: 'Sub 1', parameter: 'sub1' }],
  });
  landing = await makeLanding(token, campaignId, { name: 'LP' });
  offer = await makeOffer(token, campaignId, { name: 'Offer', payout: '8' });
  const events: TrackEvent[] = [];
  for (const [prefix, at, n] of [
    ['a', OLD1, 12],
    ['b', OLD2, 7],
    ['c', RECENT, 5],
  ] as const) {
    for (let i = 0; i < n; i++) {
      events.push(visit(`${prefix}${i}`, `T${i % 2}`, at, `s${i % 3}`));
      if (i % 2 === 0) events.push(lpClick(`${prefix}${i}`, at + 1000));
      if (i % 4 === 0) events.push(conversion(`${prefix}${i}`, at + 2000));
    }
  }
  await ingestEvents(env, events);
});

describe('raw archive', () => {
  it('does nothing when RAW_ARCHIVE_AFTER_DAYS is 0', async () => {
    const run = await archiveRawEvents({ ...env, RAW_ARCHIVE_AFTER_DAYS: '0' }, { now: NOW });
    expect(run).toEqual({ days: [], cutoff: null });
    expect(await count('visits', '2026-06-01')).toBe(12);
  });

  it('moves days past the age to one NDJSON object each, keeps rollups, and the drill-down reads it', async () => {
    const c = await campaign();
    const slots = [{ slot: 1, parameter: 'sub1' }];
    const exportBefore = sorted(await targetTokenAggregatesWithArchive(env, c, ALL, slots));
    const rollupBefore = sorted(await targetTokenRollupAggregates(env, c, ALL, slots));
    const landingBefore = [...(await landingTokenAggregatesWithArchive(env, c, ALL, slots)).values()]
      .flat()
      .sort((a, b) => a.tokens.sub1.localeCompare(b.tokens.sub1));
    expect(landingBefore.map((g) => [g.tokens.sub1, g.visits, g.conversions])).toEqual([
      ['s0', 9, 3],
      ['s1', 8, 3],
      ['s2', 7, 1],
    ]);
    const sumsBefore = await rollupSums();
    expect(sumsBefore).toEqual({ v: 24, l: 13, c: 7, r: 56_000_000 });

    // One campaign-day per run at most: the oldest goes first.
    const first = await archiveRawEvents(env, { now: NOW, maxDays: 1 });
    expect(first.cutoff).toBe('2026-08-22');
    expect(first.days).toEqual([{ campaignId, day: '2026-06-01', rows: 12 + 6 + 3 }]);
    const rest = await archiveRawEvents(env, { now: NOW });
    expect(rest.days).toEqual([{ campaignId, day: '2026-06-02', rows: 7 + 4 + 2 }]);
    expect((await archiveRawEvents(env, { now: NOW })).days).toEqual([]);

    const lines = await readArchive(env, archiveKey(campaignId, '2026-06-01'));
    expect(lines.filter((r) => r.kind === 'visit')).toHaveLength(12);
    expect(lines.filter((r) => r.kind === 'lp_click')).toHaveLength(6);
    expect(lines.filter((r) => r.kind === 'conversion').map((r) => r.payout_micros)).toEqual([
      8_000_000, 8_000_000, 8_000_000,
    ]);
    expect(lines.find((r) => r.click_id === 'a4')).toMatchObject({
      kind: 'visit',
      target: 'T0',
      t1: 's1',
      country: 'DE',
    });
    const object = await env.BUCKET.head(archiveKey(campaignId, '2026-06-01'));
    expect(object?.httpMetadata?.contentType).toBe('application/x-ndjson');

    for (const table of ['visits', 'lp_clicks', 'conversions']) {
      expect(await count(table, '2026-06-01')).toBe(0);
      expect(await count(table, '2026-06-02')).toBe(0);
    }
    expect(await count('visits', '2026-11-10')).toBe(5);
    const archives = await env.DB.prepare(
      'SELECT day, visits, lp_clicks, conversions FROM raw_archives WHERE campaign_id = ?1 ORDER BY day',
    )
      .bind(campaignId)
      .all();
    expect(archives.results).toEqual([
      { day: '2026-06-01', visits: 12, lp_clicks: 6, conversions: 3 },
      { day: '2026-06-02', visits: 7, lp_clicks: 4, conversions: 2 },
    ]);

    expect(await rollupSums()).toEqual(sumsBefore);
    expect(sorted(await targetTokenRollupAggregates(env, c, ALL, slots))).toEqual(rollupBefore);
    expect(sorted(await targetTokenAggregatesWithArchive(env, c, ALL, slots))).toEqual(exportBefore);
    expect(await archivedRows(env, campaignId, dayBounds('2026-06-02', '2026-06-02'))).toHaveLength(13);
    const landingAfter = [...(await landingTokenAggregatesWithArchive(env, c, ALL, slots)).values()]
      .flat()
      .sort((a, b) => a.tokens.sub1.localeCompare(b.tokens.sub1));
    expect(landingAfter).toEqual(landingBefore);
  });

  it('adds a late row of an archived day to its object once, however often the run repeats', async () => {
    await ingestEvents(env, [visit('late1', 'T9', OLD1 + 5000, 'sX')]);
    expect(await count('visits', '2026-06-01')).toBe(1);
    const run = await archiveRawEvents(env, { now: NOW });
    expect(run.days).toEqual([{ campaignId, day: '2026-06-01', rows: 1 }]);
    const lines = await readArchive(env, archiveKey(campaignId, '2026-06-01'));
    expect(lines.filter((r) => r.kind === 'visit')).toHaveLength(13);
    expect(lines.filter((r) => r.click_id === 'late1')).toHaveLength(1);
    expect(await count('visits', '2026-06-01')).toBe(0);
    const row = await env.DB.prepare('SELECT visits FROM raw_archives WHERE campaign_id = ?1 AND day = ?2')
      .bind(campaignId, '2026-06-01')
      .first<{ visits: number }>();
    expect(row?.visits).toBe(13);
  });

  it('uploads a day larger than one part in parts of one size, which R2 requires to complete it', async () => {
    // 12 MiB of lines of uneven length with multi-byte characters: two full 5 MiB parts and a
    // shorter last one. Parts cut at line ends ("at least N bytes") differ in size and R2 refuses
    // to complete the upload: the soak's million-click day failed so.
    const PART = 5 * 1024 * 1024;
    const upload = await env.BUCKET.createMultipartUpload('archive/raw/test/equal-parts.ndjson');
    const parts = new EqualParts(upload, PART);
    const lines: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes < 12 * 1024 * 1024; i++) {
      const line = `${JSON.stringify({ kind: 'visit', id: i, target: `Zielgruppe-${'ü'.repeat(i % 40)}` })}\n`;
      lines.push(line);
      bytes += new TextEncoder().encode(line).length;
      await parts.add(line);
    }
    const uploaded = await parts.finish();
    expect(uploaded).toHaveLength(3);
    await upload.complete(uploaded);
    const object = await env.BUCKET.get('archive/raw/test/equal-parts.ndjson');
    expect(object?.size).toBe(bytes);
    expect(await object?.text()).toBe(lines.join(''));
  });
});
