import { z } from 'zod';
import type { LinkPixel } from './campaign-api';
import { requiredId } from './campaign-api';
import { MD_MESSAGES, withDateRange } from './masterdashboard-api';

// The calls of spec 1 §7 that answer one campaign's numbers and links outside the editor:
// POST /api/reports (form data start_date, end_date, campaignId) and the resource paths
// `linkpixel` and `add-linkpixel` (docs/decisions/173-reports-and-link-pixel-paths.md).

/** POST /api/reports: days yyyy-MM-dd, as the dashboard's other form-data calls. */
export const campaignReportSchema = withDateRange({ campaignId: requiredId(MD_MESSAGES.campaignRequired) });
export const CAMPAIGN_REPORT_FIELD_ORDER = ['campaignId', 'start_date', 'end_date'] as const;

/** One day of a campaign's report; money in micro-units (docs/decisions/010). */
export type CampaignReportNumbers = {
  visits: number;
  lpClicks: number;
  conversions: number;
  impressions: number;
  adClicks: number;
  revenueMicros: number;
  spendMicros: number;
};
export type CampaignReportAnswer = {
  campaignId: number;
  start_date: string;
  end_date: string;
  /** Every day of the range, oldest first (zeros when nothing happened). */
  reports: (CampaignReportNumbers & { date: string })[];
  total: CampaignReportNumbers;
};

export const linkPixelQuerySchema = z.object({ campaignId: requiredId(MD_MESSAGES.campaignRequired) });

/** GET /api/linkpixel and POST /api/add-linkpixel. */
export type LinkPixelAnswer = { campaignId: number; linkpixel: LinkPixel; message?: string };

export const LINK_PIXEL_MESSAGES = {
  derived: 'Links and pixels come from the settings: they are up to date.',
} as const;
