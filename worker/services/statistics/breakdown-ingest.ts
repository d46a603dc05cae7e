import { STORED_DIMENSIONS } from '../../../schema/stats-reports-api';
import type { TrackEvent } from '../../../schema/tracking';
import { BREAKDOWN_KEYS, visitBreakdownRows } from './breakdown-dimensions';

// The breakdown rollup's statements for one ingest transaction (docs/decisions/112-breakdowns.md),
// added to the batch by ingest-extras.ts. They read the rows the transaction inserted or adopted
// (ingest mark ?1) and add, per campaign and day, one row per dimension value and one per pair
// of dimension values (dim < dim2 by name): visits, LP clicks, goal conversions and revenue.
// Every dimension comes from the visit: country, device, OS and browser from its user agent, the
// referrer's domain, and the hour of the click in the installation's time zone.

const from = (column: string) => `(SELECT ${column} FROM ingest_marks WHERE id = ?1)`;
const touched = (table: string, fromColumn: string, columns: string) =>
  `SELECT ${columns} FROM ${table} WHERE id > ${from(fromColumn)}
   UNION ALL SELECT ${columns} FROM ${table} WHERE adopted_mark = ?1 AND id <= ${from(fromColumn)}`;

// LIKE is case-insensitive for ASCII; the first match wins, so the order matters (Chrome's agent
// names Safari, Edge's names Chrome).
const OS = `CASE
  WHEN v.user_agent LIKE '%Windows%' THEN 'Windows'
  WHEN v.user_agent LIKE '%iPhone%' OR v.user_agent LIKE '%iPad%' OR v.user_agent LIKE '%iPod%' THEN 'iOS'
  WHEN v.user_agent LIKE '%Android%' THEN 'Android'
  WHEN v.user_agent LIKE '%CrOS%' THEN 'Chrome OS'
  WHEN v.user_agent LIKE '%Macintosh%' OR v.user_agent LIKE '%Mac OS X%' THEN 'macOS'
  WHEN v.user_agent LIKE '%Linux%' THEN 'Linux'
  ELSE 'Other' END`;

const BROWSER = `CASE
  WHEN v.user_agent LIKE '%Edg/%' OR v.user_agent LIKE '%Edge/%' OR v.user_agent LIKE '%EdgiOS%' THEN 'Edge'
  WHEN v.user_agent LIKE '%OPR/%' OR v.user_agent LIKE '%Opera%' THEN 'Opera'
  WHEN v.user_agent LIKE '%SamsungBrowser%' THEN 'Samsung Internet'
  WHEN v.user_agent LIKE '%FBAN%' OR v.user_agent LIKE '%FBAV%' OR v.user_agent LIKE '%Instagram%' THEN 'In-app (Meta)'
  WHEN v.user_agent LIKE '%Firefox/%' OR v.user_agent LIKE '%FxiOS%' THEN 'Firefox'
  WHEN v.user_agent LIKE '%CriOS%' OR v.user_agent LIKE '%Chrome/%' THEN 'Chrome'
  WHEN v.user_agent LIKE '%Safari/%' THEN 'Safari'
  ELSE 'Other' END`;

/** The host of the referrer without scheme, path, query, port and a leading www. ('' without one). */
function referrerDomain(column: string): string {
  const cut = (s: string, ch: string) => `substr(${s}, 1, instr(${s} || '${ch}', '${ch}') - 1)`;
  const lower = `lower(trim(${column}))`;
  const noScheme = `(CASE WHEN instr(${lower}, '://') > 0 THEN substr(${lower}, instr(${lower}, '://') + 3) ELSE ${lower} END)`;
  const host = cut(cut(cut(cut(noScheme, '/'), '?'), '#'), ':');
  return `(CASE WHEN ${host} LIKE 'www.%' THEN substr(${host}, 5) ELSE ${host} END)`;
}

/**
 * The click's hour in the installation's zone: ?2 maps each quarter-hour of the batch's event
 * times ('b' + ms / 900000) to its local hour; a time outside the batch (a conversion on an older
 * visit) takes the zone's offset now, ?3 seconds.
 */
const HOUR = `printf('%02d', coalesce(json_extract(?2, '$.b' || (v.created_at / 900000)),
  ((v.created_at / 1000 + ?3) / 3600) % 24))`;

const DIMENSION_SQL: Record<(typeof STORED_DIMENSIONS)[number], string> = {
  browser: BROWSER,
  country: `v.country`,
  device: `v.device`,
  hour: HOUR,
  os: OS,
  referrer: referrerDomain('v.referrer'),
};

const COUNTS = 'visits, lp_clicks, conversions, revenue_micros';

/** Each dimension alone (dim2 '') and each pair once (dim < dim2), as a JSON list of [dim, dim2]. */
const DIMS = [...STORED_DIMENSIONS].sort();
const KEYS = JSON.stringify(BREAKDOWN_KEYS);
const pick = (name: string) =>
  `CASE ${name} ${DIMS.map((d) => `WHEN '${d}' THEN r.${d}`).join(' ')} ELSE '' END`;

/**
 * One statement: the rows `source` yields (campaign_id, day, counts, and visit v), each expanded
 * to every dimension and pair by a join with KEYS (D1 refuses a UNION of 21 selects).
 */
