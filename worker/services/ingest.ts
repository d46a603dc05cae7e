import { TOKEN_SLOTS } from '../../schema/tracking';
import type { Env } from '../env';
import type { ConversionEvent, LpClickEvent, TrackEvent, VisitEvent } from '../tracking/events';
import { dayIn } from './days';
import { getSettings } from './settings';

// Writes tracking events into the raw tables and the daily rollups, exactly once
// (docs/decisions/011-ingest-idempotency.md):
//
// - every raw row has a unique key (click id for visits; click id for a counted landing-page
//   click; click id + transaction id, or click id + event, for conversions) and is inserted
//   with ON CONFLICT DO NOTHING, so a redelivered or duplicate event adds no row;
// - the rollups are incremented in the same D1 batch (one transaction) from exactly the rows
//   that transaction inserted: a mark row records the highest row ids before the inserts and
//   the rollup statements aggregate the rows above them. A replay inserts nothing and so adds
//   nothing; a failed transaction adds neither rows nor counts;
// - a landing-page click or conversion needs its visit (for the target, device, tokens). When
//   the visit is not there yet the caller retries it; on the last attempt it is kept as an
//   orphan, and adopted (attributed and counted) when its visit arrives.
//
// Raw rows go in as one JSON parameter per table (json_each), which keeps each statement far
// under D1's 100 bound parameters whatever the batch size.

export type IngestResult = {
  visits: number;
  lpClicks: number;
  conversions: number;
  /** Indexes (into the input) of events whose visit is missing and that should be retried. */
  unresolved: number[];
  /** postback_log ids created for new goal conversions of campaigns with postbacks on. */
  postbackIds: number[];
};

type VisitFacts = {
  c: number;
  p: number;
  l: number;
  o: number;
  at: number;
  tgt: string;
  kw: string;
  dev: string;
  cc: string;
  tokens: (string | null)[];
};

type CampaignFacts = { type: string; goal: string };

const TOKEN_COLUMNS = TOKEN_SLOTS.map((s) => `t${s}`);
const LP_TYPES = new Set(['landing_page', 'multiple_path_type', 'multiple_option_type']);

const VISIT_COLUMNS = [
  'click_id',
  'campaign_id',
  'path_id',
  'landing_id',
  'offer_id',
  'created_at',
  'day',
  'target',
  'keyword',
  'device',
  'country',
  'referrer',
  'user_agent',
  'filter',
  'direct',
  ...TOKEN_COLUMNS,
];
const LP_COLUMNS = [
  'dedupe_key',
  'click_id',
  'campaign_id',
  'path_id',
  'landing_id',
  'offer_id',
  'option_id',
  'created_at',
  'day',
  'visit_at',
  'target',
  'keyword',
  'device',
  'country',
  'filter',
  'orphan',
  ...TOKEN_COLUMNS,
];
const CONVERSION_COLUMNS = [
  'dedupe_key',
  'click_id',
  'campaign_id',
  'path_id',
  'landing_id',
  'offer_id',
  'created_at',
  'day',
  'visit_at',
  'target',
  'keyword',
  'device',
  'country',
  'event',
  'is_goal',
  'transaction_id',
  'payout_micros',
  'source',
  'orphan',
  ...TOKEN_COLUMNS,
];

function insertFromJson(table: string, columns: string[], conflict: string): string {
  const values = columns.map((_, i) => `value ->> ${i}`).join(', ');
  return `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values} FROM json_each(?1) WHERE true ON CONFLICT (${conflict}) DO NOTHING`;
}

const SQL = {
  mark: `INSERT INTO ingest_marks (id, visits_from, lp_clicks_from, conversions_from) VALUES (?1,
    (SELECT coalesce(max(id), 0) FROM visits), (SELECT coalesce(max(id), 0) FROM lp_clicks),
    (SELECT coalesce(max(id), 0) FROM conversions))`,
  unmark: 'DELETE FROM ingest_marks WHERE id = ?1',
  insertVisits: insertFromJson('visits', VISIT_COLUMNS, 'click_id'),
  insertLpClicks: insertFromJson('lp_clicks', LP_COLUMNS, 'dedupe_key'),
  insertConversions: insertFromJson('conversions', CONVERSION_COLUMNS, 'dedupe_key'),
};

