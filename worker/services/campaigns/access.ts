import { and, eq, sql } from 'drizzle-orm';
import { CAMPAIGN_MESSAGES as M } from '../../../schema/campaign-api';
import {
  campaigns,
  type extraTokens,
  type landingPages,
  type offerPages,
  type options,
  type paths,
} from '../../../schema/campaigns';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { ApiError, fieldError } from '../../lib/errors';

// Who may manage a campaign (docs/decisions/015-campaign-ownership.md): admins and coaches manage
// every campaign; a student manages the campaigns they created.

export type CampaignRow = typeof campaigns.$inferSelect;
export type LandingRow = typeof landingPages.$inferSelect;
export type OfferRow = typeof offerPages.$inferSelect;
export type PathRow = typeof paths.$inferSelect;
export type OptionRow = typeof options.$inferSelect;
export type TokenRow = typeof extraTokens.$inferSelect;

export function canSeeEveryCampaign(user: Pick<AuthUser, 'role'>): boolean {
  return user.role === 'admin' || user.role === 'coach';
}

/** The SQL condition limiting campaigns to those `user` may manage. */
export function ownedBy(user: Pick<AuthUser, 'id' | 'role'>) {
  return canSeeEveryCampaign(user) ? sql`1 = 1` : eq(campaigns.createdBy, user.id);
}

/**
 * A campaign `user` may manage, else 404 (a student never learns that another's campaign
 * exists). Deleted campaigns and folders are refused unless asked for.
 */
export async function campaignForUser(
  env: Env,
  user: AuthUser,
  id: number,
  { allowDeleted = false, allowFolder = false } = {},
): Promise<CampaignRow> {
  const row = await getDb(env)
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), ownedBy(user)))
    .get();
  if (!row || (!allowDeleted && row.deleted === 1) || (!allowFolder && row.isDir === 1)) {
    throw new ApiError(404, M.campaignNotFound);
  }
  return row;
}

/**
 * A direct-link campaign sends its visitors straight to an offer, so no landing page may be
 * added to it (docs/decisions/136-editor-tabs-at-once.md): a 422 on `campaignId`, before any write.
 */
export function refuseDirectLinkLandings(campaign: Pick<CampaignRow, 'campaignType'>) {
  if (campaign.campaignType === 'direct_link') throw fieldError('campaignId', M.directLinkNoLandings);
}
