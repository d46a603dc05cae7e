import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VisitEvent } from '../../schema/tracking';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { referrerDomainOf } from '../../worker/services/statistics/breakdown-dimensions';
import agentList from '../bench/user-agents.txt?raw';
import { makeCampaign } from '../factories/campaigns';
import { dbRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { visitEvent } from '../support/events';

// Decision 180: a batch whose visits are all new adds its breakdown rows from JS (the fast path);
// any other batch expands the inserted rows in SQL (the slow path). The two must agree row for
// row: the same ~300 real user agents, tricky referrers, several hours, countries and devices,
// and filtered visits go through each path, and breakdown_daily must hold the same rows.

const AGENTS = agentList.split('\n').filter((line) => line && !line.startsWith('#'));
const REFERRERS = [
  '',
  'https://www.News.Example:8443/a?b=1#c',
  '  HTTP://WWW.Shop.Example  ',
  'android-app://com.example.app',
  'news.example/path?x=1',
  'https://Ünïcode.Example/x',
  'www.',
  'https://a.example#frag:1',
  'https://b.example?q=www.c.example/',
  'ftp://user@files.example:21/',
];
const COUNTRIES = ['US', 'DE', 'FR', 'GB', ''];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const HOUR = 3_600_000;

/** The same visits for each campaign (click ids differ): every agent, spread over 5 hours. */
function visits(campaignId: number, prefix: string, at: number): VisitEvent[] {
  return AGENTS.map((ua, i) =>
    visitEvent({
      id: `${prefix}-${i}`,
      c: campaignId,
      at: at + (i % 5) * HOUR + i * 1000,
      ua,
      ref: REFERRERS[i % REFERRERS.length],
      cc: COUNTRIES[i % COUNTRIES.length],
      dev: DEVICES[i % DEVICES.length],
      f: i % 17 === 0 ? 'bot' : null,
    }),
  );
}

const rowsOf = (campaignId: number) =>
  dbRows(
    `SELECT day, dim, value, dim2, value2, visits, lp_clicks, conversions, revenue_micros FROM breakdown_daily
     WHERE campaign_id = ?1 ORDER BY day, dim, value, dim2, value2`,
    campaignId,
  );

let fast: number;
let slow: number;
const at = Date.now() - 6 * HOUR;
const counted = AGENTS.filter((_, i) => i % 17 !== 0).length;

beforeAll(async () => {
  const token = await setupInstallation();
  fast = await makeCampaign(token, { name: 'Fast path' });
  slow = await makeCampaign(token, { name: 'Slow path' });
  await ingestEvents(env, visits(fast, 'fast', at));
  // A batch with one click id already stored is not all new: its visits take the slow path.
  const batch = visits(slow, 'slow', at);
  await ingestEvents(env, [batch[1]]);
  const again = await ingestEvents(env, batch);
  expect(again.visits).toBe(AGENTS.length - 1);
}, 60_000);

describe('breakdown rollup, fast and slow', () => {
  it('holds the same rows whichever way the visits came', async () => {
    const [a, b] = [await rowsOf(fast), await rowsOf(slow)];
    expect(a.length).toBeGreaterThan(21 * 5);
    expect(b).toEqual(a);
  });

  it('counts each counted visit once per dimension and pair, never the filtered ones', async () => {
    for (const campaignId of [fast, slow]) {
      const [{ single, pairs }] = await dbRows(
        `SELECT sum(CASE WHEN dim2 = '' THEN visits END) single, sum(CASE WHEN dim2 <> '' THEN visits END) pairs
         FROM breakdown_daily WHERE campaign_id = ?1`,
        campaignId,
      );
      expect(single).toBe(6 * counted);
      expect(pairs).toBe(15 * counted);
    }
  });

  it('names referrer domains as the SQL does', async () => {
    expect(REFERRERS.map(referrerDomainOf)).toEqual([
      '',
      'news.example',
      'shop.example',
      'com.example.app',
      'news.example',
      'Ünïcode.example',
      '',
      'a.example',
      'b.example',
      'user@files.example',
    ]);
    const values = (await rowsOf(fast))
      .filter((r) => r.dim === 'referrer' && r.dim2 === '')
      .map((r) => r.value);
    expect(new Set(values)).toEqual(new Set(REFERRERS.map(referrerDomainOf)));
  });
});
