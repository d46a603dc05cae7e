import { addDays, dayInZone } from '../../../schema/dates';
import { fromMicros } from '../../../schema/money';
import type { ReportPeriod, ReportPeriodsAnswer, ReportQuery, ReportRow } from '../../../schema/money-api';
import type { Env } from '../../env';
import { getSettings } from '../settings/settings';

// The public rotator offer report (spec 4 "Rotator offer report"; the numbers are defined in
// docs/statistics.md, "Rotator offer report"). Read from the daily rollups, never raw rows.

export type ReportOffer = {
  id: number;
  name: string;
  campaignId: number;
  createdAt: number;
  cpcMicros: number;
};

/**
 * The offer when `email` is its participant's, else null. An unknown offer, an offer that is
 * not on a rotator, a deleted one, and a wrong or missing email all answer the same null, so
 * the caller cannot tell them apart.
 */
export async function reportOffer(
  env: Pick<Env, 'DB'>,
  offerId: number,
  email: string,
): Promise<ReportOffer | null> {
  const wanted = email.trim().toLowerCase();
  if (!Number.isSafeInteger(offerId) || offerId < 1 || !wanted) return null;
  const row = await env.DB.prepare(
    `SELECT o.id, o.name, o.campaign_id, o.created_at, o.rotator_participant_email AS email, c.cpc_micros
     FROM offer_pages o JOIN campaigns c ON c.id = o.campaign_id
     WHERE o.id = ?1 AND o.deleted = 0 AND c.deleted = 0 AND c.campaign_type = 'rotator'`,
  )
    .bind(offerId)
    .first<{
      id: number;
      name: string;
      campaign_id: number;
      created_at: number;
      email: string;
      cpc_micros: number;
    }>();
  if (!row?.email || row.email.trim().toLowerCase() !== wanted) return null;
  return {
    id: row.id,
    name: row.name,
    campaignId: row.campaign_id,
    createdAt: row.created_at,
    cpcMicros: row.cpc_micros,
  };
}

const monthOf = (day: string) => day.slice(0, 7);

function monthEnd(day: string): string {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1, 0);
  return d.toISOString().slice(0, 10);
}

/**
 * The periods of the selector: calendar months (installation time zone) from the offer's first
 * day (its first visit, or the day it was created when it has none) to the current month.
 */
export async function reportPeriods(env: Pick<Env, 'DB'>, offer: ReportOffer): Promise<ReportPeriodsAnswer> {
  const [settings, first] = await Promise.all([
    getSettings(env),
    env.DB.prepare('SELECT MIN(day) AS day FROM placement_daily WHERE campaign_id = ?1 AND offer_id = ?2')
      .bind(offer.campaignId, offer.id)
      .first<{ day: string | null }>(),
  ]);
  const today = dayInZone(Date.now(), settings.time_zone);
  const created = dayInZone(offer.createdAt, settings.time_zone);
  let start = first?.day && first.day < created ? first.day : created;
  if (start > today) start = today;
  const dates: ReportPeriod[] = [];
  let cursor = start;
  while (monthOf(cursor) <= monthOf(today) && dates.length < 240) {
    dates.push({ start_date: cursor, end_date: monthEnd(cursor) });
    cursor = addDays(monthEnd(cursor), 1);
  }
  return { dates, start_date: start, offer_name: offer.name };
}

type DayRow = {
  day: string;
  visits: number;
  sales: number;
  revenue: number;
  day_visits: number;
  spend: number;
};

// Per day: the offer's visits, sales and revenue, every visit of the rotator that day, and the
// rotator's spend that day (cost rows where they exist, else the campaign's CPC per visit).
const DAILY = `
WITH o AS (
  SELECT day, SUM(visits) AS visits, SUM(conversions) AS sales, SUM(revenue_micros) AS revenue
  FROM placement_daily WHERE campaign_id = ?1 AND offer_id = ?2 AND day BETWEEN ?3 AND ?4 GROUP BY day
), v AS (
  SELECT day, SUM(visits) AS visits FROM placement_daily
  WHERE campaign_id = ?1 AND day BETWEEN ?3 AND ?4 GROUP BY day
), s AS (
  SELECT day, SUM(CASE WHEN has_cost = 1 THEN spend_micros ELSE visits * ?5 END) AS spend
  FROM target_daily WHERE campaign_id = ?1 AND day BETWEEN ?3 AND ?4 GROUP BY day
)
SELECT o.day, o.visits, o.sales, o.revenue, COALESCE(v.visits, 0) AS day_visits, COALESCE(s.spend, 0) AS spend
FROM o LEFT JOIN v ON v.day = o.day LEFT JOIN s ON s.day = o.day ORDER BY o.day`;

type Sums = { spend: number; clicks: number; sales: number; revenue: number };

function toRow(date: string, t: Sums): ReportRow {
  return {
    date,
    ad_spend: round2(fromMicros(t.spend)),
    clicks: t.clicks,
    sales: t.sales,
    revenue: round2(fromMicros(t.revenue)),
    net_profit: round2(fromMicros(t.revenue - t.spend)),
    cpc: t.clicks ? round2(fromMicros(t.spend) / t.clicks) : 0,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Report rows by month or by day. The offer's ad spend on a day is the rotator's spend that day
 * shared out by visits: an offer that got 30 % of the rotator's visits carries 30 % of its spend
 * (the same rule as the statistics' offer table).
 */
export async function reportRows(
  env: Pick<Env, 'DB'>,
  offer: ReportOffer,
  query: ReportQuery,
): Promise<ReportRow[]> {
  const end = query.group_by === 'day' ? query.end_date : '9999-12-31';
  const { results } = await env.DB.prepare(DAILY)
    .bind(offer.campaignId, offer.id, query.start_date, end, offer.cpcMicros)
    .all<DayRow>();
  const groups = new Map<string, Sums>();
  for (const r of results) {
    const key = query.group_by === 'month' ? monthOf(r.day) : r.day;
    const spend = r.day_visits ? Math.round((r.spend * r.visits) / r.day_visits) : 0;
    const g = groups.get(key) ?? { spend: 0, clicks: 0, sales: 0, revenue: 0 };
    g.spend += spend;
    g.clicks += r.visits;
    g.sales += r.sales;
    g.revenue += r.revenue;
    groups.set(key, g);
  }
  if (query.group_by === 'month') return [...groups.entries()].map(([date, sums]) => toRow(date, sums));
  // Days without traffic are rows of zeros, up to today: the daily table and charts show every day.
  const today = dayInZone(Date.now(), (await getSettings(env)).time_zone);
  const last = query.end_date < today ? query.end_date : today;
  const rows: ReportRow[] = [];
  const empty: Sums = { spend: 0, clicks: 0, sales: 0, revenue: 0 };
  for (let day = query.start_date; day <= last && rows.length < 400; day = addDays(day, 1)) {
    rows.push(toRow(day, groups.get(day) ?? empty));
  }
  return rows;
}
