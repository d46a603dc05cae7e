import { eq } from 'drizzle-orm';
import { campaigns } from '../../../schema/campaigns';
import { fromDmy } from '../../../schema/dates';
import { adCtr } from '../../../schema/metrics';
import type { StatsJobKind } from '../../../schema/stats';
import {
  type AggregateResult,
  defaultMetrics,
  dropsNoInput,
  EVENT_COLUMNS,
  groupedTokens,
  type LandingResult,
  METRICS,
  type StatisticsRequest,
  type TargetResult,
  targetDefaultSort,
} from '../../../schema/stats-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { sha256Hex } from '../../lib/crypto';
import { getDb } from '../../lib/db';
import { validationError } from '../../lib/errors';
import { landingTokenAggregatesWithArchive } from '../archive/archived-rows';
import type { CampaignRow } from '../campaigns';
import { aggregateResult } from './aggregator';
import { dayBounds, type StatsCampaign } from './common';
import { statsStamp } from './freshness';
import { landingTable } from './landings';
import { type PlacementAgg, placementAggregates } from './placements';
import { type TargetAgg, targetAggregates, targetRow } from './targets';
import { targetTokenRollupAggregates } from './token-rollup';
import { compareBy, sortAndPage, totals } from './totals';

// Statistics jobs: POST statistics stores a job and sends its id to the statistics queue; the
// consumer computes the result and stores it; the SPA polls for it. A repeat of the same
// request within REUSE_MS is answered by the stored job unless forced.

const REUSE_MS = 30_000;
export const JOB_RETENTION_MS = 24 * 60 * 60 * 1000;

/** A campaign row as drizzle reads it (schema/campaigns.ts). */
export type StatsCampaignRow = CampaignRow;

export function toStatsCampaign(row: StatsCampaignRow): StatsCampaign {
  return {
    id: row.id,
    name: row.name,
    campaignType: row.campaignType,
    trafficSource: row.trafficSource,
    offerPromotion: row.offerPromotion,
    cpcMicros: row.cpcMicros,
    goal: row.customConversionGoal,
    optimizationGoal: row.landingPagesOptimizationGoal,
    minVisits: row.landingPagesOptimizationMinVisits,
  };
}

export async function extraTokenSlots(env: Pick<Env, 'DB'>, campaignId: number) {
  const { results } = await env.DB.prepare(
    'SELECT slot, token_name, parameter FROM extra_tokens WHERE campaign_id = ?1 AND deleted = 0 ORDER BY slot',
  )
    .bind(campaignId)
    .all<{ slot: number; token_name: string; parameter: string }>();
  return results;
}

/** The campaign's live token slots for the parameters asked for, in the order asked for. */
export function tokenSlotsFor<T extends { parameter: string }>(slots: T[], parameters: string[]): T[] {
  return parameters.flatMap((p) => slots.filter((s) => s.parameter === p));
}

/** The grouped parameters that are not among the campaign's live extra tokens. */
function unknownTokens(slots: { parameter: string }[], req: StatisticsRequest) {
  const known = new Set(slots.map((s) => s.parameter));
  return {
    extraTokens: groupedTokens(req, 'target').filter((p) => !known.has(p)),
    landingExtraTokens: groupedTokens(req, 'landing').filter((p) => !known.has(p)),
  };
}

/**
 * Refuses a request grouping by a parameter that is not one of the campaign's live extra tokens
 * (422 on extraTokens or landingExtraTokens), so a typo never silently shows ungrouped rows.
 */
export async function checkRequestTokens(env: Pick<Env, 'DB'>, campaignId: number, req: StatisticsRequest) {
  const unknown = unknownTokens(await extraTokenSlots(env, campaignId), req);
  const errors: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(unknown))
    if (list.length)
      errors[field] = [`Unknown extra token "${list[0]}". Choose one of the campaign's extra tokens.`];
  if (Object.keys(errors).length) throw validationError(errors);
}

/** noInputTokens: whether a group's token values keep it in the table. */
export function keepRow(req: StatisticsRequest, tokens: { parameter: string }[]) {
  const required = tokens.filter((t) => dropsNoInput(req, t.parameter)).map((t) => t.parameter);
  return (values: Record<string, string>) => required.every((p) => (values[p] ?? '') !== '');
}

/** metricParams: a target row without the metric columns that were not asked for. */
function onlyMetrics<T extends Record<string, unknown>>(row: T, metricParams: string[]): T {
  if (metricParams.length === 0) return row;
  const wanted = new Set(metricParams);
  for (const m of METRICS) if (!wanted.has(m.parameter)) delete row[m.parameter];
  return row;
}

