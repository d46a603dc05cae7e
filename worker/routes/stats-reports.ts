import { Hono } from 'hono';
import { fromDmy } from '../../schema/dates';
import {
  type BreakdownAnswer,
  breakdownQuerySchema,
  type FilteredTrafficAnswer,
  reportQuerySchema,
  type StatsStampAnswer,
} from '../../schema/stats-reports-api';
import type { AppEnv } from '../env';
import { requireAuth } from '../lib/auth';
import { fieldError } from '../lib/errors';
import { parseInput } from '../lib/validate';
import { campaignForUser } from '../services/campaigns';
import { dayBounds } from '../services/statistics';
import { breakdown } from '../services/statistics/breakdowns';
import { filteredTraffic } from '../services/statistics/filtered';
import { statsStamp } from '../services/statistics/freshness';
import { toStatsCampaign } from '../services/statistics/stats-jobs';

// The statistics screen's reports added by issue 17 (docs/api.md "Statistics reports"):
// filtered traffic and breakdowns, read from rollups kept by the ingest transaction.

const REPORT_FIELDS = ['campaignId', 'startDate', 'endDate', 'by', 'second'];

export const statsReportRoutes = new Hono<AppEnv>()
  .get('/stats-reports/filtered', requireAuth, async (c) => {
    const q = parseInput(reportQuerySchema, c.req.query(), REPORT_FIELDS);
    const row = await campaignForUser(c.env, c.get('user'), q.campaignId);
    const bounds = dayBounds(fromDmy(q.startDate) ?? '', fromDmy(q.endDate) ?? '');
    const answer = await filteredTraffic(c.env, row.id, bounds);
    return c.json({ data: answer satisfies FilteredTrafficAnswer });
  })
  .get('/stats-reports/breakdown', requireAuth, async (c) => {
    const q = parseInput(breakdownQuerySchema, c.req.query(), REPORT_FIELDS);
    if (q.second === q.by) throw fieldError('second', 'Choose a different second grouping.');
    const row = await campaignForUser(c.env, c.get('user'), q.campaignId);
    const bounds = dayBounds(fromDmy(q.startDate) ?? '', fromDmy(q.endDate) ?? '');
    const answer = await breakdown(c.env, toStatsCampaign(row), bounds, q.by, q.second, q.compare);
    return c.json({ data: answer satisfies BreakdownAnswer });
  })
  // Live statistics (issue 27): the campaign's data version, one small read, so the screen asks
  // for the whole report again only when something arrived (docs/decisions/134-live-statistics.md).
  .get('/stats-reports/stamp', requireAuth, async (c) => {
    const q = parseInput(reportQuerySchema, c.req.query(), REPORT_FIELDS);
    const row = await campaignForUser(c.env, c.get('user'), q.campaignId);
    return c.json({ data: (await statsStamp(c.env, row.id)) satisfies StatsStampAnswer });
  });
