import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { campaignForUser } from '../campaigns';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import { TABLES } from './items';

/** Whole-number shares of 100 as equal as they can be: the first `100 mod n` items get one more. */
function equalShares(n: number): number[] {
  if (n <= 0) return [];
  const base = Math.floor(100 / n);
  const extra = 100 - base * n;
  return Array.from({ length: n }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * Equal share among the live, active items of each group that traffic is split within: landing
 * pages per path in a path campaign; offers per path or per option in those campaign types;
 * otherwise the whole campaign. Paused and deleted items keep their share.
 */
export async function equalShare(
  env: Env,
  user: AuthUser,
  kind: 'landing' | 'offer' | 'path',
  campaignId: number,
) {
  const campaign = await campaignForUser(env, user, campaignId);
  let group = '0';
  if (kind !== 'path' && campaign.campaignType === 'multiple_path_type') group = 'coalesce(path_id, 0)';
  if (kind === 'offer' && campaign.campaignType === 'multiple_option_type') group = 'coalesce(option_id, 0)';
  const table = TABLES[kind];
  const { results } = await env.DB.prepare(
    `SELECT id, ${group} AS grp FROM ${table} WHERE campaign_id = ?1 AND deleted = 0 AND active = 1 ORDER BY grp, id`,
  )
    .bind(campaign.id)
    .all<{ id: number; grp: number }>();
  const groups = new Map<number, number[]>();
  for (const r of results) groups.set(r.grp, [...(groups.get(r.grp) ?? []), r.id]);
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  for (const ids of groups.values()) {
    const shares = equalShares(ids.length);
    ids.forEach((id, i) => {
      statements.push(
        env.DB.prepare(`UPDATE ${table} SET share = ?1, updated_at = ?2 WHERE id = ?3`).bind(
          shares[i],
          now,
          id,
        ),
      );
    });
  }
  if (statements.length) await env.DB.batch(statements);
  invalidateCompiledCampaign(campaign.id);
}
