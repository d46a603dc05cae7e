import { Hono } from 'hono';
import { acrossRangeSchema, type CampaignMetricsAnswer } from '../../schema/across-campaigns-api';
import { dayInZone } from '../../schema/dates';
import type { QuickStats } from '../../schema/stats-api';
import type { AppEnv } from '../env';
import { requireAuth } from '../lib/auth';
import { parseInput, readBody } from '../lib/validate';
import { getSettings } from '../services/settings/settings';
import { allCampaignsSeries, campaignMetrics } from '../services/statistics/across';

// Numbers across campaigns (issue 17 item 2; docs/api.md "Across campaigns"). Students see
// their own campaigns, admins and coaches every campaign, as on the list itself.

async function range(env: AppEnv['Bindings'], input: { start?: string; end?: string }) {
  const { time_zone } = await getSettings(env);
  const start = input.start || dayInZone(Date.now(), time_zone);
  return { start, end: input.end || start, timeZone: time_zone };
}

export const acrossCampaignRoutes = new Hono<AppEnv>()
  .get('/campaign-metrics', requireAuth, async (c) => {
    const input = parseInput(acrossRangeSchema, c.req.query(), ['start', 'end']);
    const r = await range(c.env, input);
    const { rows, totals } = await campaignMetrics(c.env, c.get('user'), { from: r.start, to: r.end });
    return c.json({ data: { ...r, rows, totals } satisfies CampaignMetricsAnswer });
  })
  .post('/quick-stats-all', requireAuth, async (c) => {
    const body = await readBody(c);
    const input = parseInput(
      acrossRangeSchema,
      { start: body.start_date ?? undefined, end: body.end_date ?? undefined },
      ['start', 'end'],
    );
    const r = await range(c.env, input);
    const series = await allCampaignsSeries(c.env, c.get('user'), { from: r.start, to: r.end });
    return c.json({ data: series satisfies QuickStats });
  });
