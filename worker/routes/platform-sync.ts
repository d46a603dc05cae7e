import { Hono } from 'hono';
import type { MessageAnswer } from '../../schema/auth-api';
import {
  type AdRecordsAnswer,
  type AdRecordsStartAnswer,
  adRecordsRequestSchema,
  campaignLinkSchema,
  INTEGRATION_MESSAGES as M,
  PICKER_PLATFORMS,
  type PickerPlatform,
  type PlatformCampaignsAnswer,
  type SyncStatusAnswer,
  syncNowSchema,
} from '../../schema/integrations-api';
import type { AppEnv } from '../env';
import { requireAuth } from '../lib/auth';
import { ApiError, fieldError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { campaignForUser } from '../services/campaigns';
import { adRecordsResult, startAdRecords } from '../services/integrations/ad-records';
import {
  adoptVerifiedFacebookLinks,
  linkCampaign,
  type PlatformSyncMessage,
  syncStatus,
} from '../services/integrations/cost-sync';
import { platformCampaigns } from '../services/integrations/platform-campaigns';

// The platform cost sync of a campaign (its link, its last sync, a sync on demand) and the ad
// performance records (docs/api.md, "Ad platforms: cost sync and ad records"). None of these
// calls a platform inside the request: the work goes on the statistics queue.

const LINK_ORDER = ['campaignId', 'platform', 'externalCampaignId', 'externalAccountId'];

export const platformSyncRoutes = new Hono<AppEnv>()
  .get('/integrations/sync-status', requireAuth, async (c) => {
    const campaignId = Number(c.req.query('campaignId'));
    if (!Number.isInteger(campaignId) || campaignId < 1) throw fieldError('campaignId', M.campaignRequired);
    await campaignForUser(c.env, c.get('user'), campaignId);
    // A verified Facebook campaign is linked as soon as it is looked at, not at the next cron.
    await adoptVerifiedFacebookLinks(c.env, campaignId);
    return c.json({
      data: { campaignId, links: await syncStatus(c.env, campaignId) } satisfies SyncStatusAnswer,
    });
  })
  .get('/integrations/platform-campaigns', requireAuth, async (c) => {
    const platform = c.req.query('platform') ?? '';
    if (!(PICKER_PLATFORMS as readonly string[]).includes(platform))
      throw fieldError('platform', M.linkPlatformInvalid);
    const campaignId = Number(c.req.query('campaignId'));
    if (!Number.isInteger(campaignId) || campaignId < 1) throw fieldError('campaignId', M.campaignRequired);
    // The campaign's owner's connection, as the cost sync uses it.
    const campaign = await campaignForUser(c.env, c.get('user'), campaignId);
    const accountId = (c.req.query('accountId') ?? '').trim().slice(0, 64);
    const answer = await platformCampaigns(c.env, platform as PickerPlatform, campaign.createdBy, accountId);
    return c.json({ data: answer satisfies PlatformCampaignsAnswer });
  })
  .post('/integrations/campaign-link', requireAuth, async (c) => {
    const input = parseInput(campaignLinkSchema, await readBody(c), LINK_ORDER);
    await campaignForUser(c.env, c.get('user'), input.campaignId);
    // TikTok's report is asked per advertiser: a link without one could never sync.
    if (input.platform === 'tiktok' && !input.externalAccountId)
      throw fieldError('externalAccountId', M.advertiserRequired);
    await linkCampaign(c.env, input.campaignId, input.platform, input);
    return c.json({ data: { message: M.linkSaved } satisfies MessageAnswer });
  })
  .post('/integrations/sync-now', requireAuth, async (c) => {
    const input = parseInput(syncNowSchema, await readBody(c), ['campaignId', 'platform']);
    await campaignForUser(c.env, c.get('user'), input.campaignId);
    await adoptVerifiedFacebookLinks(c.env, input.campaignId);
    const linked = (await syncStatus(c.env, input.campaignId)).some(
      (l) => l.platform === input.platform && l.enabled && l.externalCampaignId,
    );
    if (!linked) throw new ApiError(422, M.notLinked);
    await c.env.STATS_QUEUE.send({
      kind: 'platform-sync',
      campaignId: input.campaignId,
      platform: input.platform,
    } satisfies PlatformSyncMessage);
    return c.json({ data: { message: M.syncQueued } satisfies MessageAnswer });
  })
  .post('/facebook/ad-performance', requireAuth, async (c) => {
    const input = parseInput(adRecordsRequestSchema, await readBody(c), [
      'campaignId',
      'startDate',
      'endDate',
    ]);
    const campaign = await campaignForUser(c.env, c.get('user'), input.campaignId);
    const uuid = await startAdRecords(c.env, campaign, c.get('user').id, input);
    return c.json({ data: { uuid } satisfies AdRecordsStartAnswer });
  })
  .get('/facebook/ad-performance/:uuid', requireAuth, async (c) => {
    const answer = await adRecordsResult(c.env, c.req.param('uuid'), c.get('user').id);
    return c.json({ data: answer satisfies AdRecordsAnswer });
  });
