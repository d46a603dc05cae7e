import { asc, eq } from 'drizzle-orm';
import { liCampaignList, liLineItemList } from '../../../schema/liveintent';
import type {
  LiCampaignEntry,
  LiCampaignListItem,
  LiLineItemEntry,
  LiLineItemListItem,
} from '../../../schema/liveintent-lists';
import type { Env } from '../../env';
import { getDb } from '../../lib/db';
import { walletMicros } from '../money/ledger';

// The campaign editor's LiveIntent lists (spec 2; docs/decisions/092): saved with the campaign in
// one batch (the lists given replace the stored ones), answered with GET campaign.

const toMicros = (dollars: string) => Math.round(Number(dollars) * 100) * 10_000;

/** Statements that replace the lists given (an omitted list stays as it is). */
export function liveIntentListStatements(
  env: Env,
  campaignId: number,
  input: { liCampaigns?: LiCampaignEntry[]; liLineItems?: LiLineItemEntry[] },
) {
  const db = getDb(env);
  const out = [];
  if (input.liCampaigns) {
    out.push(db.delete(liCampaignList).where(eq(liCampaignList.campaignId, campaignId)));
    for (const c of input.liCampaigns.filter((e) => !e.deleted)) {
      out.push(
        db
          .insert(liCampaignList)
          .values({ campaignId, liCampaignId: c.liCampaignId, liCampaignName: c.liCampaignName }),
      );
    }
  }
  if (input.liLineItems) {
    out.push(db.delete(liLineItemList).where(eq(liLineItemList.campaignId, campaignId)));
    for (const l of input.liLineItems.filter((e) => !e.deleted)) {
      out.push(
        db.insert(liLineItemList).values({
          campaignId,
          liLineItemId: l.liLineItemId,
          liLineItemName: l.liLineItemName,
          liDailyBudgetMicros: toMicros(l.liDailyBudget),
          liCampaignId: l.liCampaignId,
          status: l.status,
        }),
      );
    }
  }
  return out;
}

export async function liveIntentLists(env: Env, campaignId: number, ownerId: number | null) {
  const db = getDb(env);
  const [campaignsRows, itemRows] = await db.batch([
    db
      .select()
      .from(liCampaignList)
      .where(eq(liCampaignList.campaignId, campaignId))
      .orderBy(asc(liCampaignList.id)),
    db
      .select()
      .from(liLineItemList)
      .where(eq(liLineItemList.campaignId, campaignId))
      .orderBy(asc(liLineItemList.id)),
  ]);
  const liCampaigns: LiCampaignListItem[] = campaignsRows.map((r) => ({
    id: r.id,
    liCampaignId: r.liCampaignId,
    liCampaignName: r.liCampaignName,
    deleted: r.deleted,
  }));
  const liLineItems: LiLineItemListItem[] = itemRows.map((r) => ({
    id: r.id,
    liLineItemId: r.liLineItemId,
    liLineItemName: r.liLineItemName,
    liDailyBudget: r.liDailyBudgetMicros / 1_000_000,
    liCampaignId: r.liCampaignId,
    status: r.status,
    deleted: r.deleted,
  }));
  const liBalanceNotZero = ownerId !== null && (await walletMicros(env, ownerId)).liveintent > 0;
  return { liCampaigns, liLineItems, liBalanceNotZero };
}
