import { Hono } from 'hono';
import type { MessageAnswer } from '../../schema/auth-api';
import {
  COST_FIELD_ORDER,
  COST_MESSAGES,
  type CostsAnswer,
  type CostUploadAnswer,
  costInputSchema,
} from '../../schema/costs-api';
import type { AppEnv } from '../env';
import { requireAuth } from '../lib/auth';
import { parseCsv } from '../lib/csv';
import { ApiError, fieldError, validationError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { campaignForUser } from '../services/campaigns';
import { type CostRow, deleteCost, listCosts, writeCosts } from '../services/statistics/costs';

// Ad costs entered by hand or uploaded as CSV (docs/statistics.md says which source wins).
// Mounted under requireAuth by the statistics routes.

const MAX_CSV_BYTES = 5 * 1024 * 1024;
const MAX_CSV_ROWS = 50_000;

export const costRoutes = new Hono<AppEnv>()
  .get('/costs', requireAuth, async (c) => {
    const campaignId = Number(c.req.query('campaignId'));
    if (!Number.isInteger(campaignId) || campaignId < 1)
      throw fieldError('campaignId', COST_MESSAGES.campaignRequired);
    await campaignForUser(c.env, c.get('user'), campaignId);
    const from = c.req.query('startDate') || '0000-01-01';
    const to = c.req.query('endDate') || '9999-12-31';
    return c.json({
      data: {
        result: await listCosts(c.env, campaignId, from, to),
      } satisfies CostsAnswer,
    });
  })
  .post('/costs', requireAuth, async (c) => {
    const input = parseInput(costInputSchema, await readBody(c), COST_FIELD_ORDER);
    await campaignForUser(c.env, c.get('user'), input.campaignId);
    await writeCosts(c.env, input.campaignId, 'manual', [input], c.get('user').id);
    return c.json({ data: { message: COST_MESSAGES.saved } satisfies MessageAnswer });
  })
  .delete('/costs', requireAuth, async (c) => {
    const body = await readBody(c);
    const input = parseInput(
      costInputSchema.pick({ campaignId: true, date: true, target: true }),
      body,
      COST_FIELD_ORDER,
    );
    await campaignForUser(c.env, c.get('user'), input.campaignId);
    const source = body.source === 'csv' ? 'csv' : 'manual';
    const deleted = await deleteCost(c.env, input.campaignId, input.date, input.target, source);
    if (!deleted) throw new ApiError(404, 'Cost not found.');
    return c.json({ data: { message: COST_MESSAGES.deleted } satisfies MessageAnswer });
  })
  .post('/costs/upload', requireAuth, async (c) => {
    const body = await readBody(c);
    const campaignId = Number(body.campaignId);
    if (!Number.isInteger(campaignId) || campaignId < 1)
      throw fieldError('campaignId', COST_MESSAGES.campaignRequired);
    await campaignForUser(c.env, c.get('user'), campaignId);
    const file = body.uploads;
    if (!(file instanceof File)) throw fieldError('uploads', COST_MESSAGES.csvRequired);
    if (!/\.csv$/i.test(file.name)) throw fieldError('uploads', COST_MESSAGES.csvInvalid);
    if (file.size > MAX_CSV_BYTES) throw new ApiError(413, COST_MESSAGES.csvTooLarge);
    const rows = parseCsv(await file.text());
    const header = (rows.shift() ?? []).map((h) => h.trim().toLowerCase());
    const cols = ['date', 'target', 'impressions', 'clicks', 'spend'].map((name) => header.indexOf(name));
    if (cols.some((i) => i < 0)) throw fieldError('uploads', COST_MESSAGES.csvHeader);
    if (rows.length > MAX_CSV_ROWS) throw new ApiError(413, COST_MESSAGES.csvTooLarge);
    // Every line is checked before anything is written: one bad line writes nothing.
    const problems: string[] = [];
    const parsed: CostRow[] = [];
    rows.forEach((r, i) => {
      const result = costInputSchema.safeParse({
        campaignId,
        date: r[cols[0]],
        target: r[cols[1]],
        impressions: r[cols[2]],
        ad_clicks: r[cols[3]],
        spend: r[cols[4]],
      });
      if (result.success) parsed.push(result.data);
      else problems.push(`Line ${i + 2}: ${result.error.issues[0].message}`);
    });
    if (problems.length) throw validationError({ uploads: problems.slice(0, 20) });
    await writeCosts(c.env, campaignId, 'csv', parsed, c.get('user').id);
    return c.json({
      data: {
        uploaded: true,
        rows: parsed.length,
        message: COST_MESSAGES.csvUploaded,
      } satisfies CostUploadAnswer,
    });
  });
