import { and, eq } from 'drizzle-orm';
import { campaigns } from '../../schema/campaigns';
import { dayInZone } from '../../schema/dates';
import type { Env } from '../env';
import { getDb } from '../lib/db';
import type { CampaignRow } from '../services/campaigns';
import { raiseAlert } from '../services/campaigns/alerts';
import { setItemsActive } from '../services/campaigns/item-switch';
import {
  OPTIMIZATION_METRICS,
  type OptimizationGoal,
  type OptimizationMetric,
  pagesToDeactivate,
} from '../services/pages/optimizer-rules';
import { dayBounds, landingTests, placementAggregates } from '../services/statistics';
import { toStatsCampaign } from '../services/statistics/stats-jobs';

// Cron: the landing-page auto-optimiser and the system alerts (failing postbacks, spend with
// no conversions). Each action is logged and raises an alert on the campaign.

/** Spend over the last 7 days without a conversion above this raises an alert (micro-units: $100). */
const SPEND_ALERT_MICROS = 100_000_000;

type LandingNumbers = {
  id: number;
  name: string;
  active: number;
  deleted: number;
  visits: number;
  lpClicks: number;
  conversions: number;
  revenue: number;
  spend: number;
};

/**
 * Each landing page's numbers over the campaign's whole history, read the way the statistics'
 * landing table reads them: the placement rollup, with each day's spend shared out by visits
 * (docs/statistics.md "Costs"), so the optimiser's ROI is the ROI the user sees.
 */
async function landingNumbers(
  env: Pick<Env, 'DB'>,
  campaign: CampaignRow,
  { withDeleted = false } = {},
): Promise<LandingNumbers[]> {
  const [{ results: pages }, placements] = await Promise.all([
    env.DB.prepare(
      `SELECT id, name, active, deleted FROM landing_pages WHERE campaign_id = ?1 ${withDeleted ? '' : 'AND deleted = 0'} ORDER BY id`,
    )
      .bind(campaign.id)
      .all<{ id: number; name: string; active: number; deleted: number }>(),
    placementAggregates(env, toStatsCampaign(campaign), dayBounds('', '')),
  ]);
  const byLanding = new Map<number, LandingNumbers>(
    pages.map((p) => [p.id, { ...p, visits: 0, lpClicks: 0, conversions: 0, revenue: 0, spend: 0 }]),
  );
  for (const a of placements) {
    const page = byLanding.get(a.landingId);
    if (!page) continue;
    page.visits += a.visits;
    page.lpClicks += a.lpClicks;
    page.conversions += a.conversions;
    page.revenue += a.revenue;
    page.spend += a.spend;
  }
  return [...byLanding.values()];
}

async function optimizeCampaign(env: Pick<Env, 'DB'>, c: CampaignRow, now = Date.now()) {
  const metric = (OPTIMIZATION_METRICS as readonly string[]).includes(c.landingPagesOptimizationMetric)
    ? (c.landingPagesOptimizationMetric as OptimizationMetric)
    : 'cr';
  const goal: OptimizationGoal = c.landingPagesOptimizationGoal === 'lp_ctr' ? 'lp_ctr' : 'conversion_rate';
  const pages = await landingNumbers(env, c);
  const decisions = pagesToDeactivate(
    pages.map((p) => ({ ...p, active: p.active === 1 })),
    {
      metric,
      threshold: c.landingPagesOptimizationThreshold,
      minVisits: c.landingPagesOptimizationMinVisits,
      goal,
    },
  );
  const switched = [];
  for (const d of decisions) {
    // Only if still active, and never the campaign's last active page (checked again in SQL).
    const changed = await setItemsActive(env, {
      campaignId: c.id,
      kind: 'landing',
      ids: [d.id],
      active: 0,
      actor: { kind: 'optimizer', reason: d.reason },
      keepOneActive: true,
      now,
    });
    if (changed.length) switched.push(d);
  }
  return switched;
}

