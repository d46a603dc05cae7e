import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { flag, requiredId } from '../../schema/campaign-api';
import {
  type ApplyTemplateAnswer,
  AUTO_OPTIMIZE_FIELD_ORDER,
  autoOptimizeSchema,
  campaignListSchema,
  type ExportItemsAnswer,
  goalSchema,
  ITEMS_FIELD_ORDER,
  type ItemOf,
  type ItemsAnswer,
  type ItemsUploadAnswer,
  landingItemsSchema,
  OPERATION_MESSAGES as M,
  type OptimizationAnswer,
  offerItemsSchema,
  optionItemsSchema,
  pathItemsSchema,
  type RemoveTemplateAnswer,
  type ShowDeletedAnswer,
  TOKEN_TEMPLATE_FIELD_ORDER,
  type TokenTemplate,
  testReportingSchema,
  tokenTemplateSchema,
  UPLOAD_LIMITS,
} from '../../schema/pages-operations-api';
import type { AppEnv } from '../env';
import { anyRole, requireAuth } from '../lib/auth';
import { parseInput, readBody } from '../lib/validate';
import { uploadBodyLimit } from '../lib/zip';
import { type CampaignRow, campaignForUser, listLandings, listOffers } from '../services/campaigns';
import type { ItemKind } from '../services/campaigns/item-switch';
import { applyTemplate, removeTemplate, TOKEN_TEMPLATES } from '../services/campaigns/token-templates';
import { cloneItems } from '../services/pages/clone';
import { equalShare } from '../services/pages/equal-shares';
import { exportLandings, exportOffers } from '../services/pages/export';
import { listOf, setDeleted } from '../services/pages/items';
import {
  optimizationAnswer,
  setAutoOptimize,
  setOptimizationGoal,
  setTestReporting,
} from '../services/pages/optimization';
import {
  csvUploadText,
  importLandings,
  importOffers,
  uploadLandingCsv,
  zipUploadFile,
} from '../services/pages/uploads';

// The pages-operation verbs of spec 2 §7 (all POST with campaignId and showDeleted, answering
// data.result: the list after the change, with or without deleted items as showDeleted says),
// the optimisation switches, the token templates, and the landing/offer uploads. Rules live
// in services/pages/ and services/campaigns/token-templates.ts.

const SCHEMAS = {
  landing: landingItemsSchema,
  offer: offerItemsSchema,
  path: pathItemsSchema,
  option: optionItemsSchema,
} as const;

/** A row of any item kind: the verbs below serve all four kinds with one handler. */
type AnyItem = ItemOf<ItemKind>;

type Verb = 'delete' | 'undo' | 'clone';
const VERB_MESSAGES: Record<ItemKind, Record<Verb, string>> = {
  landing: { delete: M.landingsDeleted, undo: M.landingsRestored, clone: M.landingsCloned },
  offer: { delete: M.offersDeleted, undo: M.offersRestored, clone: M.offersCloned },
  path: { delete: M.pathsDeleted, undo: M.pathsRestored, clone: M.pathsCloned },
  option: { delete: M.optionsDeleted, undo: M.optionsRestored, clone: M.optionsCloned },
};

function itemVerb(kind: ItemKind, verb: Verb) {
  return async (c: Context<AppEnv>) => {
    const input = parseInput(SCHEMAS[kind], await readBody(c), ITEMS_FIELD_ORDER);
    const user = c.get('user');
    if (verb === 'clone') await cloneItems(c.env, user, kind, input.campaignId, input.ids);
    else await setDeleted(c.env, user, kind, input.campaignId, input.ids, verb === 'delete' ? 1 : 0);
    const result = await listOf(c.env, kind, input.campaignId, input.showDeleted);
    return c.json({ data: { message: VERB_MESSAGES[kind][verb], result } satisfies ItemsAnswer<AnyItem> });
  };
}

/** The list with or without deleted items: the show-deleted switch of each table. */
function toggleDeleted(kind: ItemKind) {
  return async (c: Context<AppEnv>) => {
    const input = parseInput(campaignListSchema, await readBody(c), ['campaignId']);
    const campaign = await campaignForUser(c.env, c.get('user'), input.campaignId, { allowDeleted: true });
    const result = await listOf(c.env, kind, campaign.id, input.showDeleted);
    return c.json({ data: { showDeleted: input.showDeleted, result } satisfies ShowDeletedAnswer<AnyItem> });
  };
}