/** The landing table's grouping by extra tokens for a request, or undefined. */
export async function landingGrouping(
  env: Pick<Env, 'DB' | 'BUCKET'>,
  c: StatsCampaign,
  bounds: ReturnType<typeof dayBounds>,
  req: StatisticsRequest,
) {
  const tokens = tokenSlotsFor(await extraTokenSlots(env, c.id), groupedTokens(req, 'landing'));
  if (tokens.length === 0) return undefined;
  return {
    parameters: tokens.map((t) => t.parameter),
    groups: await landingTokenAggregatesWithArchive(env, c, bounds, tokens),
    keep: keepRow(req, tokens),
  };
}

export function metricsFor(row: StatsCampaignRow) {
  const ticked = new Set<string>(defaultMetrics(row.offerPromotion, row.trafficSource));
  return METRICS.map((m) => ({ ...m, ticked: ticked.has(m.parameter) }));
}

/** Finds a reusable job for the same request or stores a new one and queues it. */
export async function queueJob(
  env: Env,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  kind: StatsJobKind,
  user: Pick<AuthUser, 'id'>,
  campaignId: number,
  request: unknown,
  force: boolean,
  /** Job ids to start once the caller's own reads are done (else the job starts now). */
  deferred?: string[],
): Promise<string> {
  // The campaign's data version is part of the key: a job made before newer events (or costs)
  // arrived is never reused (docs/decisions/110-fresh-statistics.md).
  const { version } = await statsStamp(env, campaignId);
  const hash = await sha256Hex(JSON.stringify({ kind, user: user.id, request, version }));
  if (!force) {
    const reuse = await env.DB.prepare(
      "SELECT id FROM stats_jobs WHERE request_hash = ?1 AND created_at > ?2 AND status <> 'error' ORDER BY created_at DESC LIMIT 1",
    )
      .bind(hash, Date.now() - REUSE_MS)
      .first<{ id: string }>();
    if (reuse) return reuse.id;
  }
  const id = crypto.randomUUID();
  await env.DB.prepare(
    'INSERT INTO stats_jobs (id, kind, campaign_id, user_id, request_hash, request, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)',
  )
    .bind(id, kind, campaignId, user.id, hash, JSON.stringify(request), Date.now())
    .run();
  // The queue is the durable path; the job also starts right after this answer, so the first
  // poll usually finds it done. Whichever starts first claims it (runJob), the other does nothing.
  try {
    await env.STATS_QUEUE.send({ jobId: id });
  } catch (err) {
    console.error('stats queue send failed; the job runs after the answer', err);
  }
  // A caller with more to read defers the start: local D1 runs one query at a time, and a job
  // started now would hold up the rest of the caller's answer (docs/decisions/110).
  if (deferred) deferred.push(id);
  else ctx.waitUntil(runJob(env, id));
  return id;
}

/** Runs a job once (a redelivered message finds it done and does nothing). */
export async function runJob(env: Env, jobId: string): Promise<void> {
  const claimed = await env.DB.prepare(
    "UPDATE stats_jobs SET status = 'running' WHERE id = ?1 AND status = 'queued' RETURNING kind, campaign_id, request",
  )
    .bind(jobId)
    .first<{ kind: StatsJobKind; campaign_id: number; request: string }>();
  if (!claimed) return;
  try {
    const stamp = await statsStamp(env, claimed.campaign_id);
    const computed = await computeJob(env, claimed.kind, claimed.campaign_id, JSON.parse(claimed.request));
    const result = { ...computed, generatedAt: Date.now(), newestEventAt: stamp.newestEventAt };
    await env.DB.prepare("UPDATE stats_jobs SET status = 'done', result = ?2, finished_at = ?3 WHERE id = ?1")
      .bind(jobId, JSON.stringify(result), Date.now())
      .run();
  } catch (err) {
    console.error('stats job failed', jobId, err);
    await env.DB.prepare("UPDATE stats_jobs SET status = 'error', error = ?2, finished_at = ?3 WHERE id = ?1")
      .bind(jobId, 'The statistics could not be computed. Please try again.', Date.now())
      .run();
  }
}

const LANDING_SORT_DEFAULT = 'visits';

