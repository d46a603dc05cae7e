import { env } from 'cloudflare:workers';

/** The rows a SELECT answers from the local D1. */
export async function dbRows(sql: string, ...binds: unknown[]) {
  return (
    await env.DB.prepare(sql)
      .bind(...binds)
      .all<Record<string, any>>()
  ).results;
}

/** The column `n` of the first row a query answers (a count, a sum, a stored value named n). */
export async function dbValue<T = number>(sql: string, ...binds: unknown[]): Promise<T> {
  return (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: T }>())!.n;
}

/** A campaign's conversions (rows) and the revenue its daily statistics hold, in micros. */
export async function conversionTotals(campaignId: number) {
  return {
    conversions: await dbValue('SELECT count(*) n FROM conversions WHERE campaign_id = ?', campaignId),
    revenue_micros: await dbValue(
      'SELECT coalesce(sum(revenue_micros), 0) n FROM daily_stats WHERE campaign_id = ?',
      campaignId,
    ),
  };
}

/** A campaign alert as the campaign's metainfo keeps it. */
export type CampaignAlert = { type: string; key: string; message: string; [field: string]: unknown };

/** The alerts a campaign's metainfo holds ([] when it holds none). */
export async function campaignAlerts(campaignId: number): Promise<CampaignAlert[]> {
  const row = await env.DB.prepare('SELECT metainfo FROM campaigns WHERE id = ?1')
    .bind(campaignId)
    .first<{ metainfo: string | null }>();
  return JSON.parse(row?.metainfo || '{}').alerts ?? [];
}

/** Waits until `sql` (a count query) answers at least `count`: the queue consumer runs asynchronously. */
export async function waitForCount(sql: string, binds: unknown[], count: number, timeoutMs = 8000) {
  const started = Date.now();
  for (;;) {
    const row = await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>();
    if ((row?.n ?? 0) >= count) return row!.n;
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out waiting for ${count}: ${sql} -> ${row?.n}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until `table` holds at least `count` rows of the campaign (the ingest queue runs apart). */
export function waitForRows(table: string, campaignId: number, count: number) {
  return waitForCount(`SELECT count(*) n FROM ${table} WHERE campaign_id = ?1`, [campaignId], count);
}
