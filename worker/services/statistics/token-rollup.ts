import { TOKEN_SLOTS } from '../../../schema/tracking';
import type { Env } from '../../env';
import { all, type DayBounds, n, type StatsCampaign, tokenGroups } from './common';
import { emptyTarget, type TargetAgg, targetAggregates } from './targets';

// The extra-token rollups (migration 0017, docs/decisions/105-token-rollups.md): grouping the
// target table by one or several extra tokens reads token_daily instead of the raw rows, so the
// report costs what the rollup holds (bounded per campaign and day), not what the raw tables hold.

/**
 * Keys per campaign and day, the "other" key included. Past it, new (target, tokens) keys of that
 * day count into target '' / tokens '*'. 1,000 keeps a 30-day report near 30,000 rows.
 */
export const TOKEN_ROLLUP_LIMIT = 1000;
/** The "other" bucket's tokens and the value shown for each grouped token. */
const OTHER_TOKENS = '*';
export const OTHER_VALUE = '(other)';

/** All 20 slots' values as one JSON array, '' for none: the key of every grouping at once. */
const TOKENS_KEY = `json_array(${TOKEN_SLOTS.map((s) => `coalesce(t${s}, '')`).join(', ')})`;

const from = (column: string) => `(SELECT ${column} FROM ingest_marks WHERE id = ?1)`;
/** Rows the ingest transaction of mark ?1 inserted plus the older ones it adopted. */
const touched = (table: string, fromColumn: string, where: string) =>
  `(SELECT * FROM ${table} NOT INDEXED WHERE id > ${from(fromColumn)} AND ${where}
    UNION ALL SELECT * FROM ${table} WHERE adopted_mark = ?1 AND id <= ${from(fromColumn)} AND ${where})`;

/**
 * Adds grouped source rows (campaign_id, day, target, tokens, measures...) to token_daily. A key
 * already there, or a new one within the day's remaining room (largest first), keeps its own row;
 * the rest go to "other". The room is counted once per campaign-day and statement, so the limit
 * holds exactly.
 */
function admitInto(source: string, measures: string[], update: string): string {
  return `WITH s AS MATERIALIZED (${source}),
  room AS MATERIALIZED (SELECT campaign_id, day, (SELECT count(*) FROM token_daily t WHERE t.campaign_id = d.campaign_id
      AND t.day = d.day AND t.tokens <> '${OTHER_TOKENS}') used FROM (SELECT DISTINCT campaign_id, day FROM s) d)
  INSERT INTO token_daily (campaign_id, day, target, tokens, ${measures.join(', ')})
  SELECT campaign_id, day, CASE WHEN admit THEN target ELSE '' END,
    CASE WHEN admit THEN tokens ELSE '${OTHER_TOKENS}' END, ${measures.join(', ')}
  FROM (SELECT *, known OR used + row_number() OVER (PARTITION BY campaign_id, day, known ORDER BY ${measures[0]} DESC)
      <= ${TOKEN_ROLLUP_LIMIT - 1} AS admit
    FROM (SELECT s.*, room.used, EXISTS (SELECT 1 FROM token_daily t WHERE t.campaign_id = s.campaign_id
        AND t.day = s.day AND t.target = s.target AND t.tokens = s.tokens) AS known
      FROM s JOIN room ON room.campaign_id = s.campaign_id AND room.day = s.day))
  WHERE true
  ON CONFLICT (campaign_id, day, target, tokens) DO UPDATE SET ${update}`;
}

const VISITS = admitInto(
  `SELECT campaign_id, day, target, ${TOKENS_KEY} tokens, count(*) visits FROM visits NOT INDEXED
    WHERE id > ${from('visits_from')} AND filter IS NULL GROUP BY 1, 2, 3, 4`,
  ['visits'],
  'visits = visits + excluded.visits',
);
const LP_CLICKS = admitInto(
  `SELECT campaign_id, day, target, ${TOKENS_KEY} tokens, count(*) lp_clicks
    FROM ${touched('lp_clicks', 'lp_clicks_from', 'orphan = 0 AND filter IS NULL')} GROUP BY 1, 2, 3, 4`,
  ['lp_clicks'],
  'lp_clicks = lp_clicks + excluded.lp_clicks',
);
const CONVERSIONS = admitInto(
  `SELECT campaign_id, day, target, ${TOKENS_KEY} tokens, sum(is_goal) conversions,
      sum(coalesce(payout_micros, 0)) revenue_micros
    FROM ${touched('conversions', 'conversions_from', 'orphan = 0')} GROUP BY 1, 2, 3, 4`,
  ['conversions', 'revenue_micros'],
  'conversions = conversions + excluded.conversions, revenue_micros = revenue_micros + excluded.revenue_micros',
);
// After CONVERSIONS: every conversion's key is then in token_daily unless it went to "other".
const EVENTS = `INSERT INTO token_event_daily (campaign_id, day, target, tokens, event, events, revenue_micros)
  SELECT s.campaign_id, s.day, coalesce(t.target, ''), coalesce(t.tokens, '${OTHER_TOKENS}'), s.event, s.events, s.revenue
  FROM (SELECT campaign_id, day, target, ${TOKENS_KEY} tokens, event, count(*) events,
      sum(coalesce(payout_micros, 0)) revenue
    FROM ${touched('conversions', 'conversions_from', 'orphan = 0')} GROUP BY 1, 2, 3, 4, 5) s
  LEFT JOIN token_daily t ON t.campaign_id = s.campaign_id AND t.day = s.day AND t.target = s.target
    AND t.tokens = s.tokens
  WHERE true
  ON CONFLICT (campaign_id, day, target, tokens, event) DO UPDATE SET events = events + excluded.events,
    revenue_micros = revenue_micros + excluded.revenue_micros`;

