import type { Context } from 'hono';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  type CampaignDataAnswer,
  type CampaignTotalAnswer,
  campaignRangeSchema,
  DATE_FIELD_ORDER,
  dateRangeSchema,
  MODIFY_VERBS,
  type ModifyAnswer,
  type ReportsAnswer,
} from '../../schema/masterdashboard-api';
import {
  type AllStudentsReportsAnswer,
  INSTALLATION_FIELD_ORDER,
  type InstallationRemovedAnswer,
  type InstallationSavedAnswer,
  installationInputSchema,
  OPERATOR_MESSAGES,
  type OperatorModifyAnswer,
  type OperatorStatusAnswer,
  type StudentCampaignDataAnswer,
  type StudentCampaignsAnswer,
  type StudentCampaignTotalAnswer,
  type StudentsAnswer,
  type StudentsDataAnswer,
  type UpdateStudentDataAnswer,
} from '../../schema/operator-api';
import type { AppEnv, Env } from '../env';
import { requireAuth, requireRole } from '../lib/auth';
import { ApiError, errorBody, fieldError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { cachedReports, refreshInstallation } from '../services/operator/cache';
import { type CallOptions, callInstallation, fanOut, timeoutFor } from '../services/operator/fan-out';
import {
  addInstallation,
  editInstallation,
  type Installation,
  installationBy,
  installations,
  listStudents,
  removeInstallation,
  toStudent,
} from '../services/operator/registry';
import { outboundPolicy } from '../services/outbound/outbound';

// The operator installation's central service (spec 4 §7, docs/decisions/082-083): the registry
// of student installations and the master dashboard's calls. Served only on OPERATOR_HOST, to a
// signed-in admin or coach of the operator installation; student installations answer 404.

/** True when the request's host is the configured operator host (name or name:port). */
function isOperatorHost(env: Pick<Env, 'OPERATOR_HOST'>, url: string): boolean {
  const want = (env.OPERATOR_HOST ?? '').trim().toLowerCase();
  if (!want) return false;
  const u = new URL(url);
  return u.host.toLowerCase() === want || u.hostname.toLowerCase() === want;
}

const requireOperatorHost = createMiddleware<AppEnv>(async (c, next) => {
  if (!isOperatorHost(c.env, c.req.url)) throw new ApiError(404, OPERATOR_MESSAGES.notOperator);
  await next();
});

const student = (inst: Installation) => toStudent({ ...inst, student_id_hash: inst.id_hash, credential: '' });

function callOptions(c: Context<AppEnv>): CallOptions {
  return {
    timeoutMs: timeoutFor(c.env),
    operatorUser: c.get('user').username,
    policy: outboundPolicy(c.env),
  };
}

const queryOrBody = async (c: Context<AppEnv>) => (c.req.method === 'GET' ? c.req.query() : readBody(c));

async function oneStudent(c: Context<AppEnv>, input: Record<string, unknown>) {
  const hash = typeof input.student_id_hash === 'string' ? input.student_id_hash.trim() : '';
  if (!hash) throw fieldError('student_id_hash', OPERATOR_MESSAGES.studentsRequired);
  return installationBy(c.env, 'student_id_hash', hash);
}

/**
 * The installation a modify call goes to (spec 3 §7, spec 4 §7): the student's by id hash, else
 * the one of the domain it names, else the default installation domain (OPERATOR_DEFAULT_DOMAIN,
 * docs/decisions/175-default-installation-domain.md), else the 422 of a missing student.
 */
async function modifyTarget(c: Context<AppEnv>, input: Record<string, unknown>) {
  const hash = typeof input.student_id_hash === 'string' ? input.student_id_hash.trim() : '';
  if (hash) return oneStudent(c, input);
  const named = typeof input.domain === 'string' ? input.domain.trim() : '';
  const fallback = (c.env.OPERATOR_DEFAULT_DOMAIN ?? '').trim();
  if (!named && !fallback) return oneStudent(c, input);
  return installationBy(c.env, 'domain', named || fallback);
}

/** A failed call to an installation: 502 with its reason (the screen shows the message). */
function unavailable(inst: Installation, error: string): never {
  throw new ApiError(502, `${inst.name} (${inst.domain}) did not answer: ${error}`);
}

/** One student's campaign over a date range, asked of that student's installation. */
async function campaignRangeCall<T extends object>(
  c: Context<AppEnv>,
  path: 'campaign-data' | 'campaign-total',
) {
  const input = c.req.query();
  const range = parseInput(campaignRangeSchema, input, DATE_FIELD_ORDER);
  const inst = await oneStudent(c, input);
  const q = `campaign_id=${range.campaign_id}&start_date=${range.start_date}&end_date=${range.end_date}`;
  const r = await callInstallation<T>(inst, `${path}?${q}`, {}, callOptions(c));
  if (!r.ok) unavailable(inst, r.error);
  return { student: student(inst), ...r.data };
}

const central = new Hono<AppEnv>()
  .use('*', requireOperatorHost, requireAuth, requireRole('admin', 'coach'))
  .get('/students', async (c) =>
    c.json({ data: { students: await listStudents(c.env) } satisfies StudentsAnswer }),
  )
  .post('/students-data', async (c) => {
    const body = await readBody(c);
    const range = parseInput(dateRangeSchema, body, DATE_FIELD_ORDER);
    const hashes = Array.isArray(body.students)
      ? body.students.map(String)
      : typeof body.students === 'string'
        ? [body.students]
        : [];
    if (hashes.length === 0) throw fieldError('students', OPERATOR_MESSAGES.studentsRequired);
    const list = await installations(c.env, hashes);
    const { answered, unavailable: down } = await fanOut<ReportsAnswer>(
      list,
      () => `reports?start_date=${range.start_date}&end_date=${range.end_date}`,
      callOptions(c),
    );
    return c.json({
      data: {
        students: answered.map(({ inst, data }) => ({ ...student(inst), total: data.total })),
        unavailable: down,
      } satisfies StudentsDataAnswer,
    });
  })
  .get('/student-campaigns', async (c) => {
    const input = c.req.query();
    const range = parseInput(dateRangeSchema, input, DATE_FIELD_ORDER);
    const inst = await oneStudent(c, input);
    const r = await callInstallation<ReportsAnswer>(
      inst,
      `reports?start_date=${range.start_date}&end_date=${range.end_date}`,
      {},
      callOptions(c),
    );
    if (!r.ok) unavailable(inst, r.error);
    return c.json({
      data: { student: student(inst), campaigns: r.data.campaigns } satisfies StudentCampaignsAnswer,
    });
  })
  .get('/campaign-data', async (c) =>
    c.json({
      data: (await campaignRangeCall<CampaignDataAnswer>(
        c,
        'campaign-data',
      )) satisfies StudentCampaignDataAnswer,
    }),
  )
  .get('/campaign-total', async (c) =>
    c.json({
      data: (await campaignRangeCall<CampaignTotalAnswer>(
        c,
        'campaign-total',
      )) satisfies StudentCampaignTotalAnswer,
    }),
  )
  .get('/all-students-reports', async (c) => {
    const range = parseInput(dateRangeSchema, c.req.query(), DATE_FIELD_ORDER);
    return c.json({
      data: (await cachedReports(c.env, range.start_date, range.end_date)) satisfies AllStudentsReportsAnswer,
    });
  })
  .post('/update-student-data', async (c) => {
    const body = await readBody(c);
    const range = parseInput(dateRangeSchema, body, DATE_FIELD_ORDER);
    const domain = typeof body.domain === 'string' ? body.domain.trim() : '';
    const inst = await installationBy(c.env, 'domain', domain);
    const r = await refreshInstallation(c.env, inst, range.start_date, range.end_date, callOptions(c));
    if (!r.ok) unavailable(inst, r.error);
    return c.json({
      data: { student: student(inst), total: r.total, days: r.days } satisfies UpdateStudentDataAnswer,
    });
  })
  .post('/modify/:verb', async (c) => {
    const verb = c.req.param('verb');
    if (!(MODIFY_VERBS as string[]).includes(verb)) throw new ApiError(404, 'Not found.');
    const body = await queryOrBody(c);
    const inst = await modifyTarget(c, body);
    const { student_id_hash: _, domain: __, ...fields } = body;
    const r = await callInstallation<ModifyAnswer>(
      inst,
      verb,
      { method: 'POST', body: fields },
      callOptions(c),
    );
    // The screen treats status_code 500 as an error (spec 3 §4); a 422's message is kept.
    if (!r.ok) {
      const status = r.status === 422 || r.status === 404 ? r.status : 502;
      return c.json(
        {
          ...errorBody(r.error),
          data: { status_code: 500, message: r.error, corrections: [] } satisfies OperatorModifyAnswer,
        },
        status,
      );
    }
    return c.json({ data: r.data satisfies OperatorModifyAnswer });
  });

const registry = new Hono<AppEnv>()
  .use('*', requireOperatorHost, requireAuth, requireRole('admin'))
  .get('/', async (c) => c.json({ data: { students: await listStudents(c.env) } satisfies StudentsAnswer }))
  .post('/', async (c) => {
    const input = parseInput(installationInputSchema, await readBody(c), INSTALLATION_FIELD_ORDER);
    const inst = await addInstallation(c.env, input);
    return c.json(
      {
        data: { student: student(inst), message: OPERATOR_MESSAGES.saved } satisfies InstallationSavedAnswer,
      },
      201,
    );
  })
  .put('/:id{[0-9]+}', async (c) => {
    const input = parseInput(installationInputSchema, await readBody(c), INSTALLATION_FIELD_ORDER);
    const inst = await editInstallation(c.env, Number(c.req.param('id')), input);
    return c.json({
      data: { student: student(inst), message: OPERATOR_MESSAGES.saved } satisfies InstallationSavedAnswer,
    });
  })
  .delete('/:id{[0-9]+}', async (c) => {
    await removeInstallation(c.env, Number(c.req.param('id')));
    return c.json({ data: { message: OPERATOR_MESSAGES.removed } satisfies InstallationRemovedAnswer });
  });

export const operatorRoutes = new Hono<AppEnv>()
  .get('/operator/status', (c) =>
    c.json({ data: { operator: isOperatorHost(c.env, c.req.url) } satisfies OperatorStatusAnswer }),
  )
  .route('/operator/installations', registry)
  .route('/operator', central);
