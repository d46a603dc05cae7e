import { env } from 'cloudflare:workers';
import { expect, vi } from 'vitest';
import type { CostSource } from '../../schema/stats';
import { writeCosts } from '../../worker/services/statistics/costs';
import { api } from './api';

/**
 * The target table of the statistics screen: POST statistics with `body` (the campaign, range and
 * options), then the job polled until done (15 s at most); answers the job's result.
 */
export async function targetReport(token: string, body: Record<string, unknown>) {
  const queued = await api('/api/statistics', { token, body });
  if (queued.status !== 200)
    throw new Error(`statistics failed: ${queued.status} ${JSON.stringify(queued.body)}`);
  const started = Date.now();
  for (;;) {
    const answer = await api('/api/get-target-statistics', {
      token,
      body: { uuid: queued.body.data.queueId },
    });
    if (answer.status === 200 && answer.body.data.done) return answer.body.data.data.data;
    if (Date.now() - started > 15_000)
      throw new Error(`the target job did not finish: ${JSON.stringify(answer.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A report job's answer (`path` with the job's `key`), polled until it says done (15 s at most). */
export async function polledJob(token: string, path: string, key: Record<string, string>) {
  let answer: any;
  await vi.waitUntil(
    async () => {
      answer = await api(path, { token, body: key });
      return answer.status === 200 && answer.body.data.done;
    },
    { timeout: 15_000, interval: 100 },
  );
  return answer.body.data;
}

/**
 * The statistics export of `body` (POST export-statistics, 200), downloaded through its link;
 * answers the file's text. With `fileName`, the answer and the download must both name it.
 */
export async function exportedFile(token: string, body: Record<string, unknown>, fileName?: string) {
  const res = await api('/api/export-statistics', { token, body });
  expect(res.status).toBe(200);
  const file = await api(res.body.data.downloadLink);
  if (fileName !== undefined) {
    expect(res.body.data.fileName).toBe(fileName);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"`);
  }
  return String(file.body);
}

/** One target's cost on one day (`spend` in micros), written as a platform sync or an entry writes it. */
export function writeCost(
  campaignId: number,
  source: CostSource,
  cost: { date: string; target: string; impressions?: number; ad_clicks?: number; spend: number },
) {
  return writeCosts(env, campaignId, source, [{ impressions: 0, ad_clicks: 0, ...cost }], null);
}