/**
 * The token rollup's statements for the ingest transaction of `mark` (worker/services/ingest/ingest.ts):
 * they read the rows that transaction inserted or adopted, so a replay adds nothing.
 */
export function tokenRollupStatements(db: D1Database, mark: number): D1PreparedStatement[] {
  return [VISITS, LP_CLICKS, CONVERSIONS, EVENTS].map((sql) => db.prepare(sql).bind(mark));
}

/**
 * Per (target, extra-token values) sums from token_daily, the shape of targetTokenAggregates. The
 * "other" bucket is one group (target '', every token '(other)'). Costs are known per target, so
 * each target's spend, impressions and ad clicks are shared out by visits; what falls to the
 * other bucket's visits goes to it, so the groups add up to the campaign.
 */
export async function targetTokenRollupAggregates(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  b: DayBounds,
  slots: { slot: number; parameter: string }[],
): Promise<TargetAgg[]> {
  const groupCols = slots
    .map(
      (s, i) =>
        `CASE WHEN tokens = '${OTHER_TOKENS}' THEN '${OTHER_VALUE}' ELSE tokens ->> ${s.slot - 1} END AS k${i}`,
    )
    .join(', ');
  const keyList = slots.map((_, i) => `k${i}`).join(', ');
  const where = 'campaign_id = ?1 AND day BETWEEN ?2 AND ?3';
  const [rows, events, targets] = await Promise.all([
    all(
      env,
      `SELECT target, ${groupCols}, sum(visits) v, sum(lp_clicks) l, sum(conversions) g, sum(revenue_micros) r
       FROM token_daily WHERE ${where} GROUP BY target, ${keyList}`,
      c.id,
      b.from,
      b.to,
    ),
    all(
      env,
      `SELECT target, ${groupCols}, event, sum(events) n FROM token_event_daily WHERE ${where}
       GROUP BY target, ${keyList}, event`,
      c.id,
      b.from,
      b.to,
    ),
    targetAggregates(env, c, b),
  ]);
  const { groups, group } = tokenGroups(slots, 'target', (r, tokens) =>
    emptyTarget(String(r.target), tokens),
  );
  for (const r of rows) {
    const g = group(r);
    g.visits += n(r.v);
    g.lpClicks += n(r.l);
    g.conversions += n(r.g);
    g.revenue += n(r.r);
  }
  for (const r of events) {
    const g = group(r);
    g.events[String(r.event)] = (g.events[String(r.event)] ?? 0) + n(r.n);
  }
  shareCosts([...groups.values()], targets);
  return [...groups.values()];
}

/** Spend, impressions and ad clicks of each target shared by visits; the unshared rest to "other". */
function shareCosts(groups: TargetAgg[], targets: TargetAgg[]) {
  const byTarget = new Map(targets.map((t) => [t.target, t]));
  const other = groups.find(
    (g) => g.target === '' && Object.values(g.tokens).every((v) => v === OTHER_VALUE),
  );
  const known = new Map<string, number>();
  for (const g of groups) if (g !== other) known.set(g.target, (known.get(g.target) ?? 0) + g.visits);
  for (const g of groups) {
    const t = byTarget.get(g.target);
    if (g === other || !t || t.visits <= 0) continue;
    const share = g.visits / t.visits;
    g.spend = Math.round(t.spend * share);
    g.impressions = Math.round(t.impressions * share);
    g.adClicks = Math.round(t.adClicks * share);
  }
  if (!other) return;
  for (const t of targets) {
    if (t.visits <= 0) continue;
    const rest = 1 - Math.min(1, (known.get(t.target) ?? 0) / t.visits);
    other.spend += Math.round(t.spend * rest);
    other.impressions += Math.round(t.impressions * rest);
    other.adClicks += Math.round(t.adClicks * rest);
  }
}
