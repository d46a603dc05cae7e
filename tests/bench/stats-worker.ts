// The statistics benchmark's Worker (tests/bench/stats.mjs): the product's own ingest, report,
// export code, plus a seeding endpoint and the raw-row baseline. Never deployed.

import { eq } from 'drizzle-orm';
import { campaigns } from '../../schema/campaigns';
import { toDmy } from '../../schema/dates';
import { statisticsRequestSchema } from '../../schema/stats-api';
import type { TrackEvent } from '../../schema/tracking';
import type { Env } from '../../worker/env';
import { getDb } from '../../worker/lib/db';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import {
  dayBounds,
  offerTable,
  pathTable,
  placementAggregates,
  targetAggregates,
  targetTokenAggregates,
} from '../../worker/services/statistics';
import { refreshEffectiveCosts } from '../../worker/services/statistics/costs';
import { exportStatistics } from '../../worker/services/statistics/stats-export';
import {
  computeJob,
  landingResult,
  type StatsCampaignRow,
  toStatsCampaign,
} from '../../worker/services/statistics/stats-jobs';
import { targetTokenRollupAggregates } from '../../worker/services/statistics/token-rollup';
import { mix } from './mix';

const DAY = 86_400_000;
const START = Date.UTC(2026, 7, 1, 12, 0); // 90 days: 2026-08-01 .. 2026-10-29
const TARGETS = 2000;
const LANDINGS_BY_PATH: Record<number, number[]> = { 1: [], 2: [], 3: [] };
for (let l = 1; l <= 20; l++) LANDINGS_BY_PATH[((l - 1) % 3) + 1].push(l);

/** Visit i of `total` and what follows it: 30 % click through, 2 % convert. Deterministic. */
function eventsFor(i: number, total: number): TrackEvent[] {
  const id = `k${i}`;
  // Visits arrive in time order, as they do in production: day by day over the 90 days.
  const at = START + Math.floor((i * 90) / total) * DAY + (mix(i ^ 0x27d4eb2d) % (8 * 3600_000));
  const p = (i % 3) + 1;
  const landings = LANDINGS_BY_PATH[p];
  const l = landings[Math.floor(i / 3) % landings.length];
  const tgt = `t${mix(i) % TARGETS}`;
  const out: TrackEvent[] = [
    {
      k: 'v',
      id,
      c: 1,
      p,
      l,
      o: 0,
      at,
      tgt,
      kw: '',
      dev: 'desktop',
      cc: 'US',
      ref: '',
      ua: 'bench',
      f: null,
      d: 0,
      tok: { 1: `v${mix(i ^ 0x5bd1e995) % 50}` },
    },
  ];
  if (i % 10 < 3) {
    const o = (Math.floor(i / 32) % 10) + 1;
    out.push({ k: 'l', id, c: 1, p, l, o, opt: 0, at: at + 5_000, f: null });
    if (i % 50 === 0)
      out.push({ k: 'c', id, c: 1, p, l, o, at: at + 60_000, ev: null, tx: '', pay: null, src: 'postback' });
  }
  return out;
}

async function campaign(env: Env) {
  return (await getDb(env).select().from(campaigns).where(eq(campaigns.id, 1)).get()) as StatsCampaignRow;
}

/** The request of the screen: the last 30 of the 90 days, first page of targets by CTR. */
function request(extra: Record<string, unknown> = {}) {
  return statisticsRequestSchema.parse({
    campaignId: 1,
    startDate: toDmy(new Date(START + 60 * DAY).toISOString().slice(0, 10)),
    endDate: toDmy(new Date(START + 89 * DAY).toISOString().slice(0, 10)),
    sortKey: 'ctr',
    ...extra,
  });
}

/** The same report straight from the raw rows: the baseline the rollups are measured against. */
async function rawReport(env: Env) {
  const req = request();
  const from = new Date(START + 60 * DAY).toISOString().slice(0, 10);
  const to = new Date(START + 89 * DAY).toISOString().slice(0, 10);
  const q = (sql: string) => env.DB.prepare(sql).bind(from, to).all();
  const where = 'campaign_id = 1 AND day BETWEEN ?1 AND ?2';
  const results = await Promise.all([
    q(`SELECT target, count(*) n FROM visits WHERE ${where} AND filter IS NULL GROUP BY target`),
    q(
      `SELECT target, count(*) n FROM lp_clicks WHERE ${where} AND filter IS NULL AND orphan = 0 GROUP BY target`,
    ),
    q(
      `SELECT target, sum(is_goal) n, sum(payout_micros) r FROM conversions WHERE ${where} AND orphan = 0 GROUP BY target`,
    ),
    q(
      `SELECT target, sum(spend_micros) s, sum(impressions) i, sum(ad_clicks) a FROM costs WHERE ${where} GROUP BY target`,
    ),
    q(
      `SELECT day, landing_id, path_id, count(*) n FROM visits WHERE ${where} AND filter IS NULL GROUP BY day, landing_id, path_id`,
    ),
    q(
      `SELECT landing_id, offer_id, path_id, count(*) n FROM lp_clicks WHERE ${where} AND filter IS NULL AND orphan = 0 GROUP BY landing_id, offer_id, path_id`,
    ),
    q(
      `SELECT landing_id, offer_id, path_id, sum(is_goal) n, sum(payout_micros) r FROM conversions WHERE ${where} AND orphan = 0 GROUP BY landing_id, offer_id, path_id`,
    ),
    q(`SELECT day, sum(spend_micros) s FROM costs WHERE ${where} GROUP BY day`),
  ]);
  return { sortKey: req.sortKey, groups: results.reduce((a, r) => a + r.results.length, 0) };
}

