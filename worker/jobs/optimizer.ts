import { dayInZone } from '../../schema/dates';
import type { Env } from '../env';
import { raiseAlert } from '../services/alerts';
import {
  OPTIMIZATION_METRICS,
  type OptimizationGoal,
  type OptimizationMetric,
  pagesToDeactivate,
} from '../services/optimizer-rules';
import { getSettings } from '../services/settings';
import { landingTests } from '../services/statistics';
import { registerCronJob } from './scheduled';

// Cron: the landing-page auto-optimiser and the system alerts (failing postbacks, spend with
// no conversions). Each action is logged and raises an alert on the campaign.

/** Spend over the last 7 days without a conversion above this raises an alert (micro-units: $100). */
export const SPEND_ALERT_MICROS = 100_000_000;

type Candidate = {
  id: number;
  landing_pages_optimization_metric: string;
  landing_pages_optimization_threshold: number;
  landing_pages_optimization_min_visits: number;
  landing_pages_optimization_goal: string;
};

export async function optimizeCampaign(env: Pick<Env, 'DB'>, c: Candidate, now = Date.now()) {
  const metric = (OPTIMIZATION_METRICS as readonly string[]).includes(c.landing_pages_optimization_metric)
    ? (c.landing_pages_optimization_metric as OptimizationMetric)
    : 'cr';
  const goal: OptimizationGoal =
    c.landing_pages_optimization_goal === 'lp_ctr' ? 'lp_ctr' : 'conversion_rate';
  const { results: pages } = await env.DB.prepare(
    `SELECT l.id, l.name, l.active, coalesce(sum(p.visits), 0) visits, coalesce(sum(p.lp_clicks), 0) lp_clicks,
       coalesce(sum(p.conversions), 0) conversions, coalesce(sum(p.revenue_micros), 0) revenue
     FROM landing_pages l LEFT JOIN placement_daily p ON p.campaign_id = l.campaign_id AND p.landing_id = l.id
     WHERE l.campaign_id = ?1 AND l.deleted = 0 GROUP BY l.id ORDER BY l.id`,
  )
    .bind(c.id)
    .all<{
      id: number;
      name: string;
      active: number;
      visits: number;
      lp_clicks: number;
      conversions: number;
      revenue: number;
    }>();
  const decisions = pagesToDeactivate(
    pages.map((p) => ({
      id: p.id,
      name: p.name,
      active: p.active === 1,
      visits: p.visits,
      lpClicks: p.lp_clicks,
      conversions: p.conversions,
      revenue: p.revenue,
      spend: 0,
    })),
    {
      metric,
      threshold: c.landing_pages_optimization_threshold,
      minVisits: c.landing_pages_optimization_min_visits,
      goal,
    },
  );
  for (const d of decisions) {
    // Only if still active, and never the campaign's last active page (checked again in SQL).
    const { meta } = await env.DB.prepare(
      `UPDATE landing_pages SET active = 0, updated_at = ?3 WHERE id = ?1 AND active = 1 AND
        (SELECT count(*) FROM landing_pages WHERE campaign_id = ?2 AND active = 1 AND deleted = 0) > 1`,
    )
      .bind(d.id, c.id, now)
      .run();
    if (!meta.changes) continue;
    await env.DB.prepare(
      'INSERT INTO optimizer_log (campaign_id, landing_id, action, reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5)',
    )
      .bind(c.id, d.id, 'deactivated', d.reason, now)
      .run();
    await raiseAlert(env, c.id, {
      type: 'optimizer',
      message: `Auto-optimiser switched off landing page "${d.name}": ${d.reason}.`,
      created_at: now,
      key: `optimizer:${d.id}:${now}`,
    });
  }
  return decisions;
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

registerCronJob({
  name: 'landing-optimizer',
  run: async (env) => {
    const { results } = await env.DB.prepare(
      `SELECT id, landing_pages_optimization_metric, landing_pages_optimization_threshold,
         landing_pages_optimization_min_visits, landing_pages_optimization_goal
       FROM campaigns WHERE landing_pages_auto_optimized = 1 AND deleted = 0 AND is_dir = 0 AND active = 1`,
    ).all<Candidate>();
    for (const c of results) await optimizeCampaign(env, c);
  },
});

/**
 * Landing-page test reporting: for campaigns with it on, each pair of active pages whose test
 * has become significant raises one alert naming the winner (docs/statistics.md).
 */
export async function reportLandingTests(env: Pick<Env, 'DB'>, campaignId: number, now = Date.now()) {
  const campaign = await env.DB.prepare(
    'SELECT landing_pages_optimization_goal goal, landing_pages_optimization_min_visits min_visits FROM campaigns WHERE id = ?1',
  )
    .bind(campaignId)
    .first<{ goal: string; min_visits: number }>();
  if (!campaign) return 0;
  const { results: pages } = await env.DB.prepare(
    `SELECT l.id, l.name, l.active, l.deleted, coalesce(sum(p.visits), 0) visits, coalesce(sum(p.lp_clicks), 0) lp_clicks,
       coalesce(sum(p.conversions), 0) conversions
     FROM landing_pages l LEFT JOIN placement_daily p ON p.campaign_id = l.campaign_id AND p.landing_id = l.id
     WHERE l.campaign_id = ?1 GROUP BY l.id ORDER BY l.id`,
  )
    .bind(campaignId)
    .all<{
      id: number;
      name: string;
      active: number;
      deleted: number;
      visits: number;
      lp_clicks: number;
      conversions: number;
    }>();
  const goal = campaign.goal === 'lp_ctr' ? 'lp_ctr' : 'conversion_rate';
  const tests = landingTests(
    pages.map((p) => ({ ...p, lpClicks: p.lp_clicks })),
    goal,
    campaign.min_visits,
  );
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

registerCronJob({
  name: 'landing-test-reporting',
  run: async (env) => {
    const { results } = await env.DB.prepare(
      'SELECT id FROM campaigns WHERE enable_lp_test_reporting = 1 AND deleted = 0 AND is_dir = 0',
    ).all<{ id: number }>();
    for (const c of results) await reportLandingTests(env, c.id);
  },
});

registerCronJob({
  name: 'system-alerts',
  run: async (env) => raiseSystemAlerts(env, (await getSettings(env)).time_zone),
});
