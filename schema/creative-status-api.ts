import { z } from 'zod';
import type { JeengCampaign } from './traffic-api';
import { requiredString } from './validators';

// The creative status of the statistics screen's target rows (spec 3 §4, §7, §8; issue 13 item 5;
// docs/decisions/093 and 094). A LiveIntent campaign's target is a creative: its switch links or
// unlinks the creative and a line item. A CPC campaign's target is an ad at the provider: its
// switch pauses or runs the ad, once the campaign has a campaign at the provider.

export const CREATIVE_MESSAGES = {
  noLineItems: 'No Lineitems Found',
  unableToLink: 'Unable to link or unlink creative',
  lineItemDeleted: 'Unable to link or unlink creative: the lineitem linked to this creative is deleted',
  adStatusChanged: 'Ad status changed successfully',
  lineItemNotOffered: 'This line item is not one of the creative’s campaign line items.',
  noProviderCampaign:
    'This campaign has no campaign at the traffic provider yet. Submit it on the Traffic tab first.',
  providerFailed: 'The traffic provider could not change the ad status. Please try again.',
  tooManyTargets: 'Ask for at most 200 targets at a time.',
} as const;

const M = CREATIVE_MESSAGES;

/** Line-item statuses that shade a target row pink (spec 3 §4), with a removed creative. */
export const ALERT_LINE_ITEM_STATUSES = ['paused', 'deleted'] as const;

export type LineItemLink = {
  refId: string;
  name: string;
  /** The line item's status on the platform: active, paused or deleted. */
  status: string;
  /** Whether the creative is linked to this line item. */
  linked: boolean;
};

/** One target row's creative, in the fields of spec 3 §3's target row. */
export type CreativeStatus = {
  target: string;
  /** The switch: the creative runs (linked to a line item that is not deleted, or an ad not paused). */
  creative_status: boolean;
  /** The platform's creative (LiveIntent refId) or ad id; '' when the target names none. */
  creative_id: string;
  /** False when the creative or ad was removed (the row is pink and shows no switch). */
  CREATIVEID_exist: boolean;
  /** The status of the line item the creative runs in (paused or deleted shade the row). */
  LINEITEM_status: string;
  lineitem_statuses: LineItemLink[];
  /** The ad at the platform (spec 3 §3 ad_id and ADID): the creative, the provider's ad, the banner at Blaze. */
  ad_id?: string;
  ADID?: string;
  /** Blaze: the banner's id here (what api/blaze/save-banner's ids[] take) and a link to its image. */
  BANNER?: string;
  banner_url?: string;
};

/** A target that names none of the campaign's creatives: no switch to act on. */
export const noCreative = (target: string): CreativeStatus => ({
  target,
  creative_status: false,
  creative_id: '',
  CREATIVEID_exist: true,
  LINEITEM_status: '',
  lineitem_statuses: [],
});

/**
 * `kind` names the variant: liveintent (line items), external (CPC provider ads), blaze (the
 * campaign's banners, switched by api/blaze/save-banner; docs/decisions/170) or none (the
 * campaign's source has no creative switch). `available` false carries why in `message`.
 */
export type CreativeStatusesAnswer = {
  kind: 'liveintent' | 'external' | 'blaze' | 'none';
  available: boolean;
  message: string;
  creatives: CreativeStatus[];
};

export type ToggleStatsAdAnswer = { message: string; creative: CreativeStatus };
export type JeengAdStatusAnswer = {
  message: string;
  campaign: JeengCampaign | null;
  creative: CreativeStatus;
};

const positiveId = (field: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: `${field} is required.` })
      .int()
      .positive(`${field} is required.`),
  );
const flag = z.preprocess((v) => v === true || v === 1 || v === '1' || v === 'true', z.boolean());

export const creativeStatusesSchema = z.object({
  campaignId: positiveId('Campaign'),
  targets: z.array(z.string().max(255)).max(200, M.tooManyTargets),
});

export const toggleStatsAdSchema = z.object({
  campaignId: positiveId('Campaign'),
  adRefId: requiredString('Ad is required.', 64),
  liRefId: requiredString('Line item is required.', 64),
  status: flag,
  /** The target job the page shows (spec 3 §7); statuses are not kept in jobs, so it is unused. */
  currentUuid: z.string().max(64).optional(),
});
export const TOGGLE_STATS_AD_ORDER = ['campaignId', 'adRefId', 'liRefId', 'status'];

export const jeengAdStatusSchema = z.object({
  campaign_id: positiveId('Campaign'),
  ad_id: requiredString('Ad is required.', 255),
  status: z.preprocess(
    (v) => (typeof v === 'number' || typeof v === 'boolean' ? String(Number(v)) : v),
    z.enum(['1', '0'], { error: 'Status must be 1 or 0.' }),
  ),
});
export const JEENG_AD_STATUS_ORDER = ['campaign_id', 'ad_id', 'status'];
