import { AD_RECORD_PLATFORMS, type AdRecordPlatform } from '../../../schema/integrations';
import type { AdPerformanceRecord, AdRecordsAnswer } from '../../../schema/integrations-api';
import { INTEGRATION_MESSAGES as M } from '../../../schema/integrations-api';
import { adCtr, cpc, round } from '../../../schema/metrics';
import { fromMicros } from '../../../schema/money';
import type { Env } from '../../env';
import { PlatformError } from '../../integrations/http';
import { ApiError } from '../../lib/errors';
import { adoptVerifiedFacebookLinks } from './cost-sync';
import { currencyMessage, termsOf, toUsdMicros } from './cost-terms';
import { fetchAdReport, type PlatformLink } from './platform-reports';

// Facebook-style ad performance records (spec 4 §3, §4, §9): a job on the statistics queue asks
// the campaign's platform for clicks, impressions and spend per ad over the range, joins our own
// visits and conversions by ad id (the target), and stores the rows; the screen polls until done.

export type AdRecordsMessage = { kind: 'ad-records'; jobId: string };
const RETENTION_MS = 24 * 60 * 60 * 1000;

type JobRow = {
  id: string;
  campaign_id: number;
  platform: AdRecordPlatform;
  start_date: string;
  end_date: string;
  status: string;
  result: string | null;
  error: string | null;
};

const isRecordPlatform = (v: string): v is AdRecordPlatform =>
  (AD_RECORD_PLATFORMS as readonly string[]).includes(v);

/**
 * The platform a campaign's records come from: its enabled link to Facebook, TikTok or Taboola
 * (the traffic source's first when it has several), else 422.
 */
async function recordLink(env: Pick<Env, 'DB'>, campaignId: number, trafficSource: string) {
  const { results } = await env.DB.prepare(
    `SELECT ps.platform, ps.external_account_id, ps.external_campaign_id, ps.usd_rate_micros, c.created_by FROM platform_sync ps
     JOIN campaigns c ON c.id = ps.campaign_id WHERE ps.campaign_id = ?1 AND ps.enabled = 1 AND ps.external_campaign_id != ''`,
  )
    .bind(campaignId)
    .all<{
      platform: string;
      external_account_id: string;
      external_campaign_id: string;
      usd_rate_micros: number | null;
      created_by: number | null;
    }>();
  const usable = results.filter((r) => isRecordPlatform(r.platform));
  const row = usable.find((r) => r.platform === trafficSource) ?? usable[0];
  if (!row) {
    throw new ApiError(
      422,
      isRecordPlatform(trafficSource) || trafficSource === 'tiktok' ? M.notLinked : M.recordsPlatform,
    );
  }
  return row;
}

