import { z } from 'zod';

// The campaign editor's LiveIntent campaign and line item lists (spec 2 §3, §5, §9; issue 13;
// docs/decisions/092). They travel with PUT edit-campaign as `liCampaigns` and `liLineItems`;
// the rules are checked on the whole lists, so the screen and the server give the same messages.

export const LI_LIST_MESSAGES = {
  campaignIdRequired: 'Campaign ID is required.',
  campaignIdNumeric: 'Campaign ID should be numeric.',
  campaignIdDuplicate: 'Campaign ID already exist in the LiveIntent Campaign List.',
  lineItemIdRequired: 'Line Item ID is required.',
  lineItemIdNumeric: 'Line Item ID should be numeric.',
  lineItemIdDuplicate: 'Line Item ID already exist in the LiveIntent Line Item List.',
  parentMissing: 'Campaign ID does not exist in the LiveIntent Campaign List.',
  budgetRequired: 'Daily budget is required.',
  budgetFormat: 'Daily budget must be a positive number with up to 2 decimals.',
  budgetMinimum: 'Daily budget must be at least $1.00.',
} as const;

const M = LI_LIST_MESSAGES;
/** Spec 2 §9: the minimum LiveIntent line item daily budget, in dollars. */
const LI_MIN_DAILY_BUDGET = 1;

const text = (max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v),
    z.string().trim().max(max),
  );
const flag = z.preprocess(
  (v) => (v === true || v === 1 || v === '1' ? 1 : 0),
  z.union([z.literal(0), z.literal(1)]),
);

export const liCampaignEntry = z.object({
  id: z.number().int().optional(),
  liCampaignId: text(30),
  liCampaignName: text(120).default(''),
  deleted: flag.default(0),
});
export const liLineItemEntry = z.object({
  id: z.number().int().optional(),
  liLineItemId: text(30),
  liLineItemName: text(120).default(''),
  liDailyBudget: text(20),
  liCampaignId: text(30),
  status: flag.default(0),
  deleted: flag.default(0),
});
export type LiCampaignEntry = z.output<typeof liCampaignEntry>;
export type LiLineItemEntry = z.output<typeof liLineItemEntry>;

const NUMERIC = /^\d+$/;
const BUDGET = /^\d+(\.\d{1,2})?$/;

type Ctx = z.RefinementCtx;
const issue = (ctx: Ctx, path: (string | number)[], message: string) =>
  ctx.addIssue({ code: 'custom', path, message });

/** The list rules; `ctx` paths are liCampaigns.N.field and liLineItems.N.field. */
export function liveIntentListRules(
  v: { liCampaigns?: LiCampaignEntry[]; liLineItems?: LiLineItemEntry[] },
  ctx: Ctx,
) {
  const seenCampaigns = new Set<string>();
  (v.liCampaigns ?? []).forEach((c, i) => {
    if (c.deleted) return;
    if (!c.liCampaignId) issue(ctx, ['liCampaigns', i, 'liCampaignId'], M.campaignIdRequired);
    else if (!NUMERIC.test(c.liCampaignId))
      issue(ctx, ['liCampaigns', i, 'liCampaignId'], M.campaignIdNumeric);
    else if (seenCampaigns.has(c.liCampaignId))
      issue(ctx, ['liCampaigns', i, 'liCampaignId'], M.campaignIdDuplicate);
    seenCampaigns.add(c.liCampaignId);
  });
  const seenItems = new Set<string>();
  (v.liLineItems ?? []).forEach((l, i) => {
    if (l.deleted) return;
    const at = (field: string) => ['liLineItems', i, field];
    if (!l.liLineItemId) issue(ctx, at('liLineItemId'), M.lineItemIdRequired);
    else if (!NUMERIC.test(l.liLineItemId)) issue(ctx, at('liLineItemId'), M.lineItemIdNumeric);
    else if (seenItems.has(l.liLineItemId)) issue(ctx, at('liLineItemId'), M.lineItemIdDuplicate);
    seenItems.add(l.liLineItemId);
    if (!l.liCampaignId) issue(ctx, at('liCampaignId'), M.campaignIdRequired);
    else if (!NUMERIC.test(l.liCampaignId)) issue(ctx, at('liCampaignId'), M.campaignIdNumeric);
    else if (!seenCampaigns.has(l.liCampaignId)) issue(ctx, at('liCampaignId'), M.parentMissing);
    if (!l.liDailyBudget) issue(ctx, at('liDailyBudget'), M.budgetRequired);
    else if (!BUDGET.test(l.liDailyBudget)) issue(ctx, at('liDailyBudget'), M.budgetFormat);
    else if (Number(l.liDailyBudget) < LI_MIN_DAILY_BUDGET) issue(ctx, at('liDailyBudget'), M.budgetMinimum);
  });
}

/** What GET campaign answers for the lists (the non-deleted entries; budget in dollars). */
export type LiCampaignListItem = {
  id: number;
  liCampaignId: string;
  liCampaignName: string;
  deleted: number;
};
export type LiLineItemListItem = {
  id: number;
  liLineItemId: string;
  liLineItemName: string;
  liDailyBudget: number;
  liCampaignId: string;
  status: number;
  deleted: number;
};
