// Statements the ingest transaction runs after its own rollups (worker/services/ingest/ingest.ts adds
// them with one call), reading the same ingest mark, so they count exactly the rows that
// transaction inserted or adopted and nothing on a replay:
//
// - stats_freshness: per campaign, the newest event time and a version bumped per transaction,
//   so a stored statistics job is never reused once newer data arrived (docs/decisions/110);
// - filtered_daily: filtered visits per reason, visit events whose click id was already stored
//   ('duplicate'), and conversions on filtered visits (docs/decisions/111);
// - breakdown_daily: the breakdowns by visit dimensions (breakdown-ingest.ts, docs/decisions/112).

import type { TrackEvent } from '../../../schema/tracking';
import { breakdownStatements } from './breakdown-ingest';

const from = (column: string) => `(SELECT ${column} FROM ingest_marks WHERE id = ?1)`;

/** Rows this transaction inserted plus older rows it adopted (as in ingest.ts). */
const touched = (table: string, fromColumn: string, columns: string) =>
  `SELECT ${columns} FROM ${table} WHERE id > ${from(fromColumn)}
   UNION ALL SELECT ${columns} FROM ${table} WHERE adopted_mark = ?1 AND id <= ${from(fromColumn)}`;

const FRESHNESS = `INSERT INTO stats_freshness (campaign_id, newest_event_at, version, changed_at)
  SELECT campaign_id, max(created_at), 1, ?2 FROM (
    SELECT campaign_id, created_at FROM visits WHERE id > ${from('visits_from')}
    UNION ALL ${touched('lp_clicks', 'lp_clicks_from', 'campaign_id, created_at')}
    UNION ALL ${touched('conversions', 'conversions_from', 'campaign_id, created_at')}
  ) GROUP BY campaign_id
  ON CONFLICT (campaign_id) DO UPDATE SET version = version + 1, changed_at = excluded.changed_at,
    newest_event_at = max(newest_event_at, excluded.newest_event_at)`;

const FILTERED_VISITS = `INSERT INTO filtered_daily (campaign_id, day, reason, clicks)
  SELECT campaign_id, day, filter, count(*) FROM visits NOT INDEXED
  WHERE id > ${from('visits_from')} AND filter IS NOT NULL GROUP BY campaign_id, day, filter
  ON CONFLICT (campaign_id, day, reason) DO UPDATE SET clicks = clicks + excluded.clicks`;

// ?2: the click ids of the batch's visit events. One already stored before this transaction is a
// duplicate (a resent or redelivered click): dropped by the insert, counted here on its stored day.
const DUPLICATE_VISITS = `INSERT INTO filtered_daily (campaign_id, day, reason, clicks)
  SELECT v.campaign_id, v.day, 'duplicate', count(*) FROM json_each(?2) j
  JOIN visits v ON v.click_id = j.value WHERE v.id <= ${from('visits_from')}
  GROUP BY v.campaign_id, v.day
  ON CONFLICT (campaign_id, day, reason) DO UPDATE SET clicks = clicks + excluded.clicks`;

const FILTERED_CONVERSIONS = `INSERT INTO filtered_daily (campaign_id, day, reason, conversions, revenue_micros)
  SELECT c.campaign_id, c.day, v.filter, sum(c.is_goal), sum(coalesce(c.payout_micros, 0))
  FROM (${touched('conversions', 'conversions_from', 'campaign_id, day, click_id, is_goal, payout_micros, orphan')}) c
  JOIN visits v ON v.click_id = c.click_id
  WHERE c.orphan = 0 AND v.filter IS NOT NULL GROUP BY c.campaign_id, c.day, v.filter
  ON CONFLICT (campaign_id, day, reason) DO UPDATE SET conversions = conversions + excluded.conversions,
    revenue_micros = revenue_micros + excluded.revenue_micros`;

/** The statements, in order, for the transaction of ingest mark `mark` writing `events`. */
export function statsIngestStatements(
  db: D1Database,
  mark: number,
  events: readonly TrackEvent[],
  timeZone: string,
): D1PreparedStatement[] {
  const visitClickIds = [...new Set(events.filter((e) => e.k === 'v').map((e) => e.id))];
  const statements = [
    db.prepare(FRESHNESS).bind(mark, Date.now()),
    db.prepare(FILTERED_CONVERSIONS).bind(mark),
    ...breakdownStatements(db, mark, events, timeZone),
  ];
  if (visitClickIds.length) {
    statements.push(
      db.prepare(FILTERED_VISITS).bind(mark),
      db.prepare(DUPLICATE_VISITS).bind(mark, JSON.stringify(visitClickIds)),
    );
  }
  return statements;
}

/** Bumps the campaign's statistics version: costs changed, so stored jobs are out of date. */
export function bumpStatsVersion(db: D1Database, campaignId: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO stats_freshness (campaign_id, version, changed_at) VALUES (?1, 1, ?2)
       ON CONFLICT (campaign_id) DO UPDATE SET version = version + 1, changed_at = excluded.changed_at`,
    )
    .bind(campaignId, Date.now());
}
