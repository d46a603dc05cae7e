import { type Context, Hono } from 'hono';
import type { z } from 'zod';
import {
  CREATIVE_MESSAGES as CM,
  TOGGLE_STATS_AD_ORDER,
  type ToggleStatsAdAnswer,
  toggleStatsAdSchema,
} from '../../schema/creative-status-api';
import {
  type ConversionTrackerAnswer,
  type ConversionTrackersAnswer,
  CREATE_AD_ORDER,
  campaignScopeSchema,
  conversionRefSchema,
  createAdSchema,
  EDIT_AD_ORDER,
  editAdSchema,
  IAB_CATEGORIES,
  type IabCategoriesAnswer,
  LI_CAMPAIGN_ORDER,
  LINE_ITEM_ORDER,
  type LiAdAnswer,
  type LiAdsAnswer,
  type LiCampaignAnswer,
  type LiCampaignCreatedAnswer,
  type LiCampaignsAnswer,
  type LiCreateAdAnswer,
  type LiMessageAnswer,
  type LineItemAnswer,
  type LineItemCreatedAnswer,
  type LineItemsAnswer,
  liCampaignSchema,
  lineItemRefSchema,
  lineItemSchema,
  LIVEINTENT_MESSAGES as M,
  refSchema,
  segmentRefSchema,
  TRACKER_ORDER,
  type TrackerCreatedAnswer,
  type TrackerStatusAnswer,
  toggleAdSchema,
  trackerSchema,
} from '../../schema/liveintent-api';
import type { AppEnv } from '../env';
import { requireAuth } from '../lib/auth';
import { fieldError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { dayIn } from '../services/ingest/days';
import { liveIntentCampaign } from '../services/liveintent/access';
import { liveIntentContext } from '../services/liveintent/context';
import { toggleStatsAd } from '../services/liveintent/creative-status';
import * as li from '../services/liveintent/manage';
import { getSettings } from '../services/settings/settings';

// The manage-liveintent calls of spec 4 §7 (docs/api.md "Manage LiveIntent", decision 090). Each
// names the tracker campaign it acts for; the access rules (403) are checked before anything
// reaches the platform.

type C = Context<AppEnv>;

const REF_ORDER = ['campaignId', 'refId'];

/** Access rules, then the platform session, for the campaign a call names. */
const context = (c: C, campaignId: number) => liveIntentContext(c.env, c.get('user'), campaignId, c.req.url);

/** GET calls: the tracker campaign in `campaignId` (or `id` where the spec's id is the campaign). */
function queryCampaign(c: C, key: 'campaignId' | 'id' = 'campaignId') {
  return parseInput(campaignScopeSchema, { campaignId: c.req.query(key) ?? c.req.query('campaignId') })
    .campaignId;
}

function queryRef(c: C) {
  const id = (c.req.query('id') ?? '').trim();
  if (!id || id.length > 64) throw fieldError('id', M.required);
  return id;
}

async function today(c: C) {
  return dayIn(Date.now(), (await getSettings(c.env)).time_zone);
}

const ok = (c: C, message: string) => c.json({ data: { message } satisfies LiMessageAnswer });

type LiContext = Awaited<ReturnType<typeof context>>;

/**
 * A POST that changes something on the platform: the body is parsed (and `required`, when named,
 * must be there: a 400 before the access rules are asked), the campaign's platform session is
 * opened, `act` runs and the answer is `message`.
 */
function liAction<T extends z.ZodType<{ campaignId: number }>>(
  schema: T,
  order: readonly string[],
  act: (ctx: LiContext, input: z.output<T>) => Promise<unknown>,
  message: string,
  required?: keyof z.output<T> & string,
) {
  return async (c: C) => {
    const input = parseInput(schema, await readBody(c), order);
    if (required && !input[required]) throw fieldError(required, M.required);
    await act(await context(c, input.campaignId), input);
    return ok(c, message);
  };
}

export const manageLiveintentRoutes = new Hono<AppEnv>()
  .basePath('/manage-liveintent')
  .get('/access', requireAuth, async (c) => {
    await liveIntentCampaign(c.env, c.get('user'), queryCampaign(c));
    return ok(c, 'ok');
  })
  .get('/iab-categories', requireAuth, (c) => c.json({ data: IAB_CATEGORIES satisfies IabCategoriesAnswer }))
  // ---- campaigns
  .get('/licampaigns', requireAuth, async (c) => {
    const ctx = await context(c, queryCampaign(c, 'id'));
    return c.json({ data: { liCampaigns: await li.listCampaigns(ctx) } satisfies LiCampaignsAnswer });
  })
  .post('/campaign', requireAuth, async (c) => {
    const input = parseInput(refSchema, await readBody(c), REF_ORDER);
    const ctx = await context(c, input.campaignId);
    return c.json({ data: { liCampaign: await li.campaign(ctx, input.refId) } satisfies LiCampaignAnswer });
  })
  .post('/create-campaign', requireAuth, async (c) => {
    const input = parseInput(liCampaignSchema(await today(c)), await readBody(c), LI_CAMPAIGN_ORDER);
    const ctx = await context(c, input.campaignId);
    const liCampaign = await li.createCampaign(ctx, input);
    return c.json(
      { data: { message: M.campaignCreated, liCampaign } satisfies LiCampaignCreatedAnswer },
      201,
    );
  })
  .post('/edit-campaign', requireAuth, async (c) => {
    const body = await readBody(c);
    const input = parseInput(liCampaignSchema(await today(c)), body, LI_CAMPAIGN_ORDER);
    if (!input.refId) throw fieldError('refId', M.required);
    const ctx = await context(c, input.campaignId);
    await li.editCampaign(ctx, input.refId, input);
    return ok(c, M.campaignUpdated);
  })
  .post(
    '/delete-campaign',
    requireAuth,
    liAction(refSchema, REF_ORDER, (ctx, input) => li.deleteCampaign(ctx, input.refId), M.campaignDeleted),
  )
  // ---- line items
  .get('/lineitems', requireAuth, async (c) => {
    const ctx = await context(c, queryCampaign(c, 'id'));
    return c.json({ data: { lineItems: await li.listLineItems(ctx) } satisfies LineItemsAnswer });
  })
  .get('/lineitem', requireAuth, async (c) => {
    const ctx = await context(c, queryCampaign(c));
    return c.json({ data: { lineItem: await li.lineItem(ctx, queryRef(c)) } satisfies LineItemAnswer });
  })
  .post('/create-lineitem', requireAuth, async (c) => {
    const input = parseInput(lineItemSchema, await readBody(c), LINE_ITEM_ORDER);
    const ctx = await context(c, input.campaignId);
    const lineItem = await li.createLineItem(ctx, input);
    return c.json({ data: { message: M.lineItemCreated, lineItem } satisfies LineItemCreatedAnswer }, 201);
  })
  .post(
    '/edit-lineitem',
    requireAuth,
    liAction(lineItemSchema, LINE_ITEM_ORDER, li.editLineItem, M.lineItemUpdated, 'lineItemRefId'),
  )
  .post(
    '/delete-lineitem',
    requireAuth,
    liAction(
      lineItemRefSchema,
      ['campaignId', 'lineItemRefId'],
      (ctx, input) => li.deleteLineItem(ctx, input.lineItemRefId),
      M.lineItemDeleted,
    ),
  )
  // ---- conversion trackers
  .get('/conversiontrackers', requireAuth, async (c) => {
    const ctx = await context(c, queryCampaign(c));
    return c.json({
      data: { conversionTrackers: await li.listTrackers(ctx) } satisfies ConversionTrackersAnswer,
    });
  })
  .get('/conversiontracker', requireAuth, async (c) => {
    const ctx = await context(c, queryCampaign(c));
    return c.json({
      data: { conversionTracker: await li.tracker(ctx, queryRef(c)) } satisfies ConversionTrackerAnswer,
    });
  })
  .get('/get-conversion-tracker-status', requireAuth, async (c) => {
    const ctx = await context(c, queryCampaign(c));
    return c.json({
      data: { active: await li.trackerStatus(ctx, queryRef(c)) } satisfies TrackerStatusAnswer,
    });
  })
  .post('/create-conversiontracker', requireAuth, async (c) => {
    const input = parseInput(trackerSchema, { ...(await readBody(c)), segmentId: '' }, TRACKER_ORDER);
    const ctx = await context(c, input.campaignId);
    const conversionTracker = await li.saveTracker(ctx, input);
    return c.json(
      { data: { message: M.trackerCreated, conversionTracker } satisfies TrackerCreatedAnswer },
      201,
    );
  })
  .post(
    '/edit-conversiontracker',
    requireAuth,
    liAction(trackerSchema, TRACKER_ORDER, li.saveTracker, M.trackerUpdated, 'segmentId'),
  )
  .post('/edit-conversiontracker-pixel', requireAuth, async (c) => {
    const input = parseInput(segmentRefSchema, await readBody(c), ['campaignId', 'segmentId']);
    const ctx = await context(c, input.campaignId);
    const conversionTracker = await li.trackerPixel(ctx, input.segmentId);
    return c.json({ data: { conversionTracker } satisfies ConversionTrackerAnswer });
  })
  .post(
    '/delete-conversiontracker',
    requireAuth,
    liAction(
      conversionRefSchema,
      ['campaignId', 'conversionRefId'],
      (ctx, input) => li.deleteTracker(ctx, input.conversionRefId),
      M.trackerDeleted,
    ),
  )
  // ---- ads
  .get('/liads', requireAuth, async (c) => {
    const ctx = await context(c, queryCampaign(c, 'id'));
    return c.json({ data: { ads: await li.listAds(ctx) } satisfies LiAdsAnswer });
  })
  .get('/liad', requireAuth, async (c) => {
    const ctx = await context(c, queryCampaign(c));
    return c.json({ data: { ad: await li.ad(ctx, queryRef(c)) } satisfies LiAdAnswer });
  })
  .post('/create-ad', requireAuth, async (c) => {
    const input = parseInput(createAdSchema, await readBody(c), CREATE_AD_ORDER);
    const ctx = await context(c, input.campaignId);
    const ad = await li.createAd(ctx, input);
    return c.json({ data: { message: M.adCreated, ad } satisfies LiCreateAdAnswer }, 201);
  })
  .post('/edit-ad', requireAuth, liAction(editAdSchema, EDIT_AD_ORDER, li.editAd, M.adUpdated))
  .post(
    '/delete-ad',
    requireAuth,
    liAction(refSchema, REF_ORDER, (ctx, input) => li.deleteAd(ctx, input.refId), M.adDeleted),
  )
  .post(
    '/toggle-ad-status',
    requireAuth,
    liAction(
      toggleAdSchema,
      [...REF_ORDER, 'status'],
      (ctx, input) => li.toggleAd(ctx, input.refId, input.status),
      M.adStatusChanged,
    ),
  )
  // The statistics screen's creative switch (spec 3 §4): links or unlinks a creative and a line item.
  .post('/toggle-ad-status-stats-page', requireAuth, async (c) => {
    const input = parseInput(toggleStatsAdSchema, await readBody(c), TOGGLE_STATS_AD_ORDER);
    const ctx = await context(c, input.campaignId);
    const creative = await toggleStatsAd(ctx, input);
    return c.json({ data: { message: CM.adStatusChanged, creative } satisfies ToggleStatsAdAnswer });
  });
