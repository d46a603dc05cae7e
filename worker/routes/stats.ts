import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { dayInZone, fromDmy, isDay } from '../../schema/dates';
import {
  type ActivityPoint,
  type AggregateJobAnswer,
  type AggregateResult,
  type CampaignAlert,
  checkDates,
  type DismissAlertAnswer,
  type ExportStatisticsAnswer,
  type ItemStatusAnswer,
  type ItemStatusManyAnswer,
  type LandingElementsAnswer,
  type LandingJobAnswer,
  type LandingResult,
  type LandingStatusAnswer,
  landingElementsQuerySchema,
  type QueueAggregateAnswer,
  type QuickStats,
  STATS_FIELD_ORDER,
  STATS_MESSAGES,
  type StatisticsAnswer,
  type StatisticsRequest,
  type StatisticsTotalAnswer,
  type StatsTodayAnswer,
  statisticsRequestSchema,
  statusUpdateSchema,
  type TargetJobAnswer,
  type TargetResult,
} from '../../schema/stats-api';
import { positiveId } from '../../schema/validators';
import type { AppEnv } from '../env';
import { type AuthUser, requireAuth } from '../lib/auth';
import { ApiError, fieldError, validationError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { campaignForUser } from '../services/campaigns';
import { setItemsActive } from '../services/campaigns/item-switch';
import { studentBalanceError } from '../services/money/balance-job';
import { getSettings } from '../services/settings/settings';
import {
  activity,
  campaignVisits,
  dailySeries,
  dayBounds,
  dollars,
  offerTable,
  pathTable,
  placementAggregates,
} from '../services/statistics';
import { ELEMENTS_MESSAGES, landingElementsData } from '../services/statistics/aggregator';
import { jobResultSoon } from '../services/statistics/job-poll';
import { columnKeys, exportChoice, exportStatistics } from '../services/statistics/stats-export';
import {
  checkRequestTokens,
  extraTokenSlots,
  jobResult,
  metricsFor,
  queueJob,
  runJob,
  toStatsCampaign,
} from '../services/statistics/stats-jobs';
import {
  defaultTokenParameters,
  forceSyncCompletedStatus,
  liveIntentStatus,
} from '../services/statistics/stats-status';
import { costRoutes } from './costs';

/** Validates a statistics request in the spec's order, dates against today in the installation's zone. */
async function statisticsRequest(env: AppEnv['Bindings'], body: unknown): Promise<StatisticsRequest> {
  const req = parseInput(statisticsRequestSchema, body, STATS_FIELD_ORDER);
  const today = dayInZone(Date.now(), (await getSettings(env)).time_zone);
  const problem = checkDates(fromDmy(req.startDate) ?? '', fromDmy(req.endDate) ?? '', today);
  if (problem) throw fieldError(problem === STATS_MESSAGES.endAfterToday ? 'endDate' : 'startDate', problem);
  return req;
}

function jobRequest(req: StatisticsRequest) {
  const { force: _force, ...rest } = req;
  return rest;
}

const ITEM_TABLES = { landing: 'landing_pages', offer: 'offer_pages', path: 'paths' } as const;

/**
 * The statistics tables' Active/Inactive switches, one item or many: every item must exist and
 * belong to a campaign the user manages (else 404); a deleted one is refused (422) unless
 * `skipDeleted` (bulk switches pass over them). Answers how many live items were asked for.
 */
async function switchItems(
  env: AppEnv['Bindings'],
  user: AuthUser,
  kind: keyof typeof ITEM_TABLES,
  ids: number[],
  active: 0 | 1,
  { skipDeleted = false } = {},
): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT id, campaign_id, deleted FROM ${ITEM_TABLES[kind]} WHERE id IN (SELECT value FROM json_each(?1))`,
  )
    .bind(JSON.stringify(ids))
    .all<{ id: number; campaign_id: number; deleted: number }>();
  if (results.length !== new Set(ids).size) throw new ApiError(404, 'Item not found.');
  for (const campaignId of new Set(results.map((r) => r.campaign_id)))
    await campaignForUser(env, user, campaignId);
  if (!skipDeleted && results.some((r) => r.deleted))
    throw new ApiError(422, 'A deleted item cannot be switched. Restore it first.');
  const live = results.filter((r) => !r.deleted);
  for (const campaignId of new Set(live.map((r) => r.campaign_id))) {
    await setItemsActive(env, {
      campaignId,
      kind,
      ids: live.filter((r) => r.campaign_id === campaignId).map((r) => r.id),
      active,
      actor: { kind: 'user', userId: user.id },
    });
  }
  return live.length;
}

/** One item's switch from a statistics table: its id in `field` (else 400 `required`), then the status. */
async function switchOne(
  c: Context<AppEnv>,
  kind: keyof typeof ITEM_TABLES,
  field: string,
  required: string,
) {
  const body = await readBody(c);
  const id = parseInput(z.object({ [field]: positiveId(required) }), body)[field];
  const { status } = parseInput(statusUpdateSchema, body);
  await switchItems(c.env, c.get('user'), kind, [id], status);
  return status;
}

/** The alerts the system stored in the campaign's metainfo (services/campaigns/alerts.ts writes them). */
function parseAlerts(metainfo: string): CampaignAlert[] {
  try {
    const meta = JSON.parse(metainfo || '{}');
    return Array.isArray(meta.alerts) ? meta.alerts : [];
  } catch {
    return [];
  }
}

export const statsRoutes = new Hono<AppEnv>()
  .route('/', costRoutes)
  .post('/statistics', requireAuth, async (c) => {
    const user = c.get('user');
    const req = await statisticsRequest(c.env, await readBody(c));
    const row = await campaignForUser(c.env, user, req.campaignId);
    await checkRequestTokens(c.env, row.id, req);
    const campaign = toStatsCampaign(row);
    if (req.totalOnly) {
      const queueId = await queueJob(
        c.env,
        c.executionCtx,
        'target_total',
        user,
        row.id,
        jobRequest(req),
        req.force,
      );
      return c.json({
        data: { campaign: { campaignId: row.id, name: row.name }, queueId } satisfies StatisticsTotalAnswer,
      });
    }
    const visits = await campaignVisits(c.env, row.id);
    const deferred: string[] = [];
    const queueId = await queueJob(
      c.env,
      c.executionCtx,
      'target',
      user,
      row.id,
      jobRequest(req),
      req.force,
      deferred,
    );
    const landingQueueKey =
      req.part === 'all' && row.campaignType !== 'direct_link'
        ? await queueJob(c.env, c.executionCtx, 'landing', user, row.id, jobRequest(req), req.force, deferred)
        : null;
    const bounds = dayBounds(fromDmy(req.startDate) ?? '', fromDmy(req.endDate) ?? '');
    const placements = req.part === 'all' ? await placementAggregates(c.env, campaign, bounds) : [];
    const tokens = await extraTokenSlots(c.env, row.id);
    const balanceError = await studentBalanceError(c.env, row);
    const completed = await forceSyncCompletedStatus(c.env, row);
    const liveintentStatus = await liveIntentStatus(c.env, row);
    // A repeat of a recent request reuses its job: its row count is known already.
    const targetJob = deferred.includes(queueId) ? null : await jobResult(c.env, queueId, user.id);
    const totalCount = (targetJob?.result as TargetResult | null)?.totalCount ?? null;
    const defaults = defaultTokenParameters(row.trafficSource);
    const offer =
      req.part === 'all' ? await offerTable(c.env, campaign, placements, req.offerDeletedStatus) : null;
    const path =
      req.part === 'all' ? await pathTable(c.env, campaign, placements, req.pathDeletedStatus) : null;
    // The jobs start now that this answer's own reads are done (a poll may start them first).
    for (const jobId of deferred) c.executionCtx.waitUntil(runJob(c.env, jobId));
    return c.json({
      data: {
        campaign: {
          campaignId: row.id,
          name: row.name,
          campaignType: row.campaignType,
          trafficSource: row.trafficSource,
          offerPromotion: row.offerPromotion,
          metainfo: { alerts: parseAlerts(row.metainfo) },
        },
        queueId,
        landingQueueKey,
        forceSyncCompletedStatus: completed,
        trafficSourceName: row.trafficSource,
        studentBalanceError: balanceError,
        liveintentStatus,
        extraTokens: tokens.map((t) => ({
          token_name: t.token_name,
          parameter: t.parameter,
          default: defaults.has(t.parameter),
        })),
        metrics: metricsFor(row),
        campaignVisits: visits,
        target: { currentPage: req.currentPage, totalCount },
        offer,
        path,
      } satisfies StatisticsAnswer,
    });
  })
  .post('/get-target-statistics', requireAuth, async (c) => {
    const body = await readBody(c);
    const uuid = String(body.uuid ?? body.queueId ?? '');
    const job = uuid ? await jobResultSoon(c.env, uuid, c.get('user').id) : null;
    if (!job) throw new ApiError(404, STATS_MESSAGES.jobNotFound);
    // Job results are stored as JSON; stats-jobs.ts builds them typed as these results.
    const data = { data: job.result as TargetResult | null };
    return c.json({ data: { done: job.done, error: job.error, data } satisfies TargetJobAnswer });
  })
  .post('/get-landing-statistics', requireAuth, async (c) => {
    const body = await readBody(c);
    const key = String(body.key ?? body.landingQueueKey ?? '');
    const job = key ? await jobResultSoon(c.env, key, c.get('user').id) : null;
    if (!job) throw new ApiError(404, STATS_MESSAGES.jobNotFound);
    const data = job.result as LandingResult | null;
    return c.json({ data: { done: job.done, error: job.error, data } satisfies LandingJobAnswer });
  })
  .post('/export-statistics', requireAuth, async (c) => {
    const body = await readBody(c);
    const req = await statisticsRequest(c.env, body);
    const row = await campaignForUser(c.env, c.get('user'), req.campaignId);
    await checkRequestTokens(c.env, row.id, req);
    const answer = await exportStatistics(c.env, row, req, {
      targetColumns: columnKeys(body.targetData),
      landingColumns: columnKeys(body.landingData),
      ...exportChoice(body),
    });
    return c.json({ data: answer satisfies ExportStatisticsAnswer });
  })
  // The installation's calendar day, so the SPA's date pickers and checks use the server's today.
  .get('/stats-today', requireAuth, async (c) => {
    const { time_zone } = await getSettings(c.env);
    return c.json({
      data: { today: dayInZone(Date.now(), time_zone), timeZone: time_zone } satisfies StatsTodayAnswer,
    });
  })
  .get('/campaign-activity', requireAuth, async (c) => {
    const campaignId = parseInput(positiveId(STATS_MESSAGES.selectCampaign), c.req.query('campaignId'));
    await campaignForUser(c.env, c.get('user'), campaignId);
    const start = fromDmy(c.req.query('startDate') ?? '') ?? '';
    const end = fromDmy(c.req.query('endDate') ?? '') ?? '';
    const { time_zone } = await getSettings(c.env);
    const points = await activity(c.env, campaignId, dayBounds(start, end), time_zone);
    return c.json({ data: points satisfies ActivityPoint[] });
  })
  .post('/quick-stats-v2', requireAuth, async (c) => {
    const body = await readBody(c);
    const campaignId = parseInput(
      z.object({ campaignId: positiveId('Please select a campaign') }),
      body,
    ).campaignId;
    const start = String(body.start_date ?? '');
    const end = String(body.end_date ?? '');
    if ((start && !isDay(start)) || (end && !isDay(end)))
      throw validationError({ start_date: ['Dates must be written yyyy-MM-dd.'] });
    const row = await campaignForUser(c.env, c.get('user'), campaignId);
    const days = await dailySeries(
      c.env,
      toStatsCampaign(row),
      dayBounds(start, end > start || !start ? end : start),
    );
    return c.json({
      data: {
        liveintent: {
          reports: days.map((d) => ({
            date: d.day,
            advertiserSpent: dollars(d.spend),
            clicks: d.adClicks,
            impressions: d.impressions,
          })),
        },
        visitors: days.map((d) => ({
          date: d.day,
          visitors: d.visits,
          lpclicks: d.lpClicks,
          revenue: dollars(d.revenue),
        })),
        conversions: days.map((d) => ({ date: d.day, conversions: d.conversions })),
      } satisfies QuickStats,
    });
  })
  .post('/update-offer-status', requireAuth, async (c) => {
    const status = await switchOne(c, 'offer', 'offerId', 'Offer is required.');
    return c.json({ data: { active: status } satisfies ItemStatusAnswer });
  })
  .post('/update-path-status', requireAuth, async (c) => {
    const status = await switchOne(c, 'path', 'pathId', 'Path is required.');
    return c.json({ data: { active: status } satisfies ItemStatusAnswer });
  })
  .post('/update-landing-status', requireAuth, async (c) => {
    const status = await switchOne(c, 'landing', 'landingId', 'Landing page is required.');
    return c.json({
      data: {
        status: true,
        active: status,
        message: STATS_MESSAGES.landingStatusUpdated,
      } satisfies LandingStatusAnswer,
    });
  })
  .post('/update-landing-status-many', requireAuth, async (c) => {
    const body = await readBody(c);
    const { landingIds } = parseInput(
      z.object({
        landingIds: z.preprocess(
          (v) => (typeof v === 'string' ? v.split(',') : v),
          z.array(positiveId('Select landing pages.')).min(1, 'Select landing pages.').max(500),
        ),
      }),
      body,
    );
    const { status } = parseInput(statusUpdateSchema, body);
    const live = await switchItems(c.env, c.get('user'), 'landing', landingIds, status, {
      skipDeleted: true,
    });
    return c.json({ data: { updated: live, active: status } satisfies ItemStatusManyAnswer });
  })
  .post('/queue-aggregate', requireAuth, async (c) => {
    const body = await readBody(c);
    const req = await statisticsRequest(c.env, body);
    const row = await campaignForUser(c.env, c.get('user'), req.campaignId);
    const separator =
      typeof body.separator === 'string' && body.separator.length > 0 && body.separator.length <= 3
        ? body.separator
        : '_';
    const uuid = await queueJob(
      c.env,
      c.executionCtx,
      'aggregate',
      c.get('user'),
      row.id,
      { ...jobRequest(req), separator },
      req.force,
    );
    return c.json({ data: { uuid } satisfies QueueAggregateAnswer });
  })
  .post('/get-aggregate', requireAuth, async (c) => {
    const body = await readBody(c);
    const job = typeof body.uuid === 'string' ? await jobResult(c.env, body.uuid, c.get('user').id) : null;
    if (!job) throw new ApiError(404, STATS_MESSAGES.jobNotFound);
    const data = job.result as AggregateResult | null;
    return c.json({ data: { done: job.done, error: job.error, data } satisfies AggregateJobAnswer });
  })
  // Spec 3 §7: one landing page's named elements with their content and class, read from the page.
  .get('/landing/get-landing-elements-data', requireAuth, async (c) => {
    const q = parseInput(landingElementsQuerySchema, c.req.query(), ['campaignId', 'url']);
    const row = await campaignForUser(c.env, c.get('user'), q.campaignId);
    // Only the campaign's own landing pages are read, never an arbitrary address.
    const page = await c.env.DB.prepare(
      'SELECT id FROM landing_pages WHERE campaign_id = ?1 AND url = ?2 LIMIT 1',
    )
      .bind(row.id, q.url)
      .first();
    if (!page) throw fieldError('url', ELEMENTS_MESSAGES.urlNotLanding);
    const bounds = dayBounds(fromDmy(q.startDate) ?? '', fromDmy(q.endDate) ?? '');
    const answer = await landingElementsData(c.env, toStatsCampaign(row), q.url, bounds, q.separator);
    return c.json({ data: answer satisfies LandingElementsAnswer });
  })
  .delete('/campaigns/:campaignId/alerts/:index', requireAuth, async (c) => {
    const campaignId = parseInput(positiveId('Campaign not found.'), c.req.param('campaignId'));
    const index = Number(c.req.param('index'));
    const row = await campaignForUser(c.env, c.get('user'), campaignId);
    let meta: Record<string, unknown> = {};
    try {
      meta = JSON.parse(row.metainfo || '{}');
    } catch {
      meta = {};
    }
    const alerts: CampaignAlert[] = Array.isArray(meta.alerts) ? [...meta.alerts] : [];
    if (!Number.isInteger(index) || index < 0 || index >= alerts.length)
      throw new ApiError(404, 'Alert not found.');
    alerts.splice(index, 1);
    // Compare-and-set on the metainfo read above, so an alert raised meanwhile is not lost.
    const { meta: written } = await c.env.DB.prepare(
      'UPDATE campaigns SET metainfo = ?2 WHERE id = ?1 AND metainfo = ?3',
    )
      .bind(campaignId, JSON.stringify({ ...meta, alerts }), row.metainfo)
      .run();
    if (!written.changes)
      throw new ApiError(409, 'The alerts changed meanwhile. Please reload and try again.');
    return c.json({ data: { message: STATS_MESSAGES.alertDismissed, alerts } satisfies DismissAlertAnswer });
  });