const from = (column: string) => `(SELECT ${column} FROM ingest_marks WHERE id = ?1)`;

/** Rows this transaction inserted plus older rows it adopted, never both for one row. */
function touchedRows(table: string, fromColumn: string, columns: string): string {
  return `(SELECT ${columns} FROM ${table} WHERE id > ${from(fromColumn)}
    UNION ALL SELECT ${columns} FROM ${table} WHERE adopted_mark = ?1 AND id <= ${from(fromColumn)})`;
}

const KEY = 'campaign_id, day, target, path_id, landing_id, offer_id';
const tokenCopy = TOKEN_COLUMNS.map((t) => `${t} = v.${t}`).join(', ');

// Orphans whose visit is now known: new orphans against any visit, old orphans against the
// visits this transaction inserted. Landing-page clicks first, so adopted conversions find them.
const ADOPT_LP = `UPDATE lp_clicks SET orphan = 0, adopted_mark = ?1, visit_at = v.created_at,
    target = v.target, keyword = v.keyword, device = v.device, country = v.country,
    path_id = CASE WHEN lp_clicks.path_id > 0 THEN lp_clicks.path_id ELSE v.path_id END,
    landing_id = CASE WHEN lp_clicks.landing_id > 0 THEN lp_clicks.landing_id ELSE v.landing_id END,
    ${tokenCopy}
  FROM visits v
  WHERE lp_clicks.orphan = 1 AND v.click_id = lp_clicks.click_id
    AND (v.id > ${from('visits_from')} OR lp_clicks.id > ${from('lp_clicks_from')})`;

const ADOPTED_OFFER = `CASE WHEN conversions.offer_id > 0 THEN conversions.offer_id ELSE coalesce((SELECT l.offer_id
    FROM lp_clicks l WHERE l.click_id = conversions.click_id AND l.filter IS NULL AND l.orphan = 0
    ORDER BY l.id LIMIT 1), v.offer_id) END`;

const ADOPT_CONVERSIONS = `UPDATE conversions SET orphan = 0, adopted_mark = ?1, visit_at = v.created_at,
    target = v.target, keyword = v.keyword, device = v.device, country = v.country,
    path_id = CASE WHEN conversions.path_id > 0 THEN conversions.path_id ELSE v.path_id END,
    landing_id = CASE WHEN conversions.landing_id > 0 THEN conversions.landing_id ELSE v.landing_id END,
    offer_id = ${ADOPTED_OFFER},
    payout_micros = coalesce(conversions.payout_micros, CASE WHEN conversions.is_goal = 1
      THEN (SELECT o.payout_micros FROM offer_pages o WHERE o.id = ${ADOPTED_OFFER}) ELSE 0 END, 0),
    ${tokenCopy}
  FROM visits v
  WHERE conversions.orphan = 1 AND v.click_id = conversions.click_id
    AND (v.id > ${from('visits_from')} OR conversions.id > ${from('conversions_from')})`;

// The same rollup statements for each grain: the fine daily_stats key, and the coarse
// per-target and per-placement keys the report tables read (schema/stats.ts).
const CONVERSION_ROWS = touchedRows(
  'conversions',
  'conversions_from',
  `${KEY}, event, is_goal, payout_micros, orphan`,
);