function equalShareVerb(kind: 'landing' | 'offer' | 'path') {
  return async (c: Context<AppEnv>) => {
    const input = parseInput(campaignListSchema, await readBody(c), ['campaignId']);
    await equalShare(c.env, c.get('user'), kind, input.campaignId);
    const result = await listOf(c.env, kind, input.campaignId, input.showDeleted);
    return c.json({ data: { message: M.equalShare, result } satisfies ItemsAnswer<AnyItem> });
  };
}

function exportVerb(kind: 'landing' | 'offer') {
  return async (c: Context<AppEnv>) => {
    const input = parseInput(SCHEMAS[kind], await readBody(c), ITEMS_FIELD_ORDER);
    const run = kind === 'landing' ? exportLandings : exportOffers;
    const downloadLink = await run(c.env, c.get('user'), input.campaignId, input.ids);
    const result = await listOf(c.env, kind, input.campaignId, input.showDeleted);
    return c.json({
      data: { message: M.exported, downloadLink, result } satisfies ExportItemsAnswer<AnyItem>,
    });
  };
}

/** The verbs each item table has: an equal share for all but options, an export for pages. */
const ITEM_TABLES = [
  ['landing', 'landings'],
  ['offer', 'offers'],
  ['path', 'paths'],
  ['option', 'options'],
] as const;

/**
 * The optimisation switches of the landing table: `change` writes the campaign row, the answer
 * is its `message`, the campaign's switches and the landing list.
 */
function optimizationVerb<T extends z.ZodType<{ campaignId: number; showDeleted: 0 | 1 }>>(
  schema: T,
  order: readonly string[],
  change: (c: Context<AppEnv>, input: z.output<T>) => Promise<CampaignRow>,
  message: (row: CampaignRow, input: z.output<T>) => string,
) {
  return async (c: Context<AppEnv>) => {
    const input = parseInput(schema, await readBody(c), order);
    const row = await change(c, input);
    const result = await listLandings(c.env, row.id, input.showDeleted);
    return c.json({
      data: {
        message: message(row, input),
        campaign: optimizationAnswer(row),
        result,
      } satisfies OptimizationAnswer,
    });
  };
}

export const pagesOperationRoutes = new Hono<AppEnv>();
for (const [kind, plural] of ITEM_TABLES) {
  pagesOperationRoutes
    .post(`/delete-${kind}`, requireAuth, anyRole, itemVerb(kind, 'delete'))
    .post(`/undo-${kind}`, requireAuth, anyRole, itemVerb(kind, 'undo'))
    .post(`/clone-${plural}`, requireAuth, anyRole, itemVerb(kind, 'clone'))
    .post(`/${kind}-toggle-delete`, requireAuth, anyRole, toggleDeleted(kind));
  if (kind !== 'option')
    pagesOperationRoutes.post(`/${kind}-equal-share`, requireAuth, anyRole, equalShareVerb(kind));
  if (kind === 'landing' || kind === 'offer') {
    pagesOperationRoutes.post(`/export-${plural}`, requireAuth, anyRole, exportVerb(kind));
  }
}
pagesOperationRoutes
  .post(
    '/campaign-toggle-auto-optimize',
    requireAuth,
    anyRole,
    optimizationVerb(
      autoOptimizeSchema,
      AUTO_OPTIMIZE_FIELD_ORDER,
      (c, input) => setAutoOptimize(c.env, c.get('user'), input),
      (row) => (row.landingPagesAutoOptimized === 1 ? M.autoOptimizeOn : M.autoOptimizeOff),
    ),
  )
  .post(
    '/campaign-toggle-lp-test-reporting',
    requireAuth,
    anyRole,
    optimizationVerb(
      testReportingSchema,
      ['campaignId', 'enabled'],
      (c, input) => setTestReporting(c.env, c.get('user'), input.campaignId, input.enabled),
      (row) => (row.enableLpTestReporting === 1 ? M.testReportingOn : M.testReportingOff),
    ),
  )
  .post(
    '/campaign-set-lp-optimization-goal',
    requireAuth,
    anyRole,
    optimizationVerb(
      goalSchema,
      ['campaignId', 'goal'],
      (c, input) => setOptimizationGoal(c.env, c.get('user'), input.campaignId, input.goal),
      (_row, input) => M.goalSet.replace('{goal}', input.goal),
    ),
  )
  .get('/token-templates', requireAuth, anyRole, (c) =>
    c.json({
      data: {
        result: TOKEN_TEMPLATES.map((tpl) => ({ key: tpl.key, label: tpl.label, tokens: tpl.tokens })),
      } satisfies { result: TokenTemplate[] },
    }),
  )
  .post('/apply-token-template', requireAuth, anyRole, async (c) => {
    const input = parseInput(tokenTemplateSchema, await readBody(c), TOKEN_TEMPLATE_FIELD_ORDER);
    const answer = await applyTemplate(c.env, c.get('user'), input.campaignid, input.template);
    return c.json({ data: { message: M.templatesApplied, ...answer } satisfies ApplyTemplateAnswer });
  })
  .post('/remove-token-template', requireAuth, anyRole, async (c) => {
    const input = parseInput(tokenTemplateSchema, await readBody(c), TOKEN_TEMPLATE_FIELD_ORDER);
    const answer = await removeTemplate(c.env, c.get('user'), input.campaignid, input.template);
    return c.json({ data: { message: M.tokensRemoved, ...answer } satisfies RemoveTemplateAnswer });
  });

