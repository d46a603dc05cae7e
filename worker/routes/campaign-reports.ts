import { Hono } from 'hono';
import {
  CAMPAIGN_REPORT_FIELD_ORDER,
  type CampaignReportAnswer,
  campaignReportSchema,
  LINK_PIXEL_MESSAGES,
  type LinkPixelAnswer,
  linkPixelQuerySchema,
} from '../../schema/campaign-reports-api';
import type { AppEnv } from '../env';
import { anyRole, requireAuth } from '../lib/auth';
import { parseInput, readBody } from '../lib/validate';
import { campaignForUser, campaignLinkPixel } from '../services/campaigns';
import { campaignReport } from '../services/statistics';
import { toStatsCampaign } from '../services/statistics/stats-jobs';

// Spec 1 §7: POST api/reports and the resource paths linkpixel and add-linkpixel
// (docs/decisions/173-reports-and-link-pixel-paths.md). Every role may call them; a student
// reaches only their own campaigns (services/campaigns/access.ts answers 404 otherwise).

export const campaignReportRoutes = new Hono<AppEnv>()
  .post('/reports', requireAuth, anyRole, async (c) => {
    const input = parseInput(campaignReportSchema, await readBody(c), CAMPAIGN_REPORT_FIELD_ORDER);
    const row = await campaignForUser(c.env, c.get('user'), input.campaignId);
    const answer = await campaignReport(c.env, toStatsCampaign(row), input.start_date, input.end_date);
    return c.json({ data: answer satisfies CampaignReportAnswer });
  })
  .get('/linkpixel', requireAuth, anyRole, async (c) => {
    const { campaignId } = parseInput(linkPixelQuerySchema, c.req.query());
    const linkpixel = await campaignLinkPixel(c.env, c.get('user'), campaignId, new URL(c.req.url).origin);
    return c.json({ data: { campaignId, linkpixel } satisfies LinkPixelAnswer });
  })
  // The links are derived from the settings and the campaign, never stored: "adding" them answers
  // the links as they stand, so a client of the original path gets what it would have saved.
  .post('/add-linkpixel', requireAuth, anyRole, async (c) => {
    const { campaignId } = parseInput(linkPixelQuerySchema, await readBody(c));
    const linkpixel = await campaignLinkPixel(c.env, c.get('user'), campaignId, new URL(c.req.url).origin);
    return c.json({
      data: { campaignId, linkpixel, message: LINK_PIXEL_MESSAGES.derived } satisfies LinkPixelAnswer,
    });
  });
