import { Hono } from 'hono';
import {
  CREATIVE_MESSAGES as CM,
  type CreativeStatusesAnswer,
  creativeStatusesSchema,
  JEENG_AD_STATUS_ORDER,
  type JeengAdStatusAnswer,
  jeengAdStatusSchema,
} from '../../schema/creative-status-api';
import { CPC_TRAFFIC_SOURCES } from '../../schema/traffic';
import type { AppEnv } from '../env';
import { requireAuth } from '../lib/auth';
import { ApiError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { campaignForUser } from '../services/campaigns/access';
import { liveIntentContext } from '../services/liveintent/context';
import { creativeStatuses } from '../services/liveintent/creative-status';
import { bannerCreativeStatuses } from '../services/traffic/banner-targets';
import { cpcCampaignForUser, jeengCampaign, trafficRow } from '../services/traffic/cpc';
import {
  externalCreativeStatuses,
  providerCampaignId,
  setExternalAdStatus,
} from '../services/traffic/cpc-ads';
import { assetRows } from '../services/traffic/cpc-assets';

// The creative switch of the statistics screen's target rows (spec 3 §4, §7; docs/api.md
// "Creative status"; docs/decisions/093, 094). The statuses are asked for one page of targets
// at a time; the switch itself is POST manage-liveintent/toggle-ad-status-stats-page (LiveIntent),
// POST jeeng/set-ad-status (the CPC sources) or POST blaze/save-banner (Blaze; decision 170).

const isCpc = (source: string) => (CPC_TRAFFIC_SOURCES as readonly string[]).includes(source);

export const creativeStatusRoutes = new Hono<AppEnv>()
  .post('/stats/creative-statuses', requireAuth, async (c) => {
    const input = parseInput(creativeStatusesSchema, await readBody(c), ['campaignId', 'targets']);
    const user = c.get('user');
    const campaign = await campaignForUser(c.env, user, input.campaignId);
    const answer = (a: Omit<CreativeStatusesAnswer, 'message'> & { message?: string }) =>
      c.json({ data: { message: '', ...a } satisfies CreativeStatusesAnswer });
    if (campaign.trafficSource === 'liveintent') {
      try {
        const ctx = await liveIntentContext(c.env, user, campaign.id, c.req.url);
        return answer({
          kind: 'liveintent',
          available: true,
          creatives: await creativeStatuses(ctx, input.targets),
        });
      } catch (err) {
        // Not allowed here (403) or not connected (409): the rows show no switch, and say why.
        if (err instanceof ApiError && (err.status === 403 || err.status === 409))
          return answer({ kind: 'liveintent', available: false, message: err.message, creatives: [] });
        throw err;
      }
    }
    if (isCpc(campaign.trafficSource)) {
      const providerId = await providerCampaignId(c.env, campaign.id);
      if (!providerId)
        return answer({ kind: 'external', available: false, message: CM.noProviderCampaign, creatives: [] });
      const creatives = await externalCreativeStatuses(c.env, providerId, input.targets);
      return answer({ kind: 'external', available: true, creatives });
    }
    if (campaign.trafficSource === 'blaze') {
      const creatives = await bannerCreativeStatuses(c.env, campaign.id, input.targets);
      return answer({ kind: 'blaze', available: true, creatives });
    }
    return answer({ kind: 'none', available: false, creatives: [] });
  })
  .post('/jeeng/set-ad-status', requireAuth, async (c) => {
    const input = parseInput(jeengAdStatusSchema, await readBody(c), JEENG_AD_STATUS_ORDER);
    const campaign = await cpcCampaignForUser(c.env, c.get('user'), input.campaign_id);
    const creative = await setExternalAdStatus(c.env, campaign.id, input.ad_id, input.status);
    const row = await trafficRow(c.env, campaign.id);
    const campaignRow = row ? jeengCampaign(row, (await assetRows(c.env, campaign.id)).length) : null;
    return c.json({
      data: { message: CM.adStatusChanged, campaign: campaignRow, creative } satisfies JeengAdStatusAnswer,
    });
  });
