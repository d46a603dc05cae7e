import type { AutoOptimizeInput } from '../../../schema/pages-operations-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { type CampaignRow, campaignAnswer, campaignForUser } from '../campaigns';

// The landing-page optimisation switches of the campaign editor.

const OPTIMIZATION_FIELDS = [
  'landing_pages_auto_optimized',
  'enable_lp_test_reporting',
  'landing_pages_optimization_goal',
  'landing_pages_optimization_metric',
  'landing_pages_optimization_threshold',
  'landing_pages_optimization_min_visits',
] as const;
type OptimizationSettings = Pick<ReturnType<typeof campaignAnswer>, (typeof OPTIMIZATION_FIELDS)[number]>;

/** The optimisation settings as the campaign answer names them (data.campaign of the switches). */
export function optimizationAnswer(row: CampaignRow): OptimizationSettings {
  const campaign = campaignAnswer(row);
  return Object.fromEntries(OPTIMIZATION_FIELDS.map((f) => [f, campaign[f]])) as OptimizationSettings;
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
