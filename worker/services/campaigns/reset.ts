import type { Env } from '../../env';
import { CAMPAIGN_STATISTICS_TABLES } from './tables';

/** Removes a campaign's raw events, rollups, costs and postback log in one transaction. */
export async function resetStatistics(env: Pick<Env, 'DB'>, campaignId: number): Promise<void> {
  await env.DB.batch(
    CAMPAIGN_STATISTICS_TABLES.map((t) =>
      env.DB.prepare(`DELETE FROM ${t} WHERE campaign_id = ?1`).bind(campaignId),
    ),
  );
}
