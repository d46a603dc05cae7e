import { addDays } from '../../../schema/dates';
import { type ReportsAnswer, reportTotal } from '../../../schema/masterdashboard-api';
import { addBase, emptyBase, type MetricBase } from '../../../schema/metrics';
import type { AllStudentsReportsAnswer } from '../../../schema/operator-api';
import type { Env } from '../../env';
import { type CallOptions, callInstallation } from './fan-out';
import { type Installation, listStudents } from './registry';

// The operator's cache of per-day totals per installation (student_daily): written by the cron
// refresh and update-student-data, read by the general mode, which then needs no fan-out.

/** The days the cron refresh copies on each run: the last 35 days and tomorrow (zones ahead). */
export function refreshWindow(today: string) {
  return { from: addDays(today, -34), to: addDays(today, 1) };
}

/**
 * Copies an installation's days of [from, to] into the cache, every day replaced (a day that lost
 * its numbers becomes 0), so that running it twice leaves the same rows. Answers the range's total.
 */
export async function refreshInstallation(
  env: Pick<Env, 'DB'>,
  inst: Installation,
  from: string,
  to: string,
  opts: CallOptions = {},
) {
  const answer = await callInstallation<ReportsAnswer>(
    inst,
    `reports?start_date=${from}&end_date=${to}`,
    {},
    opts,
  );
  if (!answer.ok) {
    await env.DB.prepare(
      `INSERT INTO student_refresh (installation_id, error) VALUES (?1, ?2)
       ON CONFLICT (installation_id) DO UPDATE SET error = excluded.error`,
    )
      .bind(inst.id, answer.error)
      .run();
    return { ok: false as const, error: answer.error };
  }
  const days = answer.data.days.filter((d) => d.date >= from && d.date <= to);
  const statements = days.map((d) =>
    env.DB.prepare(
      `INSERT INTO student_daily (installation_id, day, visits, lp_clicks, conversions, revenue_micros, impressions, ad_clicks, spend_micros)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
       ON CONFLICT (installation_id, day) DO UPDATE SET visits = excluded.visits, lp_clicks = excluded.lp_clicks,
         conversions = excluded.conversions, revenue_micros = excluded.revenue_micros, impressions = excluded.impressions,
         ad_clicks = excluded.ad_clicks, spend_micros = excluded.spend_micros`,
    ).bind(
      inst.id,
      d.date,
      d.visits,
      d.lp_clicks,
      d.conversions,
      d.revenue_micros,
      d.impressions,
      d.ad_clicks,
      d.ad_spend_micros,
    ),
  );
  statements.push(
    env.DB.prepare(
      `INSERT INTO student_refresh (installation_id, refreshed_at, from_day, to_day, error) VALUES (?1, ?2, ?3, ?4, NULL)
       ON CONFLICT (installation_id) DO UPDATE SET refreshed_at = excluded.refreshed_at, from_day = excluded.from_day,
         to_day = excluded.to_day, error = NULL`,
    ).bind(inst.id, Date.now(), from, to),
  );
  await env.DB.batch(statements);
  const base = days.reduce<MetricBase>(
    (a, d) =>
      addBase(a, {
        visits: d.visits,
        lpClicks: d.lp_clicks,
        conversions: d.conversions,
        revenue: d.revenue_micros,
        impressions: d.impressions,
        adClicks: d.ad_clicks,
        spend: d.ad_spend_micros,
      }),
    emptyBase(),
  );
  return { ok: true as const, total: reportTotal(base), days: days.length };
}

/** Every student's totals over [from, to] from the cache (the general mode). */
export async function cachedReports(
  env: Pick<Env, 'DB'>,
  from: string,
  to: string,
): Promise<AllStudentsReportsAnswer> {
  const [students, sums, refresh] = await Promise.all([
    listStudents(env),
    env.DB.prepare(
      `SELECT installation_id id, sum(visits) v, sum(lp_clicks) l, sum(conversions) c, sum(revenue_micros) r,
         sum(impressions) i, sum(ad_clicks) a, sum(spend_micros) s
       FROM student_daily WHERE day BETWEEN ?1 AND ?2 GROUP BY installation_id`,
    )
      .bind(from, to)
      .all<{ id: number; v: number; l: number; c: number; r: number; i: number; a: number; s: number }>(),
    env.DB.prepare('SELECT installation_id id, refreshed_at, error FROM student_refresh').all<{
      id: number;
      refreshed_at: number | null;
      error: string | null;
    }>(),
  ]);
  const byId = new Map(sums.results.map((r) => [r.id, r]));
  const refreshed = new Map(refresh.results.map((r) => [r.id, r]));
  let all = emptyBase();
  const out = students.map((s) => {
    const r = byId.get(s.id);
    const base: MetricBase = r
      ? {
          visits: r.v,
          lpClicks: r.l,
          conversions: r.c,
          revenue: r.r,
          impressions: r.i,
          adClicks: r.a,
          spend: r.s,
        }
      : emptyBase();
    all = addBase(all, base);
    return {
      ...s,
      total: reportTotal(base),
      refreshed_at: refreshed.get(s.id)?.refreshed_at ?? null,
      error: refreshed.get(s.id)?.error ?? null,
    };
  });
  return { students: out, total: reportTotal(all) };
}
