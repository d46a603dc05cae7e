import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  type CampaignDataAnswer,
  type CampaignTotalAnswer,
  type CorrectionsAnswer,
  type CredentialAnswer,
  type CredentialRevokedAnswer,
  type CredentialsAnswer,
  campaignRangeSchema,
  DATE_FIELD_ORDER,
  dateRangeSchema,
  MD_MESSAGES,
  type MdCampaignsAnswer,
  MODIFY_ROW_ORDER,
  MODIFY_VALUES,
  type ModifyAnswer,
  modifyRowSchema,
  type ReportsAnswer,
  reportTotal,
  revertSchema,
} from '../../schema/masterdashboard-api';
import type { AppEnv } from '../env';
import { requireAuth, requireRole } from '../lib/auth';
import { ApiError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { listCorrections, revertCorrection } from '../services/operator/corrections';
import {
  createCredential,
  listCredentials,
  operatorCaller,
  revokeCredential,
} from '../services/operator/credentials';
import { modifyRange, modifyRow } from '../services/operator/modify';
import {
  campaignDays,
  campaignRow,
  dayList,
  installationReport,
  reportCampaigns,
  sumDays,
} from '../services/operator/reports';

// The per-installation API the operator's master dashboard reads (spec 4 §7,
// docs/decisions/080-081). Only the installation's operator credential plus the custom header
// open it; a user's token never does. The credentials themselves are managed by an admin.

type MdEnv = AppEnv & { Variables: { operator: string } };

const requireOperator = createMiddleware<MdEnv>(async (c, next) => {
  const caller = await operatorCaller(c.env, c.req.raw.headers);
  if (!caller) throw new ApiError(401, 'Unauthenticated.');
  // Who made a correction: the operator's user name when the central service sends it.
  const user = (c.req.header('X-Operator-User') ?? '').trim().slice(0, 100);
  c.set('operator', `operator:${user || caller.label || `credential ${caller.id}`}`);
  await next();
});

async function campaignOr404(env: AppEnv['Bindings'], id: number) {
  const row = await campaignRow(env, id);
  if (!row) throw new ApiError(404, MD_MESSAGES.campaignNotFound);
  return row;
}

/** The query's campaign (404 when unknown) and its days between the query's dates. */
async function campaignRangeDays(env: AppEnv['Bindings'], query: Record<string, string>) {
  const r = parseInput(campaignRangeSchema, query, DATE_FIELD_ORDER);
  const row = await campaignOr404(env, r.campaign_id);
  const [days] = await campaignDays(env, [row], r.start_date, r.end_date);
  return { r, row, days };
}

const modifyAnswer = (corrections: ModifyAnswer['corrections']): ModifyAnswer => ({
  status_code: 200,
  message: MD_MESSAGES.saved,
  corrections,
});

const operatorApi = new Hono<MdEnv>()
  .use('*', requireOperator)
  .get('/reports', async (c) => {
    const r = parseInput(dateRangeSchema, c.req.query(), DATE_FIELD_ORDER);
    return c.json({
      data: (await installationReport(c.env, r.start_date, r.end_date)) satisfies ReportsAnswer,
    });
  })
  .get('/campaigns', async (c) => {
    const rows = await reportCampaigns(c.env);
    return c.json({
      data: { campaigns: rows.map((r) => ({ campaign_id: r.id, name: r.name })) } satisfies MdCampaignsAnswer,
    });
  })
  .get('/campaign-data', async (c) => {
    const { r, row, days } = await campaignRangeDays(c.env, c.req.query());
    return c.json({
      data: {
        campaign_id: row.id,
        name: row.name,
        days: dayList(days.days, r.start_date, r.end_date),
      } satisfies CampaignDataAnswer,
    });
  })
  .get('/campaign-total', async (c) => {
    const { row, days } = await campaignRangeDays(c.env, c.req.query());
    return c.json({
      data: {
        campaign_id: row.id,
        name: row.name,
        total: reportTotal(sumDays(days.days.values())),
      } satisfies CampaignTotalAnswer,
    });
  })
  .get('/corrections', async (c) => {
    const r = parseInput(campaignRangeSchema, c.req.query(), DATE_FIELD_ORDER);
    return c.json({
      data: {
        corrections: await listCorrections(c.env, r.campaign_id, r.start_date, r.end_date),
      } satisfies CorrectionsAnswer,
    });
  })
  .post('/revert-correction', async (c) => {
    const { id } = parseInput(revertSchema, await readBody(c), ['id']);
    const record = await revertCorrection(c.env, id, c.get('operator'));
    if (!record) throw new ApiError(404, MD_MESSAGES.correctionNotFound);
    return c.json({
      data: { status_code: 200, message: MD_MESSAGES.reverted, corrections: [record] } satisfies ModifyAnswer,
    });
  })
  .post('/modify-row', async (c) => {
    const v = parseInput(modifyRowSchema, await readBody(c), MODIFY_ROW_ORDER);
    const row = await campaignOr404(c.env, v.campaign_id);
    return c.json({
      data: modifyAnswer(await modifyRow(c.env, row, v, c.get('operator'))) satisfies ModifyAnswer,
    });
  });

for (const [verb, schema] of Object.entries(MODIFY_VALUES)) {
  operatorApi.post(`/${verb}`, async (c) => {
    const body = await readBody(c);
    const range = parseInput(campaignRangeSchema, body, DATE_FIELD_ORDER);
    const values = parseInput(schema, body, Object.keys(schema.shape)) as Record<string, number>;
    const row = await campaignOr404(c.env, range.campaign_id);
    const written = await modifyRange(
      c.env,
      row,
      verb as keyof typeof MODIFY_VALUES,
      values,
      range.start_date,
      range.end_date,
      c.get('operator'),
    );
    return c.json({ data: modifyAnswer(written) satisfies ModifyAnswer });
  });
}

/** The installation's admin creates, lists and revokes operator credentials (user token). */
const credentialApi = new Hono<AppEnv>()
  .use('*', requireAuth, requireRole('admin'))
  .get('/', async (c) =>
    c.json({ data: { credentials: await listCredentials(c.env) } satisfies CredentialsAnswer }),
  )
  .post('/', async (c) => {
    const body = await readBody(c);
    const label = typeof body.label === 'string' ? body.label.trim().slice(0, 100) : '';
    return c.json(
      { data: (await createCredential(c.env, label, c.get('user').id)) satisfies CredentialAnswer },
      201,
    );
  })
  .delete('/:id{[0-9]+}', async (c) => {
    if (!(await revokeCredential(c.env, Number(c.req.param('id')))))
      throw new ApiError(404, 'Credential not found.');
    return c.json({ data: { message: 'Credential revoked.' } satisfies CredentialRevokedAnswer });
  });

export const masterDashboardRoutes = new Hono<AppEnv>()
  .route('/masterdashboard', operatorApi as unknown as Hono<AppEnv>)
  .route('/masterdashboard-credentials', credentialApi);
