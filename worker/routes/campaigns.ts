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
  editCampaignSchema,
  editLandingSchema,
  editOfferSchema,
  editOptionSchema,
  editPathSchema,
  LANDING_FIELD_ORDER,
  CAMPAIGN_MESSAGES as M,
  OFFER_FIELD_ORDER,
  OPTION_FIELD_ORDER,
  PATH_FIELD_ORDER,
  type ResetStatsAnswer,
} from '../../schema/campaign-api';
import type { CampaignListAnswer } from '../../schema/campaign-list-api';
import type { AppEnv } from '../env';
import { anyRole, requireAuth } from '../lib/auth';
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
import { itemListRoute, itemRoutes } from './campaign-items';

// Campaign, landing, offer, path and option API of spec 2 §7 (the minimal create, edit and
// list set; issue 4 adds the pages-operation verbs). All three roles may manage campaigns;
// which ones is decided in services/campaigns/access.ts (docs/decisions/015-campaign-ownership.md).

const savedAnswer = (message: string, row: Parameters<typeof campaignData>[0]) => ({
  message,
  campaign: { campaignData: campaignData(row) },
});

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
      return c.json({ data: savedAnswer(M.campaignAdded, row) satisfies CampaignSaveAnswer }, 201);
    },
  )
  .put(
    '/edit-campaign',
    requireAuth,
    anyRole,
    validate('json', editCampaignSchema, CAMPAIGN_FIELD_ORDER),
    async (c) => {
      const row = await updateCampaign(c.env, c.get('user'), c.req.valid('json'));
      return c.json({ data: savedAnswer(M.campaignUpdated, row) satisfies CampaignSaveAnswer });
    },
  )
  .route(
    '/',
    itemRoutes({
      name: 'landing',
      add: addLandingSchema,
      edit: editLandingSchema,
      order: LANDING_FIELD_ORDER,
      idOf: (input) => input.landingPageId,
      save: saveLanding,
      list: listLandings,
      saved: M.landingSaved,
    }),
  )
  .route(
    '/',
    itemRoutes({
      name: 'offer',
      add: addOfferSchema,
      edit: editOfferSchema,
      order: OFFER_FIELD_ORDER,
      idOf: (input) => input.offerPageId,
      save: saveOffer,
      list: listOffers,
      saved: M.offerSaved,
    }),
  )
  .route(
    '/',
    itemRoutes({
      name: 'path',
      add: addPathSchema,
      edit: editPathSchema,
      order: PATH_FIELD_ORDER,
      idOf: (input) => input.pathId,
      save: savePath,
      list: listPaths,
      saved: M.pathSaved,
    }),
  )
  .route(
    '/',
    itemRoutes({
      name: 'option',
      add: addOptionSchema,
      edit: editOptionSchema,
      order: OPTION_FIELD_ORDER,
      idOf: (input) => input.optionId,
      save: saveOption,
      list: listOptions,
      saved: M.optionSaved,
    }),
  )
  .route('/', itemListRoute('/extratokens', listTokens))
  .post('/reset-stats', requireAuth, anyRole, validate('json', campaignIdSchema), async (c) => {
    const { campaignId } = c.req.valid('json');
    const campaign = await campaignForUser(c.env, c.get('user'), campaignId, { allowDeleted: true });
    await resetStatistics(c.env, campaign.id);
    return c.json({ data: { status: true, message: M.statsReset } satisfies ResetStatsAnswer });
  });
