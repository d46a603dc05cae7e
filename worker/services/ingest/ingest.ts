import type { ConversionEvent, LpClickEvent, TrackEvent, VisitEvent } from '../../../schema/tracking';
import { TOKEN_SLOTS } from '../../../schema/tracking';
import type { Env } from '../../env';
import { getSettings } from '../settings/settings';
import { statsIngestStatements } from '../statistics/ingest-extras';
import { tokenRollupStatements } from '../statistics/token-rollup';
import { dayIn } from './days';
import { alertCapRefusals, cappedConversionInsert } from './ingest-cap';

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

type VisitFacts = Pick<VisitEvent, 'c' | 'p' | 'l' | 'o' | 'at' | 'tgt' | 'kw' | 'dev' | 'cc'> & {
  tokens: (string | null)[];
};

type CampaignFacts = { type: string; goal: string };

const TOKEN_COLUMNS = TOKEN_SLOTS.map((s) => `t${s}`);
const LP_TYPES = new Set(['landing_page', 'multiple_path_type', 'multiple_option_type']);

/** A column of a raw insert; one whose value is `fallback` (the table default) in every row is left out. */
type Column = { name: string; fallback?: string | number | null };
const required = (name: string): Column => ({ name });
const optional = (name: string, fallback: string | number | null): Column => ({ name, fallback });
const TOKEN_COLUMN_DEFS = TOKEN_COLUMNS.map((t) => optional(t, null));
/** As schema/columns.ts placementIds and visitorColumns: the columns every raw event has. */
const PLACEMENT_COLUMNS = [optional('path_id', 0), optional('landing_id', 0), optional('offer_id', 0)];
const VISITOR_COLUMNS = [
  optional('target', ''),
  optional('keyword', ''),
  optional('device', ''),
  optional('country', ''),
];

const VISIT_COLUMNS: Column[] = [
  required('click_id'),
  required('campaign_id'),
  ...PLACEMENT_COLUMNS,
  required('created_at'),
  required('day'),
  ...VISITOR_COLUMNS,
  optional('referrer', ''),
  optional('user_agent', ''),
  optional('filter', null),
  optional('direct', 0),
  ...TOKEN_COLUMN_DEFS,
];
const LP_COLUMNS: Column[] = [
  required('dedupe_key'),
  required('click_id'),
  required('campaign_id'),
  ...PLACEMENT_COLUMNS,
  optional('option_id', 0),
  required('created_at'),
  required('day'),
  optional('visit_at', null),
  ...VISITOR_COLUMNS,
  optional('filter', null),
  optional('orphan', 0),
  ...TOKEN_COLUMN_DEFS,
];
const CONVERSION_COLUMNS: Column[] = [
  required('dedupe_key'),
  required('click_id'),
  required('campaign_id'),
  ...PLACEMENT_COLUMNS,
  required('created_at'),
  required('day'),
  optional('visit_at', null),
  ...VISITOR_COLUMNS,
  required('event'),
  required('is_goal'),
  optional('transaction_id', ''),
  required('payout_micros'),
  required('source'),
  optional('orphan', 0),
  ...TOKEN_COLUMN_DEFS,
];

/**
 * INSERT ... SELECT from one JSON parameter holding the rows. Every `value ->> i` parses the
 * row's JSON again, so only the columns some row sets are sent (most visits carry no tokens).
 */
function insertFromJson(table: string, columns: Column[], rows: unknown[][], conflict: string) {
  const used = columns.map((c, i) => !('fallback' in c) || rows.some((r) => r[i] !== c.fallback));
  const names = columns.filter((_, i) => used[i]).map((c) => c.name);
  const data = rows.map((r) => r.filter((_, i) => used[i]));
  const values = names.map((_, i) => `value ->> ${i}`).join(', ');
  return {
    sql: `INSERT INTO ${table} (${names.join(', ')}) SELECT ${values} FROM json_each(?1) WHERE true ON CONFLICT (${conflict}) DO NOTHING`,
    json: JSON.stringify(data),
    names,
  };
}

