import type { Env } from '../../env';

// Fresh statistics (docs/decisions/110-fresh-statistics.md): the campaign's data version keys the
// reuse of stored jobs, results say when they were made and the newest event they include (job-poll.ts answers a fast job in its first poll).

export type StatsStamp = { version: number; newestEventAt: number | null };

export async function statsStamp(env: Pick<Env, 'DB'>, campaignId: number): Promise<StatsStamp> {
  const row = await env.DB.prepare(
    'SELECT version, newest_event_at FROM stats_freshness WHERE campaign_id = ?1',
  )
    .bind(campaignId)
    .first<{ version: number; newest_event_at: number }>();
  return { version: row?.version ?? 0, newestEventAt: row?.newest_event_at || null };
}