function rollups(table: string, eventTable: string, key: string, filtered: boolean): string[] {
  const visits = filtered
    ? `INSERT INTO ${table} (${key}, visits, filtered_visits)
  SELECT ${key}, sum(filter IS NULL), sum(filter IS NOT NULL)
  FROM visits WHERE id > ${from('visits_from')} GROUP BY ${key}
  ON CONFLICT (${key}) DO UPDATE SET visits = visits + excluded.visits,
    filtered_visits = filtered_visits + excluded.filtered_visits`
    : `INSERT INTO ${table} (${key}, visits)
  SELECT ${key}, count(*) FROM visits WHERE id > ${from('visits_from')} AND filter IS NULL GROUP BY ${key}
  ON CONFLICT (${key}) DO UPDATE SET visits = visits + excluded.visits`;
  return [
    visits,
    `INSERT INTO ${table} (${key}, lp_clicks)
  SELECT ${key}, count(*) FROM ${touchedRows('lp_clicks', 'lp_clicks_from', `${KEY}, filter, orphan`)}
  WHERE orphan = 0 AND filter IS NULL GROUP BY ${key}
  ON CONFLICT (${key}) DO UPDATE SET lp_clicks = lp_clicks + excluded.lp_clicks`,
    `INSERT INTO ${table} (${key}, conversions, revenue_micros)
  SELECT ${key}, sum(is_goal), sum(coalesce(payout_micros, 0)) FROM ${CONVERSION_ROWS}
  WHERE orphan = 0 GROUP BY ${key}
  ON CONFLICT (${key}) DO UPDATE SET conversions = conversions + excluded.conversions,
    revenue_micros = revenue_micros + excluded.revenue_micros`,
    `INSERT INTO ${eventTable} (${key}, event, events, revenue_micros)
  SELECT ${key}, event, count(*), sum(coalesce(payout_micros, 0)) FROM ${CONVERSION_ROWS}
  WHERE orphan = 0 GROUP BY ${key}, event
  ON CONFLICT (${key}, event) DO UPDATE SET events = events + excluded.events,
    revenue_micros = revenue_micros + excluded.revenue_micros`,
  ];
}

/** [visits, lp clicks, conversions, events] statements of every grain. */
const ROLLUPS = [
  rollups('daily_stats', 'daily_event_stats', KEY, true),
  rollups('target_daily', 'target_event_daily', 'campaign_id, day, target', false),
  rollups(
    'placement_daily',
    'placement_event_daily',
    'campaign_id, day, path_id, landing_id, offer_id',
    false,
  ),
];

const QUEUE_POSTBACKS = `INSERT INTO postback_log (conversion_id, campaign_id, click_id)
  SELECT c.id, c.campaign_id, c.click_id
  FROM ${touchedRows('conversions', 'conversions_from', 'id, campaign_id, click_id, orphan, is_goal')} c, campaigns k
  WHERE k.id = c.campaign_id AND k.postback_enabled = 1 AND k.postback <> '' AND c.orphan = 0 AND c.is_goal = 1
  ON CONFLICT (conversion_id) DO NOTHING RETURNING id`;

const LOOKUP = {
  visits: `SELECT click_id, campaign_id, path_id, landing_id, offer_id, created_at, target, keyword, device,
      country, ${TOKEN_COLUMNS.join(', ')} FROM visits WHERE click_id IN (SELECT value FROM json_each(?1))`,
  lpClicks: `SELECT click_id, offer_id FROM lp_clicks WHERE click_id IN (SELECT value FROM json_each(?1))
      AND filter IS NULL AND orphan = 0 ORDER BY id`,
  campaigns: `SELECT id, campaign_type, custom_conversion_goal FROM campaigns
      WHERE id IN (SELECT value FROM json_each(?1))`,
  offers: 'SELECT id, payout_micros FROM offer_pages WHERE campaign_id IN (SELECT value FROM json_each(?1))',
};

function visitFacts(e: VisitEvent): VisitFacts {
  return {
    c: e.c,
    p: e.p,
    l: e.l,
    o: e.o,
    at: e.at,
    tgt: e.tgt,
    kw: e.kw,
    dev: e.dev,
    cc: e.cc,
    tokens: TOKEN_SLOTS.map((s) => e.tok[s] ?? null),
  };
}

function markId(): number {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0x1fffff) * 0x100000000 + words[1] + 1;
}

/**
 * Writes `events` exactly once. `final(i)` says whether event i is on its last attempt: then a
 * missing visit makes it an orphan instead of an unresolved event to retry.
 */