const SQL = {
  mark: `INSERT INTO ingest_marks (id, visits_from, lp_clicks_from, conversions_from) VALUES (?1,
    (SELECT coalesce(max(id), 0) FROM visits), (SELECT coalesce(max(id), 0) FROM lp_clicks),
    (SELECT coalesce(max(id), 0) FROM conversions))`,
  // Must follow the visits insert directly: changes() is the row count of the last statement.
  countVisits: 'UPDATE ingest_marks SET visits_inserted = changes() WHERE id = ?1',
  unmark: 'DELETE FROM ingest_marks WHERE id = ?1',
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
    FROM lp_clicks l WHERE l.dedupe_key = conversions.click_id AND l.filter IS NULL AND l.orphan = 0
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

type Grain = { table: string; eventTable: string; key: string[]; filtered: boolean };
const GRAINS: Grain[] = [
  {
    table: 'daily_stats',
    eventTable: 'daily_event_stats',
    key: ['campaign_id', 'day', 'target', 'path_id', 'landing_id', 'offer_id'],
    filtered: true,
  },
  {
    table: 'target_daily',
    eventTable: 'target_event_daily',
    key: ['campaign_id', 'day', 'target'],
    filtered: false,
  },
  {
    table: 'placement_daily',
    eventTable: 'placement_event_daily',
    key: ['campaign_id', 'day', 'path_id', 'landing_id', 'offer_id'],
    filtered: false,
  },
];

const INSERTED = '(SELECT visits_inserted FROM ingest_marks WHERE id = ?1)';
// The slow path's lower bound: past every row when the fast path applies, so nothing is scanned.
const SLOW_FROM = `(SELECT CASE WHEN visits_inserted = ?2 THEN ${Number.MAX_SAFE_INTEGER} ELSE visits_from END
  FROM ingest_marks WHERE id = ?1)`;

/**
 * Visits rollups come two ways. Fast: when every visit of the batch was new (visits_inserted
 * equals the batch's count, ?2), the totals computed in JS (?3) are added as they are. Slow:
 * otherwise (a redelivery, a duplicate) the rows this transaction inserted are grouped in SQL.
 * Exactly one of the two does anything: when the fast one applies, the slow one's range is empty.
 * NOT INDEXED keeps the slow one on the rowid range: left to itself the planner walks the whole
 * (campaign_id, day) index for the GROUP BY order, a scan of every visit in every batch, which
 * made ingest slow down as the table grew (decision 106).
 */
function visitRollups(g: Grain): { fast: string; slow: string } {
  const key = g.key.join(', ');
  const counts = g.filtered ? 'visits, filtered_visits' : 'visits';
  const update = g.filtered
    ? 'visits = visits + excluded.visits, filtered_visits = filtered_visits + excluded.filtered_visits'
    : 'visits = visits + excluded.visits';
  const width = g.key.length + (g.filtered ? 2 : 1);
  const values = Array.from({ length: width }, (_, i) => `value ->> ${i}`).join(', ');
  return {
    fast: `INSERT INTO ${g.table} (${key}, ${counts}) SELECT ${values} FROM json_each(?3)
      WHERE ${INSERTED} = ?2 ON CONFLICT (${key}) DO UPDATE SET ${update}`,
    slow: g.filtered
      ? `INSERT INTO ${g.table} (${key}, ${counts}) SELECT ${key}, sum(filter IS NULL), sum(filter IS NOT NULL)
      FROM visits NOT INDEXED WHERE id > ${SLOW_FROM} GROUP BY ${key}
      ON CONFLICT (${key}) DO UPDATE SET ${update}`
      : `INSERT INTO ${g.table} (${key}, ${counts}) SELECT ${key}, count(*)
      FROM visits NOT INDEXED WHERE id > ${SLOW_FROM} AND filter IS NULL GROUP BY ${key}
      ON CONFLICT (${key}) DO UPDATE SET ${update}`,
  };
}

function otherRollups(g: Grain): string[] {
  const key = g.key.join(', ');
  return [
    `INSERT INTO ${g.table} (${key}, lp_clicks)
  SELECT ${key}, count(*) FROM ${touchedRows('lp_clicks', 'lp_clicks_from', `${KEY}, filter, orphan`)}
  WHERE orphan = 0 AND filter IS NULL GROUP BY ${key}
  ON CONFLICT (${key}) DO UPDATE SET lp_clicks = lp_clicks + excluded.lp_clicks`,
    `INSERT INTO ${g.table} (${key}, conversions, revenue_micros)
  SELECT ${key}, sum(is_goal), sum(coalesce(payout_micros, 0)) FROM ${CONVERSION_ROWS}
  WHERE orphan = 0 GROUP BY ${key}
  ON CONFLICT (${key}) DO UPDATE SET conversions = conversions + excluded.conversions,
    revenue_micros = revenue_micros + excluded.revenue_micros`,
    `INSERT INTO ${g.eventTable} (${key}, event, events, revenue_micros)
  SELECT ${key}, event, count(*), sum(coalesce(payout_micros, 0)) FROM ${CONVERSION_ROWS}
  WHERE orphan = 0 GROUP BY ${key}, event
  ON CONFLICT (${key}, event) DO UPDATE SET events = events + excluded.events,
    revenue_micros = revenue_micros + excluded.revenue_micros`,
  ];
}

const VISIT_ROLLUPS = GRAINS.map(visitRollups);
const OTHER_ROLLUPS = GRAINS.flatMap(otherRollups);

/** Visit columns by name, for the JS totals of the fast path. */
const VISIT_INDEX = Object.fromEntries(VISIT_COLUMNS.map((c, i) => [c.name, i]));

/** Per grain, the visits (and filtered visits) of new rows grouped by its key, as JSON rows. */
function visitTotals(rows: unknown[][]): string[] {
  return GRAINS.map((g) => {
    const groups = new Map<string, unknown[]>();
    for (const row of rows) {
      const counted = row[VISIT_INDEX.filter] === null;
      if (!g.filtered && !counted) continue;
      const keyValues = g.key.map((k) => row[VISIT_INDEX[k]]);
      const id = JSON.stringify(keyValues);
      let group = groups.get(id);
      if (!group) {
        group = g.filtered ? [...keyValues, 0, 0] : [...keyValues, 0];
        groups.set(id, group);
      }
      const at = g.key.length + (counted ? 0 : 1);
      group[at] = (group[at] as number) + 1;
    }
    return JSON.stringify([...groups.values()]);
  });
}

const QUEUE_POSTBACKS = `INSERT INTO postback_log (conversion_id, campaign_id, click_id)
  SELECT c.id, c.campaign_id, c.click_id
  FROM ${touchedRows('conversions', 'conversions_from', 'id, campaign_id, click_id, orphan, is_goal')} c, campaigns k
  WHERE k.id = c.campaign_id AND k.postback_enabled = 1 AND k.postback <> '' AND c.orphan = 0 AND c.is_goal = 1
  ON CONFLICT (conversion_id) DO NOTHING RETURNING id`;

const LOOKUP = {
  visits: `SELECT click_id, campaign_id, path_id, landing_id, offer_id, created_at, target, keyword, device,
      country, ${TOKEN_COLUMNS.join(', ')} FROM visits WHERE click_id IN (SELECT value FROM json_each(?1))`,
  // A counted click's dedupe key is its click id (the unique index; no click-id index, 0017).
  lpClicks: `SELECT click_id, offer_id FROM lp_clicks WHERE dedupe_key IN (SELECT value FROM json_each(?1))
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
  const { time_zone: timeZone, conversion_cap_per_click: capSetting } = await getSettings(env);

  const batchVisits = new Map<string, VisitFacts>();
  const lpEvents: [number, LpClickEvent][] = [];
  const conversionEvents: [number, ConversionEvent][] = [];
  const visitRows: unknown[][] = [];
  events.forEach((e, i) => {
    if (e.k === 'v') {
      // One row per click id: a duplicate in the same batch would never be inserted anyway.
      if (batchVisits.has(e.id)) return;
      batchVisits.set(e.id, visitFacts(e));
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
  /** An LP click's or conversion's time and day, then its visit's time and visitor columns. */
  const seenAfter = (at: number, visit: ReturnType<typeof visitOf>) => [
    at,
    dayIn(at, timeZone),
    visit?.at ?? null,
    visit?.tgt ?? '',
    visit?.kw ?? '',
    visit?.dev ?? '',
    visit?.cc ?? '',
  ];

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
      ...seenAfter(e.at, visit),
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
      // Transaction ids dedupe without case (docs/decisions/044); the row keeps them as sent.
      // A chargeback (negative payout) is a row of its own beside the conversion it reverses.
      e.tx
        ? `${e.id}|${e.pay !== null && e.pay < 0 ? 'r' : 't'}|${e.tx.toLowerCase()}`
        : `${e.id}|e|${event}`,
      e.id,
      e.c,
      e.p || visit?.p || 0,
      e.l || visit?.l || 0,
      offerId,
      ...seenAfter(e.at, visit),
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
  if (visitRows.length) {
    const insert = insertFromJson('visits', VISIT_COLUMNS, visitRows, 'click_id');
    push('visits', db.prepare(insert.sql).bind(insert.json));
    statements.push(db.prepare(SQL.countVisits).bind(mark));
  }
  if (lpRows.length) {
    const insert = insertFromJson('lp_clicks', LP_COLUMNS, lpRows, 'dedupe_key');
    push('lp', db.prepare(insert.sql).bind(insert.json));
  }
  const now = Date.now();
  if (conversionRows.length) {
    // The per-click cap holds here, where conversions are written (decision 121).
    const insert = insertFromJson('conversions', CONVERSION_COLUMNS, conversionRows, 'dedupe_key');
    const capped = cappedConversionInsert(db, insert.names, insert.json, Number(capSetting) || 0, now);
    push('refusals', capped.refusals);
    statements.push(capped.keep);
    push('conversions', capped.insert);
  }
  statements.push(db.prepare(ADOPT_LP).bind(mark), db.prepare(ADOPT_CONVERSIONS).bind(mark));
  if (visitRows.length) {
    const totals = visitTotals(visitRows);
    VISIT_ROLLUPS.forEach(({ fast, slow }, g) => {
      statements.push(
        db.prepare(fast).bind(mark, visitRows.length, totals[g]),
        db.prepare(slow).bind(mark, visitRows.length),
      );
    });
  }
  for (const sql of OTHER_ROLLUPS) statements.push(db.prepare(sql).bind(mark));
  statements.push(...tokenRollupStatements(db, mark));
  push('postbacks', db.prepare(QUEUE_POSTBACKS).bind(mark));
  statements.push(...statsIngestStatements(db, mark, events, timeZone));
  statements.push(db.prepare(SQL.unmark).bind(mark));

  const results = await db.batch(statements);
  result.visits = at.visits === undefined ? 0 : (results[at.visits].meta.changes ?? 0);
  result.lpClicks = at.lp === undefined ? 0 : (results[at.lp].meta.changes ?? 0);
  result.conversions = at.conversions === undefined ? 0 : (results[at.conversions].meta.changes ?? 0);
  result.postbackIds = (results[at.postbacks].results as { id: number }[]).map((r) => r.id);
  if (at.refusals !== undefined) {
    const refused = results[at.refusals].results as { campaign_id: number; count: number }[];
    if (refused.length) await alertCapRefusals(env, refused, now);
  }
  return result;
}
