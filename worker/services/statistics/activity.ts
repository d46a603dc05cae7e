import type { CampaignReportAnswer, CampaignReportNumbers } from '../../../schema/campaign-reports-api';
import { addDays, dayInZone } from '../../../schema/dates';
import type { Env } from '../../env';
import { all, type DayBounds, n, rowTotals, SPEND, type StatsCampaign, TD } from './common';

// Per-day series: the statistics screen's activity chart and the dashboard's quick stats.

/** Daily visitors for the activity chart, every day of the range present (0 when none). */
export async function activity(env: Pick<Env, 'DB'>, campaignId: number, b: DayBounds, timeZone: string) {
  const rows = await all(
    env,
    'SELECT day, sum(visits) v FROM target_daily WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3 GROUP BY day ORDER BY day',
    campaignId,
    b.from,
    b.to,
  );
  if (rows.length === 0) return [];
  const byDay = new Map(rows.map((r) => [String(r.day), n(r.v)]));
  const first = b.from === '0000-01-01' ? String(rows[0].day) : b.from;
  const today = dayInZone(Date.now(), timeZone);
  const last =
    b.to === '9999-12-31'
      ? String(rows[rows.length - 1].day) > today
        ? String(rows[rows.length - 1].day)
        : today
      : b.to;
  const out: { date: string; visitors: number }[] = [];
  for (let d = first; d <= last && out.length < 3700; d = addDays(d, 1))
    out.push({ date: d, visitors: byDay.get(d) ?? 0 });
  return out;
}

export async function campaignVisits(env: Pick<Env, 'DB'>, campaignId: number): Promise<number> {
  const row = await env.DB.prepare(
    'SELECT coalesce(sum(visits), 0) v FROM target_daily WHERE campaign_id = ?1',
  )
    .bind(campaignId)
    .first<{ v: number }>();
  return n(row?.v);
}

/** Per-day totals for the dashboard (spec 1 §3 quick-stats): costs, visitors, LP clicks, revenue, conversions. */
export async function dailySeries(env: Pick<Env, 'DB'>, c: StatsCampaign, b: DayBounds) {
  const rows = await all(
    env,
    `SELECT day, sum(visits) v, sum(lp_clicks) l, sum(conversions) c, sum(revenue_micros) r,
      sum(impressions) i, sum(ad_clicks) a, sum(${SPEND}) s ${TD} GROUP BY day ORDER BY day`,
    c.id,
    b.from,
    b.to,
    c.cpcMicros,
  );
  return rows.map((r) => ({ day: String(r.day), ...rowTotals(r) }));
}

const zeroNumbers = (): CampaignReportNumbers => ({
  visits: 0,
  lpClicks: 0,
  conversions: 0,
  impressions: 0,
  adClicks: 0,
  revenueMicros: 0,
  spendMicros: 0,
});

/** POST /api/reports (spec 1 §7): every day of [from, to] and the total, money in micros. */
export async function campaignReport(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  from: string,
  to: string,
): Promise<CampaignReportAnswer> {
  const byDay = new Map((await dailySeries(env, c, { from, to })).map((d) => [d.day, d]));
  const reports: CampaignReportAnswer['reports'] = [];
  const total = zeroNumbers();
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const t = byDay.get(d);
    const day = t
      ? {
          visits: t.visits,
          lpClicks: t.lpClicks,
          conversions: t.conversions,
          impressions: t.impressions,
          adClicks: t.adClicks,
          revenueMicros: t.revenue,
          spendMicros: t.spend,
        }
      : zeroNumbers();
    for (const k of Object.keys(total) as (keyof CampaignReportNumbers)[]) total[k] += day[k];
    reports.push({ date: d, ...day });
  }
  return { campaignId: c.id, start_date: from, end_date: to, reports, total };
}
