import type { AutoOptimizeInput } from '../../../schema/pages-operations-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { type CampaignRow, campaignForUser } from '../campaigns';

// The landing-page optimisation switches of the campaign editor.

export function optimizationAnswer(row: CampaignRow) {
  return {
    landing_pages_auto_optimized: row.landingPagesAutoOptimized,
    enable_lp_test_reporting: row.enableLpTestReporting,
    landing_pages_optimization_goal: row.landingPagesOptimizationGoal,
    landing_pages_optimization_metric: row.landingPagesOptimizationMetric,
    landing_pages_optimization_threshold: row.landingPagesOptimizationThreshold,
    landing_pages_optimization_min_visits: row.landingPagesOptimizationMinVisits,
  };
}

/** Sets a few columns of the campaign (names are this module's own constants, never input). */
async function updateCampaignColumns(env: Env, id: number, set: Record<string, string | number>) {
  const columns = Object.keys(set);
  await env.DB.prepare(
    `UPDATE campaigns SET ${columns.map((c, i) => `${c} = ?${i + 2}`).join(', ')}, updated_at = ?${columns.length + 2}
     WHERE id = ?1`,
  )
    .bind(id, ...Object.values(set), Date.now())
    .run();
}

const reloadCampaign = campaignForUser;

export async function setAutoOptimize(env: Env, user: AuthUser, input: AutoOptimizeInput) {
  const campaign = await campaignForUser(env, user, input.campaignId);
  const set: Record<string, string | number> = {
    landing_pages_auto_optimized: input.autoOptimized,
    landing_pages_optimization_threshold: input.optimizationThreshold,
    landing_pages_optimization_min_visits: input.optimizationMinLpVisit,
  };
  if (input.optimizationMetricSelected)
    set.landing_pages_optimization_metric = input.optimizationMetricSelected;
  await updateCampaignColumns(env, campaign.id, set);
  return reloadCampaign(env, user, campaign.id);
}

export async function setTestReporting(env: Env, user: AuthUser, campaignId: number, enabled?: 0 | 1) {
  const campaign = await campaignForUser(env, user, campaignId);
  const value = enabled ?? (campaign.enableLpTestReporting === 1 ? 0 : 1);
  await updateCampaignColumns(env, campaign.id, { enable_lp_test_reporting: value });
  return reloadCampaign(env, user, campaign.id);
}

export async function setOptimizationGoal(env: Env, user: AuthUser, campaignId: number, goal: string) {
  const campaign = await campaignForUser(env, user, campaignId);
  await updateCampaignColumns(env, campaign.id, { landing_pages_optimization_goal: goal });
  return reloadCampaign(env, user, campaign.id);
}
