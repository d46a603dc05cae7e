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
import { requireAuth, requireRole } from '../lib/auth';
import { parseInput, readBody } from '../lib/validate';
import { uploadBodyLimit } from '../lib/zip';
import { campaignForUser, listLandings, listOffers } from '../services/campaigns';
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

const anyRole = requireRole('admin', 'coach', 'student');

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

export const pagesOperationRoutes = new Hono<AppEnv>()
  .post('/delete-landing', requireAuth, anyRole, itemVerb('landing', 'delete'))
  .post('/undo-landing', requireAuth, anyRole, itemVerb('landing', 'undo'))
  .post('/clone-landings', requireAuth, anyRole, itemVerb('landing', 'clone'))
  .post('/export-landings', requireAuth, anyRole, exportVerb('landing'))
  .post('/landing-toggle-delete', requireAuth, anyRole, toggleDeleted('landing'))
  .post('/landing-equal-share', requireAuth, anyRole, equalShareVerb('landing'))
  .post('/delete-offer', requireAuth, anyRole, itemVerb('offer', 'delete'))
  .post('/undo-offer', requireAuth, anyRole, itemVerb('offer', 'undo'))
  .post('/clone-offers', requireAuth, anyRole, itemVerb('offer', 'clone'))
  .post('/export-offers', requireAuth, anyRole, exportVerb('offer'))
  .post('/offer-toggle-delete', requireAuth, anyRole, toggleDeleted('offer'))
  .post('/offer-equal-share', requireAuth, anyRole, equalShareVerb('offer'))
  .post('/delete-path', requireAuth, anyRole, itemVerb('path', 'delete'))
  .post('/undo-path', requireAuth, anyRole, itemVerb('path', 'undo'))
  .post('/clone-paths', requireAuth, anyRole, itemVerb('path', 'clone'))
  .post('/path-toggle-delete', requireAuth, anyRole, toggleDeleted('path'))
  .post('/path-equal-share', requireAuth, anyRole, equalShareVerb('path'))
  .post('/delete-option', requireAuth, anyRole, itemVerb('option', 'delete'))
  .post('/undo-option', requireAuth, anyRole, itemVerb('option', 'undo'))
  .post('/clone-options', requireAuth, anyRole, itemVerb('option', 'clone'))
  .post('/option-toggle-delete', requireAuth, anyRole, toggleDeleted('option'))
  .post('/campaign-toggle-auto-optimize', requireAuth, anyRole, async (c) => {
    const input = parseInput(autoOptimizeSchema, await readBody(c), AUTO_OPTIMIZE_FIELD_ORDER);
    const row = await setAutoOptimize(c.env, c.get('user'), input);
    const result = await listLandings(c.env, row.id, input.showDeleted);
    const message = row.landingPagesAutoOptimized === 1 ? M.autoOptimizeOn : M.autoOptimizeOff;
    return c.json({
      data: { message, campaign: optimizationAnswer(row), result } satisfies OptimizationAnswer,
    });
  })
  .post('/campaign-toggle-lp-test-reporting', requireAuth, anyRole, async (c) => {
    const input = parseInput(testReportingSchema, await readBody(c), ['campaignId', 'enabled']);
    const row = await setTestReporting(c.env, c.get('user'), input.campaignId, input.enabled);
    const result = await listLandings(c.env, row.id, input.showDeleted);
    const message = row.enableLpTestReporting === 1 ? M.testReportingOn : M.testReportingOff;
    return c.json({
      data: { message, campaign: optimizationAnswer(row), result } satisfies OptimizationAnswer,
    });
  })
  .post('/campaign-set-lp-optimization-goal', requireAuth, anyRole, async (c) => {
    const input = parseInput(goalSchema, await readBody(c), ['campaignId', 'goal']);
    const row = await setOptimizationGoal(c.env, c.get('user'), input.campaignId, input.goal);
    const result = await listLandings(c.env, row.id, input.showDeleted);
    const message = M.goalSet.replace('{goal}', input.goal);
    return c.json({
      data: { message, campaign: optimizationAnswer(row), result } satisfies OptimizationAnswer,
    });
  })
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