// ---- uploads (multipart) ----------------------------------------------------------------------

/** Multipart bodies up to the ZIP limit plus the form's other fields. */
const UPLOAD_BODY_LIMIT = UPLOAD_LIMITS.zipBytes + 64 * 1024;

const uploadFields = z.object({
  campaignId: requiredId(M.campaignRequired),
  overwrite: flag(0),
  showDeleted: flag(0),
});

async function uploadForm(c: Context<AppEnv>) {
  const body = await readBody(c);
  const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
  const fields = parseInput(
    uploadFields,
    {
      campaignId: first(body.campaignId),
      overwrite: first(body.overwrite),
      showDeleted: first(body.showDeleted),
    },
    ['campaignId'],
  );
  return { ...fields, file: first(body.uploads) };
}

/**
 * Mounted on the app (not the /api sub-app) so the uploads get a body limit of their own
 * rather than the JSON API's 1 MB; worker/app.ts registers it before the API.
 */
const uploadLimit = uploadBodyLimit(UPLOAD_BODY_LIMIT, M.zipTooLarge);

const ZIP_IMPORTS = {
  landing: { file: 'landings.csv', missing: M.zipNoLandings, run: importLandings },
  offer: { file: 'offers.csv', missing: M.zipNoOffers, run: importOffers },
} as const;

/** The landing or offer ZIP import (what export-landings or export-offers wrote); answers the row count. */
async function zipImport(c: Context<AppEnv>, kind: 'landing' | 'offer') {
  const spec = ZIP_IMPORTS[kind];
  const form = await uploadForm(c);
  await campaignForUser(c.env, c.get('user'), form.campaignId);
  const text = await zipUploadFile(form.file, spec.file, spec.missing);
  return { form, uploaded: await spec.run(c.env, c.get('user'), form.campaignId, text) };
}

export const pagesUploadRoutes = new Hono<AppEnv>()
  .post('/lading-pages-csv', uploadLimit, requireAuth, anyRole, async (c) => {
    const form = await uploadForm(c);
    await campaignForUser(c.env, c.get('user'), form.campaignId);
    const text = await csvUploadText(form.file);
    const uploaded = await uploadLandingCsv(
      c.env,
      c.get('user'),
      form.campaignId,
      text,
      form.overwrite === 1,
    );
    const result = await listLandings(c.env, form.campaignId, form.showDeleted);
    return c.json({
      data: { message: M.landingsUploaded, uploaded, result } satisfies ItemsUploadAnswer<ItemOf<'landing'>>,
    });
  })
  .post('/import-landings', uploadLimit, requireAuth, anyRole, async (c) => {
    const { form, uploaded } = await zipImport(c, 'landing');
    const result = await listLandings(c.env, form.campaignId, form.showDeleted);
    const answer = { message: M.landingsImported, uploaded, result };
    return c.json({ data: answer satisfies ItemsUploadAnswer<ItemOf<'landing'>> });
  })
  .post('/import-offers', uploadLimit, requireAuth, anyRole, async (c) => {
    const { form, uploaded } = await zipImport(c, 'offer');
    const result = await listOffers(c.env, form.campaignId, form.showDeleted);
    const answer = { message: M.offersImported, uploaded, result };
    return c.json({ data: answer satisfies ItemsUploadAnswer<ItemOf<'offer'>> });
  });
