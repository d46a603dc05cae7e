import { addDays } from '../../../schema/dates';
import { cr, lpCtr, roi, round, safeDiv } from '../../../schema/metrics';
import type {
  BreakdownAnswer,
  BreakdownChange,
  BreakdownDimension,
  BreakdownMetrics,
  BreakdownRow,
} from '../../../schema/stats-reports-api';
import { BREAKDOWN_METRICS } from '../../../schema/stats-reports-api';
import type { Env } from '../../env';
import { all, type DayBounds, dollars, SPEND, type StatsCampaign, TD } from './common';

// Breakdowns of the statistics screen (docs/decisions/112-breakdowns.md), read from the
// breakdown_daily rollup: one level or two, the target table's metrics and totals, and the
// previous period of equal length. Spend is known per day (and target), not per visit: each
// day's spend is shared out among the day's cells by visits, as the landing table does.

type Cell = { a: string; b: string; day: string; visits: number; lp: number; conv: number; rev: number };
type Sums = { visits: number; lp: number; conv: number; rev: number; spend: number };

const ROW_LIMIT = 500;
const CHILD_LIMIT = 100;

/** The SQL that answers cells (a, b, day) for the levels asked for. */
function cellQuery(
  by: BreakdownDimension,
  second: BreakdownDimension | '',
): { sql: string; params: string[] } {
  const base = 'FROM breakdown_daily WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3';
  const sums = 'sum(visits) visits, sum(lp_clicks) lp, sum(conversions) conv, sum(revenue_micros) rev';
  // A stored dimension's own rows (any one of them when only the day is asked for).
  const single = (dim: string, a: string, b: string) => ({
    sql: `SELECT ${a} a, ${b} b, day, ${sums} ${base} AND dim = ?4 AND dim2 = '' GROUP BY 1, 2, 3`,
    params: [dim],
  });
  if (by === 'day') return single(second || 'device', 'day', second ? 'value' : "''");
  if (second === 'day' || second === '') return single(by, 'value', second === 'day' ? 'day' : "''");
  const [first, other] = [by, second].sort();
  const swapped = first !== by;
  return {
    sql: `SELECT ${swapped ? 'value2' : 'value'} a, ${swapped ? 'value' : 'value2'} b, day, ${sums} ${base}
      AND dim = ?4 AND dim2 = ?5 GROUP BY 1, 2, 3`,
    params: [first, other],
  };
}

function metrics(s: Sums): BreakdownMetrics {
  return {
    visits: s.visits,
    lpclicks: s.lp,
    lpctr: lpCtr(s.lp, s.visits, 2),
    conversions: s.conv,
    cr: cr(s.conv, s.visits),
    revenue: dollars(s.rev),
    ad_spent: dollars(s.spend),
    net: dollars(s.rev - s.spend),
    roi: roi(s.rev, s.spend),
    epc: dollars(Math.round(safeDiv(s.rev, s.visits))),
    cpa: dollars(Math.round(safeDiv(s.spend, s.conv))),
  };
}

/** Change in percent of each metric against `before` (null when it was 0 and is not now). */
function change(now: BreakdownMetrics, before: BreakdownMetrics): BreakdownChange {
  const out = {} as BreakdownChange;
  for (const m of BREAKDOWN_METRICS)
    out[m] =
      before[m] === 0
        ? now[m] === 0
          ? 0
          : null
        : round(((now[m] - before[m]) / Math.abs(before[m])) * 100, 1);
  return out;
}

const zero = (): Sums => ({ visits: 0, lp: 0, conv: 0, rev: 0, spend: 0 });
const add = (into: Sums, c: Cell, spend: number) => {
  into.visits += c.visits;
  into.lp += c.lp;
  into.conv += c.conv;
  into.rev += c.rev;
  into.spend += spend;
};

/** Natural order: hours and days ascending, everything else by visits (then name). */
function ordered(by: BreakdownDimension, entries: [string, Sums][]) {
  if (by === 'hour' || by === 'day') return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.sort(([a, x], [b, y]) => y.visits - x.visits || (a < b ? -1 : a > b ? 1 : 0));
}

async function level(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  bounds: DayBounds,
  by: BreakdownDimension,
  second: BreakdownDimension | '',
) {
  const q = cellQuery(by, second);
  const [cells, days] = await Promise.all([
    all<Cell>(env, q.sql, c.id, bounds.from, bounds.to, ...q.params),
    all<{ day: string; visits: number; spend: number }>(
      env,
      `SELECT day, sum(visits) visits, sum(${SPEND}) spend ${TD} GROUP BY day`,
      c.id,
      bounds.from,
      bounds.to,
      c.cpcMicros,
    ),
  ]);
  const dayCost = new Map(days.map((d) => [d.day, d]));
  const rows = new Map<string, { sums: Sums; children: Map<string, Sums> }>();
  const total = zero();
  for (const cell of cells) {
    const d = dayCost.get(cell.day);
    const spend = d && d.visits > 0 ? Math.round((d.spend * cell.visits) / d.visits) : 0;
    let row = rows.get(cell.a);
    if (!row) {
      row = { sums: zero(), children: new Map() };
      rows.set(cell.a, row);
    }
    add(row.sums, cell, spend);
    add(total, cell, spend);
    if (second) {
      let child = row.children.get(cell.b);
      if (!child) {
        child = zero();
        row.children.set(cell.b, child);
      }
      add(child, cell, spend);
    }
  }
  const out: BreakdownRow[] = ordered(
    by,
    [...rows].map(([value, r]) => [value, r.sums]),
  )
    .slice(0, ROW_LIMIT)
    .map(([value, sums]) => {
      const row: BreakdownRow = { value, ...metrics(sums) };
      if (second) {
        const children = rows.get(value)?.children ?? new Map();
        row.children = ordered(second, [...children])
          .slice(0, CHILD_LIMIT)
          .map(([v, s]) => ({ value: v, ...metrics(s) }));
      }
      return row;
    });
  return { rows: out, total: metrics(total) };
}

/** The day count of a closed range, and the range of equal length just before it. */
function previousPeriod(bounds: DayBounds): { from: string; to: string } | null {
  if (bounds.from === '0000-01-01' || bounds.to === '9999-12-31') return null;
  const days = Math.round((Date.parse(bounds.to) - Date.parse(bounds.from)) / 86_400_000) + 1;
  return { from: addDays(bounds.from, -days), to: addDays(bounds.from, -1) };
}

export async function breakdown(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  bounds: DayBounds,
  by: BreakdownDimension,
  second: BreakdownDimension | '',
  compare: boolean,
): Promise<BreakdownAnswer> {
  const now = await level(env, c, bounds, by, second);
  const prevBounds = compare ? previousPeriod(bounds) : null;
  if (!prevBounds)
    return {
      by,
      second,
      rows: now.rows,
      total: now.total,
      previousPeriod: null,
      previousTotal: null,
      totalChange: null,
    };
  const before = await level(env, c, prevBounds, by, '');
  const previous = new Map(before.rows.map((r) => [r.value, r]));
  const empty = metrics(zero());
  const rows = now.rows.map((r) => {
    const { value: _v, children: _c, ...p } = previous.get(r.value) ?? { value: '', ...empty };
    return { ...r, previous: p, change: change(r, p) };
  });
  return {
    by,
    second,
    rows,
    total: now.total,
    previousPeriod: { start: prevBounds.from, end: prevBounds.to },
    previousTotal: before.total,
    totalChange: change(now.total, before.total),
  };
}