/** Stores a queued job and sends its message; answers the id the screen polls. */
export async function startAdRecords(
  env: Env,
  campaign: { id: number; trafficSource: string },
  userId: number,
  range: { startDate: string; endDate: string },
): Promise<string> {
  await adoptVerifiedFacebookLinks(env, campaign.id);
  const link = await recordLink(env, campaign.id, campaign.trafficSource);
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO ad_record_jobs (id, campaign_id, user_id, platform, start_date, end_date) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`,
  )
    .bind(id, campaign.id, userId, link.platform, range.startDate, range.endDate)
    .run();
  await env.STATS_QUEUE.send({ kind: 'ad-records', jobId: id } satisfies AdRecordsMessage);
  return id;
}

/** The rows of the records: the platform's numbers per ad, joined with our visits and conversions. */
async function buildRecords(env: Env, job: JobRow): Promise<AdPerformanceRecord[]> {
  const linkRow = await recordLink(env, job.campaign_id, job.platform);
  const link: PlatformLink = {
    campaignId: job.campaign_id,
    platform: job.platform,
    externalAccountId: linkRow.external_account_id,
    externalCampaignId: linkRow.external_campaign_id,
    ownerId: linkRow.created_by,
  };
  const report = await fetchAdReport(env, link, job.start_date, job.end_date);
  // Spend in dollars only: another currency needs the link's rate, as in the cost import (decision 147).
  const terms = termsOf(report, linkRow.usd_rate_micros);
  if (terms.status === 'needs_rate') throw new ApiError(422, currencyMessage(link.platform, terms.currency));
  const days = report.rows.map((d) => ({
    ...d,
    spendMicros: toUsdMicros(d.spendMicros, terms.terms.rateMicros),
  }));
  const ads = new Map<string, { name: string; clicks: number; impressions: number; spend: number }>();
  for (const d of days) {
    const ad = ads.get(d.adId) ?? { name: d.adName, clicks: 0, impressions: 0, spend: 0 };
    ad.clicks += d.clicks;
    ad.impressions += d.impressions;
    ad.spend += d.spendMicros;
    if (d.adName) ad.name = d.adName;
    ads.set(d.adId, ad);
  }
  const { results } = await env.DB.prepare(
    `SELECT target, sum(visits) AS visits, sum(conversions) AS conversions FROM target_daily
     WHERE campaign_id = ?1 AND day BETWEEN ?2 AND ?3 GROUP BY target`,
  )
    .bind(job.campaign_id, job.start_date, job.end_date)
    .all<{ target: string; visits: number; conversions: number }>();
  const ours = new Map(results.map((r) => [r.target, r]));
  return [...ads]
    .map(([id, ad]) => {
      const spend = fromMicros(ad.spend);
      return {
        id,
        ad_name: ad.name,
        visits: ours.get(id)?.visits ?? 0,
        clicks: ad.clicks,
        impressions: ad.impressions,
        conversions: ours.get(id)?.conversions ?? 0,
        ctr: adCtr(ad.clicks, ad.impressions),
        cpc: round(cpc(spend, ad.clicks), 2),
        spend: round(spend, 2),
      };
    })
    .sort((a, b) => b.spend - a.spend || a.id.localeCompare(b.id));
}

const finish = (
  env: Pick<Env, 'DB'>,
  id: string,
  status: 'done' | 'error',
  result: unknown,
  error: string | null,
) =>
  env.DB.prepare(
    `UPDATE ad_record_jobs SET status = ?2, result = ?3, error = ?4, finished_at = ?5 WHERE id = ?1`,
  )
    .bind(id, status, result === null ? null : JSON.stringify(result), error, Date.now())
    .run();

/**
 * Runs a job. A platform failure that a retry may cure (429, 5xx, timeout) is thrown back for the
 * queue to retry with delay; any other failure ends the job with the platform's message.
 */
export async function runAdRecords(env: Env, jobId: string): Promise<void> {
  const job = await env.DB.prepare(
    `UPDATE ad_record_jobs SET status = 'running' WHERE id = ?1 AND status IN ('queued', 'running') RETURNING *`,
  )
    .bind(jobId)
    .first<JobRow>();
  if (!job) return;
  try {
    await finish(env, jobId, 'done', await buildRecords(env, job), null);
  } catch (err) {
    if (err instanceof PlatformError && err.retryable) throw err;
    const message =
      err instanceof PlatformError || err instanceof ApiError
        ? err.message
        : 'The ad records could not be built.';
    if (!(err instanceof PlatformError || err instanceof ApiError))
      console.error('ad records job failed', jobId, err);
    await finish(env, jobId, 'error', null, message);
  }
}

/** A job whose message died after every retry. */
export async function failAdRecords(env: Pick<Env, 'DB'>, jobId: string, message: string) {
  await env.DB.prepare(
    `UPDATE ad_record_jobs SET status = 'error', error = ?2, finished_at = ?3 WHERE id = ?1 AND status IN ('queued', 'running')`,
  )
    .bind(jobId, message, Date.now())
    .run();
}

/** The poll answer of a job `userId` started (404 for anyone else's or an unknown id). */
export async function adRecordsResult(
  env: Pick<Env, 'DB'>,
  jobId: string,
  userId: number,
): Promise<AdRecordsAnswer> {
  const row = await env.DB.prepare(
    'SELECT status, result, error FROM ad_record_jobs WHERE id = ?1 AND user_id = ?2',
  )
    .bind(jobId, userId)
    .first<{ status: string; result: string | null; error: string | null }>();
  if (!row) throw new ApiError(404, M.recordsNotFound);
  const done = row.status === 'done' || row.status === 'error';
  return { done, data: row.status === 'done' && row.result ? JSON.parse(row.result) : [], error: row.error };
}

/** Cron: jobs are kept for a day. */
export async function cleanupAdRecords(env: Pick<Env, 'DB'>) {
  await env.DB.prepare('DELETE FROM ad_record_jobs WHERE created_at < ?1')
    .bind(Date.now() - RETENTION_MS)
    .run();
}