/** The seeded campaign and the days the report reads: the last 30 of the 90 seeded days. */
async function lastThirtyDays(env: Env) {
  const c = toStatsCampaign(await campaign(env));
  const bounds = dayBounds(
    new Date(START + 60 * DAY).toISOString().slice(0, 10),
    new Date(START + 89 * DAY).toISOString().slice(0, 10),
  );
  return { c, bounds };
}

export default {
  async fetch(request_: Request, env: Env): Promise<Response> {
    const url = new URL(request_.url);
    const json = (v: unknown) => Response.json(v);
    switch (url.pathname) {
      case '/seed': {
        const from = Number(url.searchParams.get('from'));
        const to = Number(url.searchParams.get('to'));
        const total = Number(url.searchParams.get('total'));
        const chunk = Number(url.searchParams.get('chunk') ?? 700);
        let events = 0;
        for (let i = from; i < to; i += chunk) {
          const batch: TrackEvent[] = [];
          for (let j = i; j < Math.min(to, i + chunk); j++) batch.push(...eventsFor(j, total));
          await ingestEvents(env, batch);
          events += batch.length;
        }
        return json({ events });
      }
      case '/costs': {
        // A platform sync's costs for every target and day: $0.30 per visit, 40 impressions, 1 ad click per visit.
        const [inserted] = await env.DB.batch([
          env.DB.prepare(
            `INSERT INTO costs (campaign_id, day, target, source, priority, impressions, ad_clicks, spend_micros)
             SELECT campaign_id, day, target, 'sync', 2, visits * 40, visits, visits * 300000 FROM target_daily WHERE campaign_id = 1`,
          ),
          ...refreshEffectiveCosts(env.DB, 1, '0000-01-01', '9999-12-31'),
        ]);
        return json({ rows: inserted.meta.changes });
      }
      case '/report': {
        // What POST statistics and its two jobs compute for the screen.
        const req = request();
        const { c, bounds } = await lastThirtyDays(env);
        // One pass over the placement rollup serves the landing, offer and path tables.
        const placements = await placementAggregates(env, c, bounds);
        const [target, landing, offer, path] = await Promise.all([
          computeJob(env, 'target', 1, req),
          landingResult(env, c, placements, req),
          offerTable(env, c, placements, false),
          pathTable(env, c, placements, false),
        ]);
        return json({ target, landing, offer, path });
      }
      case '/part': {
        // Diagnostics: one piece of the report at a time.
        const req = request();
        const { c, bounds } = await lastThirtyDays(env);
        const part = url.searchParams.get('name');
        if (part === 'target') return json(await computeJob(env, 'target', 1, req));
        if (part === 'landing') return json(await computeJob(env, 'landing', 1, req));
        if (part === 'placements') return json(await placementAggregates(env, c, bounds));
        if (part === 'aggs') return json((await targetAggregates(env, c, bounds)).length);
        return json(null);
      }
      case '/report-tokens':
        return json(await computeJob(env, 'target', 1, request({ extraTokens: ['sub1'] })));
      case '/tokens-raw':
      case '/tokens-rollup': {
        // The grouping's sums both ways: the raw rows (what exports read) and the token rollup.
        const { c, bounds } = await lastThirtyDays(env);
        const slots = [{ slot: 1, parameter: 'sub1' }];
        const groups =
          url.pathname === '/tokens-raw'
            ? await targetTokenAggregates(env, c, bounds, slots)
            : await targetTokenRollupAggregates(env, c, bounds, slots);
        const other = groups.find((g) => g.tokens.sub1 === '(other)');
        const sum = (k: 'visits' | 'lpClicks' | 'conversions' | 'revenue') =>
          groups.reduce((a, g) => a + g[k], 0);
        return json({
          groups: groups.length,
          visits: sum('visits'),
          lpClicks: sum('lpClicks'),
          conversions: sum('conversions'),
          revenue: sum('revenue'),
          otherVisits: other?.visits ?? 0,
        });
      }
      case '/export':
        return json(
          await exportStatistics(env, await campaign(env), request(), {
            targetColumns: [],
            landingColumns: [],
          }),
        );
      case '/raw-report':
        return json(await rawReport(env));
      default:
        return new Response('not found', { status: 404 });
    }
  },
};