export async function raiseSystemAlerts(env: Pick<Env, 'DB'>, timeZone: string, now = Date.now()) {
  const today = dayInZone(now, timeZone);
  const { results: failing } = await env.DB.prepare(
    `SELECT campaign_id, count(*) n FROM postback_log WHERE status = 'failed' AND updated_at > ?1 GROUP BY campaign_id`,
  )
    .bind(now - 24 * 60 * 60 * 1000)
    .all<{ campaign_id: number; n: number }>();
  for (const f of failing) {
    await raiseAlert(env, f.campaign_id, {
      type: 'postback',
      message: `${f.n} postback${f.n === 1 ? '' : 's'} to the traffic source failed in the last 24 hours.`,
      created_at: now,
      key: `postback:${today}`,
    });
  }
  const weekAgo = dayInZone(now - 6 * 24 * 60 * 60 * 1000, timeZone);
  const { results: burning } = await env.DB.prepare(
    `SELECT k.id campaign_id,
       (SELECT coalesce(sum(CASE WHEN t.has_cost = 1 THEN t.spend_micros ELSE t.visits * k.cpc_micros END), 0)
         FROM target_daily t WHERE t.campaign_id = k.id AND t.day BETWEEN ?1 AND ?2) spend,
       (SELECT coalesce(sum(conversions), 0) FROM target_daily WHERE campaign_id = k.id AND day BETWEEN ?1 AND ?2) conversions
     FROM campaigns k WHERE k.is_dir = 0 AND k.deleted = 0 AND k.active = 1`,
  )
    .bind(weekAgo, today)
    .all<{ campaign_id: number; spend: number; conversions: number }>();
  for (const b of burning) {
    if (b.conversions > 0 || b.spend < SPEND_ALERT_MICROS) continue;
    await raiseAlert(env, b.campaign_id, {
      type: 'spend',
      message: `$${(b.spend / 1_000_000).toFixed(2)} spent over the last 7 days without a conversion.`,
      created_at: now,
      key: `spend:${today}`,
    });
  }
}

/** Cron: runs the optimiser on every active campaign with auto-optimisation on. */
export async function optimizeCampaigns(env: Pick<Env, 'DB'>): Promise<void> {
  const rows = await getDb(env)
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.landingPagesAutoOptimized, 1),
        eq(campaigns.deleted, 0),
        eq(campaigns.isDir, 0),
        eq(campaigns.active, 1),
      ),
    )
    .all();
  for (const c of rows) await optimizeCampaign(env, c);
}

/**
 * Landing-page test reporting: for campaigns with it on, each pair of active pages whose test
 * has become significant raises one alert naming the winner (docs/statistics.md).
 */
async function reportLandingTests(env: Pick<Env, 'DB'>, campaignId: number, now = Date.now()) {
  const campaign = await getDb(env).select().from(campaigns).where(eq(campaigns.id, campaignId)).get();
  if (!campaign) return 0;
  const pages = await landingNumbers(env, campaign, { withDeleted: true });
  const goal = campaign.landingPagesOptimizationGoal === 'lp_ctr' ? 'lp_ctr' : 'conversion_rate';
  const tests = landingTests(pages, goal, campaign.landingPagesOptimizationMinVisits);
  const names = new Map(pages.map((p) => [p.id, p.name]));
  let raised = 0;
  for (const [id, results] of tests) {
    for (const t of results) {
      if (!t.is_significant || t.best_variant !== 1) continue;
      const added = await raiseAlert(env, campaignId, {
        type: 'test',
        message: `Landing page "${names.get(id)}" beats "${names.get(Number(t.against))}" on ${goal === 'lp_ctr' ? 'LP CTR' : 'conversion rate'} (p = ${t.p_value}, 95 % confidence).`,
        created_at: now,
        key: `test:${id}:${t.against}`,
      });
      if (added) raised += 1;
    }
  }
  return raised;
}

/** Cron: landing-page test reporting for every campaign with it on. */
export async function reportAllLandingTests(env: Pick<Env, 'DB'>): Promise<void> {
  const { results } = await env.DB.prepare(
    'SELECT id FROM campaigns WHERE enable_lp_test_reporting = 1 AND deleted = 0 AND is_dir = 0',
  ).all<{ id: number }>();
  for (const c of results) await reportLandingTests(env, c.id);
}
