import { Hono } from 'hono';
import {
  addCampaignSchema,
  addLandingSchema,
  addOfferSchema,
  addOptionSchema,
  addPathSchema,
  CAMPAIGN_FIELD_ORDER,
  type CampaignDetail,
  type CampaignSaveAnswer,
  campaignIdSchema,
  campaignQuerySchema,
  type ExtraToken,
  editCampaignSchema,
  editLandingSchema,
  editOfferSchema,
  editOptionSchema,
  editPathSchema,
  itemListQuerySchema,
  LANDING_FIELD_ORDER,
  type Landing,
  type LandingSaveAnswer,
  type ListAnswer,
  CAMPAIGN_MESSAGES as M,
  OFFER_FIELD_ORDER,
  type Offer,
  type OfferSaveAnswer,
  OPTION_FIELD_ORDER,
  type OptionItem,
  type OptionSaveAnswer,
  PATH_FIELD_ORDER,
  type PathItem,
  type PathSaveAnswer,
  type ResetStatsAnswer,
} from '../../schema/campaign-api';
import type { CampaignListAnswer } from '../../schema/campaign-list-api';
import type { AppEnv } from '../env';
import { requireAuth, requireRole } from '../lib/auth';
import { validate } from '../lib/validate';
import {
  campaignData,
  campaignDetail,
  campaignForUser,
  createCampaign,
  listCampaigns,
  listLandings,
  listOffers,
  listOptions,
  listPaths,
  listTokens,
  resetStatistics,
  saveLanding,
  saveOffer,
  saveOption,
  savePath,
  updateCampaign,
} from '../services/campaigns';

// Campaign, landing, offer, path and option API of spec 2 §7 (the minimal create, edit and
// list set; issue 4 adds the pages-operation verbs). All three roles may manage campaigns;
// which ones is decided in services/campaigns/access.ts (docs/decisions/015-campaign-ownership.md).

const anyRole = requireRole('admin', 'coach', 'student');