/** A job's result as the polling calls answer it (stored as JSON in between). */
export async function computeJob(
  env: Env,
  kind: StatsJobKind,
  campaignId: number,
  req: StatisticsRequest,
): Promise<TargetResult | LandingResult | AggregateResult> {
  const row = await getDb(env).select().from(campaigns).where(eq(campaigns.id, campaignId)).get();
  if (!row) throw new Error(`campaign ${campaignId} is gone`);
  const c = toStatsCampaign(row);
  const bounds = dayBounds(fromDmy(req.startDate) ?? '', fromDmy(req.endDate) ?? '');

  if (kind === 'aggregate')
    return aggregateResult(env, c, bounds, (req as { separator?: string }).separator || '_');

  if (kind === 'landing') {
    const grouping = await landingGrouping(env, c, bounds, req);
    return landingResult(env, c, await placementAggregates(env, c, bounds), req, grouping);
  }

  const slots = await extraTokenSlots(env, c.id);
  const tokens = tokenSlotsFor(slots, groupedTokens(req, 'target'));
  const all = tokens.length
    ? await targetTokenRollupAggregates(env, c, bounds, tokens)
    : await targetAggregates(env, c, bounds);
  const keep = keepRow(req, tokens);
  const aggs = tokens.length ? all.filter((a) => keep(a.tokens)) : all;
  // The totals are those of the rows the search finds (issue 17): the footer adds up the table.
  const needle = req.search.toLowerCase();
  const searchKeys = tokens.map((t) => t.parameter);
  const found = needle
    ? aggs.filter(
        (a) =>
          a.target.toLowerCase().includes(needle) ||
          searchKeys.some((k) => (a.tokens[k] ?? '').toLowerCase().includes(needle)),
      )
    : aggs;
  if (kind === 'target_total') return { targetTotal: totals(found) };
  // Sort on the aggregates; full rows are built only for the page shown (a grouping by extra
  // tokens can give 100,000 groups).
  const sortKey = req.sortKey || targetDefaultSort(c.trafficSource).key;
  const keyed = found.map((a) => ({ a, v: { [sortKey]: targetSortValue(a, sortKey, c) } }));
  const cmp = compareBy(sortKey, req.sortOrder);
  keyed.sort((x, y) => cmp(x.v, y.v));
  const lastPage = Math.max(1, Math.ceil(keyed.length / req.perPage));
  const currentPage = Math.min(req.currentPage, lastPage);
  const slice = keyed.slice((currentPage - 1) * req.perPage, currentPage * req.perPage);
  // A named event that occurred shows as a column even when the picker leaves it out (issue 17).
  const eventColumns = Object.entries(EVENT_COLUMNS)
    .filter(([event]) => event !== c.goal && found.some((a) => (a.events[event] ?? 0) > 0))
    .map(([, column]) => column);
  const metricParams = req.metricParams?.length ? [...new Set([...req.metricParams, ...eventColumns])] : [];
  return {
    eventColumns,
    targetRecords: slice.map(({ a }) => onlyMetrics(targetRow(a, c.id, c.goal), metricParams)),
    currentPage,
    totalCount: found.length,
    targetTotal: totals(found),
  };
}

/** The value a target row would show in column `key`, without building the whole row. */
function targetSortValue(a: TargetAgg, key: string, c: StatsCampaign): unknown {
  switch (key) {
    case 'target':
      return a.target;
    case 'visits':
      return a.visits;
    case 'clicks':
      return a.adClicks;
    case 'impressions':
      return a.impressions;
    case 'conversions':
      return a.conversions;
    case 'lpclicks':
      return a.lpClicks;
    case 'ctr':
      return adCtr(a.adClicks, a.impressions);
    default:
      return key in a.tokens ? a.tokens[key] : targetRow(a, c.id, c.goal)[key];
  }
}

export async function jobResult(env: Pick<Env, 'DB'>, id: string, userId: number) {
  const job = await env.DB.prepare('SELECT status, result, error, user_id FROM stats_jobs WHERE id = ?1')
    .bind(id)
    .first<{ status: string; result: string | null; error: string | null; user_id: number }>();
  if (!job || job.user_id !== userId) return null;
  return {
    status: job.status,
    done: job.status === 'done' || job.status === 'error',
    error: job.error,
    result: job.result ? JSON.parse(job.result) : null,
  };
}

/** The landing table's page for a request, from placement sums computed by the caller. */
export async function landingResult(
  env: Env,
  c: StatsCampaign,
  placements: PlacementAgg[],
  req: StatisticsRequest,
  grouping?: Awaited<ReturnType<typeof landingGrouping>>,
): Promise<LandingResult> {
  const table = await landingTable(env, c, placements, req.landingDeletedStatus, grouping);
  const page = sortAndPage(table.rows, {
    sortKey: req.landingSortKey || LANDING_SORT_DEFAULT,
    sortOrder: req.landingSortOrder,
    page: req.landingCurrentPage,
    perPage: req.landingPerPage,
    search: req.landingTargetSearch,
    searchKeys: ['landing_page', 'url', ...(grouping?.parameters ?? [])],
  });
  return {
    landingRecords: req.landingsTotalOnly ? [] : page.records,
    landingCount: page.totalCount,
    landingCurrentPage: page.currentPage,
    landingTotal: table.total,
  };
}