function rollup(source: string): string {
  const columns = DIMS.map((d) => `${DIMENSION_SQL[d]} AS ${d}`).join(',\n    ');
  return `WITH r AS MATERIALIZED (SELECT campaign_id, day, ${COUNTS},
    ${columns}
  FROM (${source}) v),
  g AS (SELECT campaign_id, day, sum(visits) AS visits, sum(lp_clicks) AS lp_clicks,
    sum(conversions) AS conversions, sum(revenue_micros) AS revenue_micros, ${DIMS.join(', ')}
  FROM r GROUP BY campaign_id, day, ${DIMS.join(', ')}),
  x AS (SELECT r.campaign_id, r.day, k.value ->> 0 AS dim, ${pick('k.value ->> 0')} AS value,
    k.value ->> 1 AS dim2, ${pick('k.value ->> 1')} AS value2, r.visits, r.lp_clicks, r.conversions,
    r.revenue_micros FROM g AS r, json_each('${KEYS}') k)
  INSERT INTO breakdown_daily (campaign_id, day, dim, value, dim2, value2, ${COUNTS})
  SELECT campaign_id, day, dim, value, dim2, value2, sum(visits), sum(lp_clicks), sum(conversions), sum(revenue_micros)
  FROM x GROUP BY campaign_id, day, dim, value, dim2, value2
  ON CONFLICT (campaign_id, day, dim, dim2, value, value2) DO UPDATE SET visits = visits + excluded.visits,
    lp_clicks = lp_clicks + excluded.lp_clicks, conversions = conversions + excluded.conversions,
    revenue_micros = revenue_micros + excluded.revenue_micros`;
}

const VISIT_COLUMNS = 'v.user_agent, v.referrer, v.created_at, v.country, v.device';

/**
 * Visits come two ways, as the other visit rollups (ingest.ts visitRollups). Fast: when every
 * visit of the batch was new (visits_inserted equals the batch's count, ?3), the rows worked out
 * in JS (?2, breakdown-dimensions.ts) are added as they are. Slow: otherwise (a redelivery, a
 * duplicate) the rows this transaction inserted are expanded in SQL, about 40 rows read per visit.
 * Exactly one of the two does anything: when the fast one applies, the slow one's range is empty.
 */
const VISITS_FAST = `INSERT INTO breakdown_daily (campaign_id, day, dim, value, dim2, value2, ${COUNTS})
  SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, 0, 0, 0
  FROM json_each(?2) WHERE (SELECT visits_inserted FROM ingest_marks WHERE id = ?1) = ?3
  ON CONFLICT (campaign_id, day, dim, dim2, value, value2) DO UPDATE SET visits = visits + excluded.visits`;

const VISITS_SLOW = rollup(`SELECT v.campaign_id, v.day, 1 AS visits, 0 AS lp_clicks, 0 AS conversions,
    0 AS revenue_micros, ${VISIT_COLUMNS}
  FROM visits v WHERE v.id > (SELECT CASE WHEN visits_inserted = ?4 THEN ${Number.MAX_SAFE_INTEGER}
    ELSE visits_from END FROM ingest_marks WHERE id = ?1) AND v.filter IS NULL`);

const LP_CLICKS = rollup(`SELECT l.campaign_id, l.day, 0 AS visits, 1 AS lp_clicks, 0 AS conversions,
    0 AS revenue_micros, ${VISIT_COLUMNS}
  FROM (${touched('lp_clicks', 'lp_clicks_from', 'campaign_id, day, click_id, filter, orphan')}) l
  JOIN visits v ON v.click_id = l.click_id WHERE l.orphan = 0 AND l.filter IS NULL`);

const CONVERSIONS =
  rollup(`SELECT c.campaign_id, c.day, 0 AS visits, 0 AS lp_clicks, c.is_goal AS conversions,
    coalesce(c.payout_micros, 0) AS revenue_micros, ${VISIT_COLUMNS}
  FROM (${touched('conversions', 'conversions_from', 'campaign_id, day, click_id, is_goal, payout_micros, orphan')}) c
  JOIN visits v ON v.click_id = c.click_id WHERE c.orphan = 0`);

/** The local hour of each quarter-hour of `times` in `timeZone`, and the zone's offset now (s). */
function hourMap(
  times: readonly number[],
  timeZone: string,
): { hours: Record<string, number>; map: string; offsetNow: number } {
  const hour = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' });
  const map: Record<string, number> = {};
  for (const t of times) {
    const key = `b${Math.floor(t / 900_000)}`;
    if (!(key in map)) map[key] = Number(hour.format(t)) % 24;
  }
  const now = Date.now();
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  const offsetNow = Math.round((local - Math.floor(now / 60_000) * 60_000) / 1000);
  return { hours: map, map: JSON.stringify(map), offsetNow };
}

export function breakdownStatements(
  db: D1Database,
  mark: number,
  events: readonly TrackEvent[],
  timeZone: string,
): D1PreparedStatement[] {
  const { hours, map, offsetNow } = hourMap(
    events.map((e) => e.at),
    timeZone,
  );
  const out: D1PreparedStatement[] = [];
  const visits = visitBreakdownRows(events, timeZone, hours);
  if (visits.visits > 0) {
    out.push(
      db.prepare(VISITS_FAST).bind(mark, visits.rows, visits.visits),
      db.prepare(VISITS_SLOW).bind(mark, map, offsetNow, visits.visits),
    );
  }
  // Adopted orphans can come with any batch, so these always run (their range is small).
  out.push(
    db.prepare(LP_CLICKS).bind(mark, map, offsetNow),
    db.prepare(CONVERSIONS).bind(mark, map, offsetNow),
  );
  return out;
}
