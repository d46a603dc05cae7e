import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { LI_LIST_MESSAGES as M } from '../../schema/liveintent-lists';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';

// The campaign editor's LiveIntent campaign and line item lists (issue 13, spec 2 §3, §5, §9):
// saved with PUT edit-campaign, answered by GET campaign, every rule in its words.

let token: string;

beforeAll(async () => {
  token = await setupInstallation();
});

const edit = (campaignId: number, lists: Record<string, unknown>) =>
  api('/api/edit-campaign', {
    method: 'PUT',
    token,
    body: { campaignId, name: 'Native lists', trafficSource: 'liveintent', ...lists },
  });
const detail = async (id: number) => (await api(`/api/campaign?campaignId=${id}`, { token })).body.data;

const lineItem = (over: Record<string, unknown> = {}) => ({
  liLineItemId: '9001',
  liLineItemName: 'Morning',
  liDailyBudget: '25.50',
  liCampaignId: '5001',
  ...over,
});
/** Both lists: platform campaign 5001 and one line item of it. */
const underCampaign = (over: Record<string, unknown>) => ({
  liCampaigns: [{ liCampaignId: '5001' }],
  liLineItems: [lineItem(over)],
});

describe('the editor LiveIntent lists', () => {
  it('saves both lists with the campaign and answers them with the campaign', async () => {
    const id = await makeCampaign(token, { name: 'Native lists', trafficSource: 'liveintent' });
    const saved = await edit(id, {
      liCampaigns: [
        { liCampaignId: '5001', liCampaignName: 'Spring' },
        { liCampaignId: '5002', liCampaignName: 'Old', deleted: 1 },
      ],
      liLineItems: [lineItem(), lineItem({ liLineItemId: '9002', liDailyBudget: '1', status: 1 })],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const d = await detail(id);
    expect(d.liCampaigns).toEqual([
      { id: expect.any(Number), liCampaignId: '5001', liCampaignName: 'Spring', deleted: 0 },
    ]);
    expect(d.liLineItems).toEqual([
      {
        id: expect.any(Number),
        liLineItemId: '9001',
        liLineItemName: 'Morning',
        liDailyBudget: 25.5,
        liCampaignId: '5001',
        status: 0,
        deleted: 0,
      },
      expect.objectContaining({ liLineItemId: '9002', liDailyBudget: 1, status: 1 }),
    ]);
    const micros = await env.DB.prepare(
      'SELECT li_daily_budget_micros AS m FROM li_lineitem_list WHERE campaign_id = ?1 ORDER BY id',
    )
      .bind(id)
      .all<{ m: number }>();
    expect(micros.results.map((r) => r.m)).toEqual([25_500_000, 1_000_000]);

    // An edit without the lists keeps them.
    expect((await edit(id, {})).status).toBe(200);
    expect((await detail(id)).liLineItems).toHaveLength(2);
  });

  it.each([
    [{ liCampaigns: [{ liCampaignId: '' }] }, 'liCampaigns.0.liCampaignId', M.campaignIdRequired],
    [{ liCampaigns: [{ liCampaignId: '12a' }] }, 'liCampaigns.0.liCampaignId', M.campaignIdNumeric],
    [
      { liCampaigns: [{ liCampaignId: '7' }, { liCampaignId: '7' }] },
      'liCampaigns.1.liCampaignId',
      M.campaignIdDuplicate,
    ],
    [
      { liCampaigns: [{ liCampaignId: '7' }], liLineItems: [lineItem({ liCampaignId: '8' })] },
      'liLineItems.0.liCampaignId',
      M.parentMissing,
    ],
    [underCampaign({ liLineItemId: 'x' }), 'liLineItems.0.liLineItemId', M.lineItemIdNumeric],
    [underCampaign({ liDailyBudget: '0.99' }), 'liLineItems.0.liDailyBudget', M.budgetMinimum],
    [underCampaign({ liDailyBudget: '2.505' }), 'liLineItems.0.liDailyBudget', M.budgetFormat],
    [underCampaign({ liDailyBudget: '' }), 'liLineItems.0.liDailyBudget', M.budgetRequired],
  ])('refuses %j with the spec message and saves nothing', async (lists, field, message) => {
    const id = await makeCampaign(token, { name: 'Native lists', trafficSource: 'liveintent' });
    const res = await edit(id, { ...lists, name: 'Renamed' });
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toEqual([message]);
    const d = await detail(id);
    expect(d.name).toBe('Native lists');
    expect(d.liCampaigns).toEqual([]);
  });

  it('lets a deleted entry share an id with a live one', async () => {
    const id = await makeCampaign(token, { name: 'Native lists', trafficSource: 'liveintent' });
    const res = await edit(id, {
      liCampaigns: [
        { liCampaignId: '7', deleted: 1 },
        { liCampaignId: '7', liCampaignName: 'Again' },
      ],
    });
    expect(res.status).toBe(200);
    expect((await detail(id)).liCampaigns).toEqual([
      expect.objectContaining({ liCampaignId: '7', liCampaignName: 'Again' }),
    ]);
  });

  it('says whether the owner has LiveIntent balance (liBalanceNotZero)', async () => {
    const id = await makeCampaign(token, { name: 'Native balance', trafficSource: 'liveintent' });
    expect((await detail(id)).liBalanceNotZero).toBe(false);
    const owner = await env.DB.prepare('SELECT created_by AS u FROM campaigns WHERE id = ?1')
      .bind(id)
      .first<{ u: number }>();
    await env.DB.prepare(
      "INSERT INTO wallet_ledger (user_id, wallet, amount_micros, cause, idempotency_key) VALUES (?1, 'liveintent', 5000000, 'adjustment', ?2)",
    )
      .bind(owner!.u, `li-test-${id}`)
      .run();
    expect((await detail(id)).liBalanceNotZero).toBe(true);
  });
});