export async function ingestEvents(
  env: Pick<Env, 'DB'>,
  events: readonly TrackEvent[],
  final: (index: number) => boolean = () => true,
): Promise<IngestResult> {
  const result: IngestResult = { visits: 0, lpClicks: 0, conversions: 0, unresolved: [], postbackIds: [] };
  if (events.length === 0) return result;
  const { time_zone: timeZone } = await getSettings(env);

  const batchVisits = new Map<string, VisitFacts>();
  const lpEvents: [number, LpClickEvent][] = [];
  const conversionEvents: [number, ConversionEvent][] = [];
  const visitRows: unknown[][] = [];
  events.forEach((e, i) => {
    if (e.k === 'v') {
      if (!batchVisits.has(e.id)) batchVisits.set(e.id, visitFacts(e));
      visitRows.push([
        e.id,
        e.c,
        e.p,
        e.l,
        e.o,
        e.at,
        dayIn(e.at, timeZone),
        e.tgt,
        e.kw,
        e.dev,
        e.cc,
        e.ref,
        e.ua,
        e.f,
        e.d,
        ...TOKEN_SLOTS.map((s) => e.tok[s] ?? null),
      ]);
    } else if (e.k === 'l') lpEvents.push([i, e]);
    else conversionEvents.push([i, e]);
  });

  // One round trip for everything the landing-page clicks and conversions need to know.
  const dbVisits = new Map<string, VisitFacts>();
  const dbLpOffers = new Map<string, number>();
  const campaignFacts = new Map<number, CampaignFacts>();
  const payouts = new Map<number, number>();
  if (lpEvents.length || conversionEvents.length) {
    const dependent = [...lpEvents, ...conversionEvents].map(([, e]) => e);
    const lookupIds = [...new Set(dependent.map((e) => e.id).filter((id) => !batchVisits.has(id)))];
    const conversionIds = [...new Set(conversionEvents.map(([, e]) => e.id))];
    const campaignIds = [...new Set(dependent.map((e) => e.c))];
    const [visitRowsFound, lpRows, campaignRows, offerRows] = await env.DB.batch([
      env.DB.prepare(LOOKUP.visits).bind(JSON.stringify(lookupIds)),
      env.DB.prepare(LOOKUP.lpClicks).bind(JSON.stringify(conversionIds)),
      env.DB.prepare(LOOKUP.campaigns).bind(JSON.stringify(campaignIds)),
      env.DB.prepare(LOOKUP.offers).bind(JSON.stringify(campaignIds)),
    ]);
    for (const r of visitRowsFound.results as Record<string, unknown>[]) {
      dbVisits.set(r.click_id as string, {
        c: r.campaign_id as number,
        p: r.path_id as number,
        l: r.landing_id as number,
        o: r.offer_id as number,
        at: r.created_at as number,
        tgt: r.target as string,
        kw: r.keyword as string,
        dev: r.device as string,
        cc: r.country as string,
        tokens: TOKEN_COLUMNS.map((t) => (r[t] as string | null) ?? null),
      });
    }
    for (const r of lpRows.results as { click_id: string; offer_id: number }[]) {
      if (!dbLpOffers.has(r.click_id)) dbLpOffers.set(r.click_id, r.offer_id);
    }
    for (const r of campaignRows.results as {
      id: number;
      campaign_type: string;
      custom_conversion_goal: string;
    }[]) {
      campaignFacts.set(r.id, { type: r.campaign_type, goal: r.custom_conversion_goal.toLowerCase() });
    }
    for (const r of offerRows.results as { id: number; payout_micros: number }[])
      payouts.set(r.id, r.payout_micros);
  }
  const visitOf = (id: string) => batchVisits.get(id) ?? dbVisits.get(id);

  const lpRows: unknown[][] = [];
  const batchLpOffers = new Map<string, number>();
  for (const [i, e] of lpEvents) {
    const visit = visitOf(e.id);
    if (!visit && !final(i)) {
      result.unresolved.push(i);
      continue;
    }
    if (visit && e.f === null && !dbLpOffers.has(e.id) && !batchLpOffers.has(e.id))
      batchLpOffers.set(e.id, e.o);
    lpRows.push([
      e.f ? `${e.id}|${e.f}` : e.id,
      e.id,
      e.c,
      e.p || visit?.p || 0,
      e.l || visit?.l || 0,
      e.o,
      e.opt,
      e.at,
      dayIn(e.at, timeZone),
      visit?.at ?? null,
      visit?.tgt ?? '',
      visit?.kw ?? '',
      visit?.dev ?? '',
      visit?.cc ?? '',
      e.f,
      visit ? 0 : 1,
      ...(visit?.tokens ?? TOKEN_SLOTS.map(() => null)),
    ]);
  }

  const conversionRows: unknown[][] = [];
  for (const [i, e] of conversionEvents) {
    const visit = visitOf(e.id);
    const campaign = campaignFacts.get(e.c) ?? { type: 'direct_link', goal: 'purchase' };
    const lpOffer = dbLpOffers.get(e.id) ?? batchLpOffers.get(e.id) ?? 0;
    const offerId = lpOffer || visit?.o || e.o || 0;
    // A landing-page campaign's conversion takes its offer from the landing-page click: wait for it.
    const missingLpClick = visit && !offerId && LP_TYPES.has(campaign.type);
    if ((!visit || missingLpClick) && !final(i)) {
      result.unresolved.push(i);
      continue;
    }
    const event = (e.ev ?? campaign.goal).toLowerCase();
    const isGoal = event === campaign.goal ? 1 : 0;
    let payout = e.pay;
    if (payout === null) {
      if (!isGoal) payout = 0;
      else if (offerId) payout = payouts.get(offerId) ?? 0;
      else payout = visit ? 0 : null;
    }
    conversionRows.push([
      e.tx ? `${e.id}|t|${e.tx}` : `${e.id}|e|${event}`,
      e.id,
      e.c,
      e.p || visit?.p || 0,
      e.l || visit?.l || 0,
      offerId,
      e.at,
      dayIn(e.at, timeZone),
      visit?.at ?? null,
      visit?.tgt ?? '',
      visit?.kw ?? '',
      visit?.dev ?? '',
      visit?.cc ?? '',
      event,
      isGoal,
      e.tx,
      payout,
      e.src,
      visit ? 0 : 1,
      ...(visit?.tokens ?? TOKEN_SLOTS.map(() => null)),
    ]);
  }

  if (!visitRows.length && !lpRows.length && !conversionRows.length) return result;

  const mark = markId();
  const db = env.DB;
  const statements: D1PreparedStatement[] = [db.prepare(SQL.mark).bind(mark)];
  const at: Record<string, number> = {};
  const push = (name: string, statement: D1PreparedStatement) => {
    at[name] = statements.length;
    statements.push(statement);
  };
  if (visitRows.length) push('visits', db.prepare(SQL.insertVisits).bind(JSON.stringify(visitRows)));
  if (lpRows.length) push('lp', db.prepare(SQL.insertLpClicks).bind(JSON.stringify(lpRows)));
  if (conversionRows.length) {
    push('conversions', db.prepare(SQL.insertConversions).bind(JSON.stringify(conversionRows)));
  }
  statements.push(db.prepare(ADOPT_LP).bind(mark), db.prepare(ADOPT_CONVERSIONS).bind(mark));
  for (const [visits, lp, conversions, events] of ROLLUPS) {
    if (visitRows.length) statements.push(db.prepare(visits).bind(mark));
    statements.push(
      db.prepare(lp).bind(mark),
      db.prepare(conversions).bind(mark),
      db.prepare(events).bind(mark),
    );
  }
  push('postbacks', db.prepare(QUEUE_POSTBACKS).bind(mark));
  statements.push(db.prepare(SQL.unmark).bind(mark));

  const results = await db.batch(statements);
  result.visits = at.visits === undefined ? 0 : (results[at.visits].meta.changes ?? 0);
  result.lpClicks = at.lp === undefined ? 0 : (results[at.lp].meta.changes ?? 0);
  result.conversions = at.conversions === undefined ? 0 : (results[at.conversions].meta.changes ?? 0);
  result.postbackIds = (results[at.postbacks].results as { id: number }[]).map((r) => r.id);
  return result;
}
