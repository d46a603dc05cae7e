import { Hono } from 'hono';
import {
  FUND_FIELD_ORDER,
  type FundRotatorAnswer,
  fundRotatorSchema,
  type ReportDataAnswer,
  type RotatorOffersAnswer,
  type RotatorsAnswer,
  reportQuerySchema,
} from '../../schema/money-api';
import type { AppEnv } from '../env';
import { clientIp, requireAuth } from '../lib/auth';
import { parseInput, pathId, readBody } from '../lib/validate';
import { cachedReport, reportNotFound } from '../services/money/report-cache';
import { throttledReportOffer } from '../services/money/report-throttle';
import {
  fundRotatorOffer,
  listRotators,
  requireRotatorEnabled,
  rotatorOffers,
} from '../services/money/rotator-funding';
import { reportPeriods, reportRows } from '../services/money/rotator-report';

// Rotator funding (signed in, rotator_is_enabled) and the public rotator offer report (no login:
// the participant's email is the key). docs/api.md "Rotators".

const campaignIdParam = (raw: string) => pathId(raw, 'Rotator not found.');

export const rotatorRoutes = new Hono<AppEnv>()
  // Public: answered from the edge cache when it can (worker/services/money/report-cache.ts).
  .get('/rotators/reports/:offer', async (c) => {
    const offerId = Number(c.req.param('offer'));
    const email = c.req.query('email') ?? '';
    return cachedReport(
      c.req.raw,
      c.executionCtx,
      { offer: String(offerId), email, period: 'periods' },
      async () => {
        const offer = await throttledReportOffer(c.env, offerId, email, clientIp(c));
        return offer ? reportPeriods(c.env, offer) : null;
      },
    );
  })
  .get('/rotators/reports/:offer/data', async (c) => {
    const offerId = Number(c.req.param('offer'));
    const email = c.req.query('email') ?? '';
    const parsed = reportQuerySchema.safeParse(c.req.query());
    // A bad query answers like an unknown offer: the report reveals nothing to a prober.
    if (!parsed.success) return reportNotFound();
    const q = parsed.data;
    const period = q.group_by === 'day' ? `day:${q.start_date}:${q.end_date}` : `month:${q.start_date}`;
    return cachedReport(c.req.raw, c.executionCtx, { offer: String(offerId), email, period }, async () => {
      const offer = await throttledReportOffer(c.env, offerId, email, clientIp(c));
      if (!offer) return null;
      const answer: ReportDataAnswer = { report: await reportRows(c.env, offer, q) };
      return answer;
    });
  })
  .get('/rotators', requireAuth, async (c) => {
    requireRotatorEnabled(c.get('user'));
    return c.json({ data: { result: await listRotators(c.env, c.get('user')) } satisfies RotatorsAnswer });
  })
  .get('/rotators/:id/offers', requireAuth, async (c) => {
    requireRotatorEnabled(c.get('user'));
    const id = campaignIdParam(c.req.param('id'));
    return c.json({
      data: { result: await rotatorOffers(c.env, c.get('user'), id) } satisfies RotatorOffersAnswer,
    });
  })
  .post('/rotators/:id/fund', requireAuth, async (c) => {
    requireRotatorEnabled(c.get('user'));
    const id = campaignIdParam(c.req.param('id'));
    const input = parseInput(fundRotatorSchema, await readBody(c), FUND_FIELD_ORDER);
    return c.json({
      data: (await fundRotatorOffer(c.env, c.get('user'), id, input)) satisfies FundRotatorAnswer,
    });
  });
