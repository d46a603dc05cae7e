import {
  CPC_TRAFFIC_SOURCES,
  MIN_SPEND_BEFORE_INACTIVE_MICROS,
  MIN_SPEND_CUTOFF_DAY,
  MIN_SPEND_MESSAGE,
} from '../../../schema/traffic';
import type { Env } from '../../env';
import { fieldError } from '../../lib/errors';
import { refreshSpend } from './cpc';

// Spec 2 §5, the $1500 rule. The services check it before writing so the answer is a 422 on the
// `active` field; migration 0015's trigger keeps it for every other writer of campaigns.active
// (docs/decisions/095).

const isCpc = (source: string) => (CPC_TRAFFIC_SOURCES as readonly string[]).includes(source);

/** Whether the rule forbids deactivating these campaigns; answers the ids it protects. */
async function protectedFromDeactivation(
  env: Env,
  campaigns: { id: number; active: number; trafficSource: string; nextTrafficSource?: string }[],
): Promise<number[]> {
  const candidates = campaigns.filter(
    (c) => c.active === 1 && (isCpc(c.trafficSource) || isCpc(c.nextTrafficSource ?? '')),
  );
  if (!candidates.length) return [];
  const { results } = await env.DB.prepare(
    `SELECT campaign_id FROM traffic_campaigns
     WHERE campaign_id IN (SELECT value FROM json_each(?1)) AND submitted = 1 AND spend_micros < ?2
       AND (submitted_on IS NULL OR submitted_on > ?3)`,
  )
    .bind(JSON.stringify(candidates.map((c) => c.id)), MIN_SPEND_BEFORE_INACTIVE_MICROS, MIN_SPEND_CUTOFF_DAY)
    .all<{ campaign_id: number }>();
  return results.map((r) => r.campaign_id);
}

/** Throws the spec's 422 when `next.active` 0 would deactivate a campaign the rule protects. */
export async function assertMayDeactivate(
  env: Env,
  current: { id: number; active: number; trafficSource: string },
  next: { active: number; trafficSource: string },
): Promise<void> {
  if (next.active !== 0 || current.active !== 1) return;
  const candidate = { ...current, nextTrafficSource: next.trafficSource };
  if (!(await protectedFromDeactivation(env, [candidate])).length) return;
  // What the provider says now: the campaign may have passed $1500 since the last look.
  await refreshSpend(env, current.id);
  if ((await protectedFromDeactivation(env, [candidate])).length)
    throw fieldError('active', MIN_SPEND_MESSAGE);
}