export const campaignRoutes = new Hono<AppEnv>()
  .use('/campaign', requireAuth, anyRole)
  .get('/campaign', validate('query', campaignQuerySchema), async (c) => {
    const query = c.req.valid('query');
    if (query.campaignId) {
      const origin = new URL(c.req.url).origin;
      const detail = await campaignDetail(c.env, c.get('user'), query.campaignId, origin);
      return c.json({ data: detail satisfies CampaignDetail });
    }
    return c.json({ data: (await listCampaigns(c.env, c.get('user'), query)) satisfies CampaignListAnswer });
  })
  .post(
    '/add-campaign',
    requireAuth,
    anyRole,
    validate('json', addCampaignSchema, CAMPAIGN_FIELD_ORDER),
    async (c) => {
      const row = await createCampaign(c.env, c.get('user'), c.req.valid('json'));
      return c.json(
        {
          data: {
            message: M.campaignAdded,
            campaign: { campaignData: campaignData(row) },
          } satisfies CampaignSaveAnswer,
        },
        201,
      );
    },
  )
  .put(
    '/edit-campaign',
    requireAuth,
    anyRole,
    validate('json', editCampaignSchema, CAMPAIGN_FIELD_ORDER),
    async (c) => {
      const row = await updateCampaign(c.env, c.get('user'), c.req.valid('json'));
      return c.json({
        data: {
          message: M.campaignUpdated,
          campaign: { campaignData: campaignData(row) },
        } satisfies CampaignSaveAnswer,
      });
    },
  )
  .get('/landing', requireAuth, anyRole, validate('query', itemListQuerySchema), async (c) => {
    const { campaignId, showDeleted } = c.req.valid('query');
    const campaign = await campaignForUser(c.env, c.get('user'), campaignId, { allowDeleted: true });
    return c.json({
      data: { result: await listLandings(c.env, campaign.id, showDeleted) } satisfies ListAnswer<Landing>,
    });
  })
  .post(
    '/add-landing',
    requireAuth,
    anyRole,
    validate('json', addLandingSchema, LANDING_FIELD_ORDER),
    async (c) => {
      const input = c.req.valid('json');
      const landing = await saveLanding(c.env, c.get('user'), input);
      const result = await listLandings(c.env, input.campaignId);
      return c.json({ data: { message: M.landingSaved, landing, result } satisfies LandingSaveAnswer }, 201);
    },
  )
  .put(
    '/edit-landing',
    requireAuth,
    anyRole,
    validate('json', editLandingSchema, LANDING_FIELD_ORDER),
    async (c) => {
      const input = c.req.valid('json');
      const landing = await saveLanding(c.env, c.get('user'), input, input.landingPageId);
      const result = await listLandings(c.env, input.campaignId);
      return c.json({ data: { message: M.landingSaved, landing, result } satisfies LandingSaveAnswer });
    },
  )
  .get('/offer', requireAuth, anyRole, validate('query', itemListQuerySchema), async (c) => {
    const { campaignId, showDeleted } = c.req.valid('query');
    const campaign = await campaignForUser(c.env, c.get('user'), campaignId, { allowDeleted: true });
    return c.json({
      data: { result: await listOffers(c.env, campaign.id, showDeleted) } satisfies ListAnswer<Offer>,
    });
  })
  .post(
    '/add-offer',
    requireAuth,
    anyRole,
    validate('json', addOfferSchema, OFFER_FIELD_ORDER),
    async (c) => {
      const input = c.req.valid('json');
      const offer = await saveOffer(c.env, c.get('user'), input);
      const result = await listOffers(c.env, input.campaignId);
      return c.json({ data: { message: M.offerSaved, offer, result } satisfies OfferSaveAnswer }, 201);
    },
  )
  .put(
    '/edit-offer',
    requireAuth,
    anyRole,
    validate('json', editOfferSchema, OFFER_FIELD_ORDER),
    async (c) => {
      const input = c.req.valid('json');
      const offer = await saveOffer(c.env, c.get('user'), input, input.offerPageId);
      const result = await listOffers(c.env, input.campaignId);
      return c.json({ data: { message: M.offerSaved, offer, result } satisfies OfferSaveAnswer });
    },
  )
  .get('/path', requireAuth, anyRole, validate('query', itemListQuerySchema), async (c) => {
    const { campaignId, showDeleted } = c.req.valid('query');
    const campaign = await campaignForUser(c.env, c.get('user'), campaignId, { allowDeleted: true });
    return c.json({
      data: { result: await listPaths(c.env, campaign.id, showDeleted) } satisfies ListAnswer<PathItem>,
    });
  })
  .post('/add-path', requireAuth, anyRole, validate('json', addPathSchema, PATH_FIELD_ORDER), async (c) => {
    const input = c.req.valid('json');
    const path = await savePath(c.env, c.get('user'), input);
    const result = await listPaths(c.env, input.campaignId);
    return c.json({ data: { message: M.pathSaved, path, result } satisfies PathSaveAnswer }, 201);
  })
  .put('/edit-path', requireAuth, anyRole, validate('json', editPathSchema, PATH_FIELD_ORDER), async (c) => {
    const input = c.req.valid('json');
    const path = await savePath(c.env, c.get('user'), input, input.pathId);
    const result = await listPaths(c.env, input.campaignId);
    return c.json({ data: { message: M.pathSaved, path, result } satisfies PathSaveAnswer });
  })
  .get('/option', requireAuth, anyRole, validate('query', itemListQuerySchema), async (c) => {
    const { campaignId, showDeleted } = c.req.valid('query');
    const campaign = await campaignForUser(c.env, c.get('user'), campaignId, { allowDeleted: true });
    return c.json({
      data: { result: await listOptions(c.env, campaign.id, showDeleted) } satisfies ListAnswer<OptionItem>,
    });
  })
  .post(
    '/add-option',
    requireAuth,
    anyRole,
    validate('json', addOptionSchema, OPTION_FIELD_ORDER),
    async (c) => {
      const input = c.req.valid('json');
      const option = await saveOption(c.env, c.get('user'), input);
      const result = await listOptions(c.env, input.campaignId);
      return c.json({ data: { message: M.optionSaved, option, result } satisfies OptionSaveAnswer }, 201);
    },
  )
  .put(
    '/edit-option',
    requireAuth,
    anyRole,
    validate('json', editOptionSchema, OPTION_FIELD_ORDER),
    async (c) => {
      const input = c.req.valid('json');
      const option = await saveOption(c.env, c.get('user'), input, input.optionId);
      const result = await listOptions(c.env, input.campaignId);
      return c.json({ data: { message: M.optionSaved, option, result } satisfies OptionSaveAnswer });
    },
  )
  .get('/extratokens', requireAuth, anyRole, validate('query', itemListQuerySchema), async (c) => {
    const { campaignId, showDeleted } = c.req.valid('query');
    const campaign = await campaignForUser(c.env, c.get('user'), campaignId, { allowDeleted: true });
    return c.json({
      data: { result: await listTokens(c.env, campaign.id, showDeleted) } satisfies ListAnswer<ExtraToken>,
    });
  })
  .post('/reset-stats', requireAuth, anyRole, validate('json', campaignIdSchema), async (c) => {
    const { campaignId } = c.req.valid('json');
    const campaign = await campaignForUser(c.env, c.get('user'), campaignId, { allowDeleted: true });
    await resetStatistics(c.env, campaign.id);
    return c.json({ data: { status: true, message: M.statsReset } satisfies ResetStatsAnswer });
  });
