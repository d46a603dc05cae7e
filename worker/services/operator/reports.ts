import { and, eq, inArray } from 'drizzle-orm';
import { campaigns } from '../../../schema/campaigns';
import { addDays } from '../../../schema/dates';
import {
  type CampaignReport,
  type ReportDay,
  type ReportsAnswer,
  reportDay,
  reportTotal,
} from '../../../schema/masterdashboard-api';
import { addBase, emptyBase, type MetricBase } from '../../../schema/metrics';
import type { Env } from '../../env';
import { getDb } from '../../lib/db';
import type { CampaignRow } from '../campaigns/access';
import { dailySeries, dayBounds } from '../statistics';
import { toStatsCampaign } from '../statistics/stats-jobs';
import { applyCorrections, liveCorrections } from './corrections';

// The numbers an installation reports to the operator: the statistics' own per-day series
// (worker/services/statistics dailySeries: rollups, effective costs, CPC fallback) with the
// operator's live corrections laid over them. Formulas: schema/metrics.ts via reportTotal.

export type CampaignDays = { row: CampaignRow; days: Map<string, MetricBase> };

/** Every day of [from, to]. */
function everyDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

export async function reportCampaigns(env: Pick<Env, 'DB'>, ids?: number[]): Promise<CampaignRow[]> {
  const db = getDb(env);
  const where = ids
    ? and(eq(campaigns.isDir, 0), inArray(campaigns.id, ids))
    : and(eq(campaigns.isDir, 0), eq(campaigns.deleted, 0));
  return db.select().from(campaigns).where(where).orderBy(campaigns.id).all();
}

export async function campaignRow(env: Pick<Env, 'DB'>, id: number): Promise<CampaignRow | null> {
  const [row] = await reportCampaigns(env, [id]);
  return row ?? null;
}

/** Per campaign, per day of [from, to]: tracked numbers with corrections applied. */
export async function campaignDays(
  env: Pick<Env, 'DB'>,
  rows: CampaignRow[],
  from: string,
  to: string,
): Promise<CampaignDays[]> {
  const bounds = dayBounds(from, to);
  const [series, corrections] = await Promise.all([
    Promise.all(rows.map((r) => dailySeries(env, toStatsCampaign(r), bounds))),
    liveCorrections(
      env,
      rows.map((r) => r.id),
      from,
      to,
    ),
  ]);
  return rows.map((row, i) => {
    const days = new Map<string, MetricBase>();
    for (const d of series[i]) {
      days.set(d.day, {
        impressions: d.impressions,
        adClicks: d.adClicks,
        visits: d.visits,
        lpClicks: d.lpClicks,
        conversions: d.conversions,
        revenue: d.revenue,
        spend: d.spend,
      });
    }
    for (const [day, c] of corrections.get(row.id) ?? [])
      days.set(day, applyCorrections(days.get(day) ?? emptyBase(), c));
    return { row, days };
  });
}

const sumDays = (days: Iterable<MetricBase>) => [...days].reduce(addBase, emptyBase());

/** The day list of a range, every day present (0 when nothing happened). */
export function dayList(days: Map<string, MetricBase>, from: string, to: string): ReportDay[] {
  return everyDay(from, to).map((d) => reportDay(d, days.get(d) ?? emptyBase()));
}

/** GET /api/masterdashboard/reports: campaigns, the installation's days and its total. */
export async function installationReport(
  env: Pick<Env, 'DB'>,
  from: string,
  to: string,
): Promise<ReportsAnswer> {
  const perCampaign = await campaignDays(env, await reportCampaigns(env), from, to);
  const all = new Map<string, MetricBase>();
  for (const c of perCampaign)
    for (const [day, m] of c.days) all.set(day, addBase(all.get(day) ?? emptyBase(), m));
  const campaignsOut: CampaignReport[] = perCampaign.map((c) => ({
    campaign_id: c.row.id,
    name: c.row.name,
    ...reportTotal(sumDays(c.days.values())),
  }));
  return {
    start_date: from,
    end_date: to,
    campaigns: campaignsOut,
    days: dayList(all, from, to),
    total: reportTotal(sumDays(all.values())),
  };
}

/** One campaign's effective numbers for one day (what modify-cpa and friends derive from). */
export async function effectiveDay(env: Pick<Env, 'DB'>, row: CampaignRow, day: string): Promise<MetricBase> {
  const [c] = await campaignDays(env, [row], day, day);
  return c.days.get(day) ?? emptyBase();
}

export { sumDays };
