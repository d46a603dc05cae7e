import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayInZone } from '../../schema/dates';
import worker from '../../worker/index';
import { deductSpend, walletFor } from '../../worker/services/money/balance-job';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { dbValue } from '../factories/db';
import { setupInstallation, studentOf, userWithRole } from '../factories/install';

// The daily balance job (docs/decisions/052) and the statistics' studentBalanceError (spec 3).

let admin: string;
let today: string;

beforeAll(async () => {
  admin = await setupInstallation(); // America/New_York
  today = dayInZone(Date.now(), 'America/New_York');
});

async function cost(campaignId: number, day: string, target: string, spend: string) {
  const res = await api('/api/costs', {
    token: admin,
    body: { campaignId, date: day, target, impressions: 0, ad_clicks: 0, spend },
  });
  expect(res.status).toBe(200);
}

async function entries(campaignId: number) {
  const { results } = await env.DB.prepare(
    `SELECT wallet, day, amount_micros, note, user_id FROM wallet_ledger
     WHERE cause = 'platform_spend' AND ref_campaign_id = ?1 ORDER BY id`,
  )
    .bind(campaignId)
    .all<{ wallet: string; day: string; amount_micros: number; note: string; user_id: number }>();
  return results;
}

const walletSum = (userId: number, wallet: string) =>
  dbValue(
    'SELECT COALESCE(SUM(amount_micros), 0) n FROM wallet_ledger WHERE user_id = ?1 AND wallet = ?2',
    userId,
    wallet,
  );

describe('daily balance job', () => {
  it('maps traffic sources to wallets', () => {
    const meta = '{}';
    expect(walletFor({ trafficSource: 'liveintent', metainfo: meta })).toBe('liveintent');
    expect(walletFor({ trafficSource: 'trrcpc', metainfo: meta })).toBe('cpc');
    expect(walletFor({ trafficSource: 'crane', metainfo: meta })).toBe('cpc');
    expect(walletFor({ trafficSource: 'trrde', metainfo: meta })).toBe('dsp');
    expect(walletFor({ trafficSource: 'mediago', metainfo: meta })).toBe('mediago');
    expect(walletFor({ trafficSource: 'blaze', metainfo: meta })).toBe('blaze');
    expect(
      walletFor({
        trafficSource: 'blaze',
        metainfo: '{"blaze":{"current_placement_type":"DEDICATED_PLACEMENT"}}',
      }),
    ).toBe('blazeDedicated');
    expect(walletFor({ trafficSource: 'facebook', metainfo: meta })).toBeNull();
    expect(walletFor({ trafficSource: '', metainfo: meta })).toBeNull();
  });

  it("deducts each day's spend once from the owner's wallet, run twice or not, and books corrections as differences", async () => {
    const student = await userWithRole(admin, 'student');
    const campaignId = await makeCampaign(student.token, {
      name: 'LI campaign',
      trafficSource: 'liveintent',
    });
    const d2 = addDays(today, -2);
    const d3 = addDays(today, -3);
    await cost(campaignId, d2, 'creative-1', '30');
    await cost(campaignId, d2, 'creative-2', '20');
    await cost(campaignId, d3, 'creative-1', '12.34');

    const from = addDays(today, -7);
    const to = addDays(today, -1);
    expect(await deductSpend(env, from, to)).toBe(2);
    expect(await deductSpend(env, from, to)).toBe(0);
    // Two runs at the same moment book nothing twice either.
    await Promise.all([deductSpend(env, from, to), deductSpend(env, from, to)]);
    const booked = await entries(campaignId);
    expect(booked.map((e) => [e.wallet, e.day, e.amount_micros, e.user_id])).toEqual([
      ['liveintent', d3, -12_340_000, student.id],
      ['liveintent', d2, -50_000_000, student.id],
    ]);
    expect(booked[0].note).toMatch(/^Ad spend of campaign \d+ on \d{4}-\d{2}-\d{2}$/);
    expect(await walletSum(student.id, 'liveintent')).toBe(-62_340_000);

    // The platform revises day 2 upwards, then down: each run books the difference only.
    await cost(campaignId, d2, 'creative-2', '35');
    expect(await deductSpend(env, from, to)).toBe(1);
    expect(await walletSum(student.id, 'liveintent')).toBe(-77_340_000);
    await cost(campaignId, d2, 'creative-1', '10');
    expect(await deductSpend(env, from, to)).toBe(1);
    expect(await deductSpend(env, from, to)).toBe(0);
    const after = await entries(campaignId);
    expect(after.slice(2).map((e) => e.amount_micros)).toEqual([-15_000_000, 20_000_000]);
    expect(after[3].note).toContain('correction');
    expect(await walletSum(student.id, 'liveintent')).toBe(-57_340_000);

    // Deleting the campaign for good removes its costs, not what it spent.
    const gone = await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId, isPermanent: 1 },
    });
    expect(gone.status).toBe(200);
    expect(await deductSpend(env, from, to)).toBe(0);
    expect(await walletSum(student.id, 'liveintent')).toBe(-57_340_000);
  });

  it('runs from the cron handler on the first tick of an hour, for complete days only', async () => {
    const student = await userWithRole(admin, 'student');
    const campaignId = await makeCampaign(student.token, { name: 'MG campaign', trafficSource: 'mediago' });
    await cost(campaignId, addDays(today, -1), '', '8');
    await cost(campaignId, today, '', '99'); // today is not complete yet: left for tomorrow's run
    await cost(campaignId, addDays(today, -30), '', '5'); // outside the window

    const tick = async (scheduledTime: number) => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime, cron: '*/5 * * * *' }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    await tick(hour + 10 * 60_000); // minute 10: not this job's tick
    expect(await entries(campaignId)).toEqual([]);
    await tick(hour);
    await tick(hour);
    expect((await entries(campaignId)).map((e) => [e.wallet, e.amount_micros])).toEqual([
      ['mediago', -8_000_000],
    ]);
  });

  it("sets the statistics answer's studentBalanceError while the wallet is below the minimum", async () => {
    const coach = await userWithRole(admin, 'coach');
    const student = await studentOf(admin, coach);
    const li = await makeCampaign(student.token, { name: 'Needs LI wallet', trafficSource: 'liveintent' });
    const fb = await makeCampaign(student.token, { name: 'Own Taboola account', trafficSource: 'taboola' });
    const stats = async (campaignId: number) => {
      const res = await api('/api/statistics', {
        token: student.token,
        body: { campaignId, startDate: '', endDate: '' },
      });
      expect(res.status).toBe(200);
      return res.body.data.studentBalanceError;
    };
    expect(await stats(li)).toBe(true); // $0 < $1,500
    expect(await stats(fb)).toBe(false); // no wallet pays for Taboola
    await api('/api/update-balance', {
      token: coach.token,
      body: { userId: student.id, liveintent: '1500' },
    });
    expect(await stats(li)).toBe(false);
    const set = await api('/api/balance-settings', {
      method: 'PUT',
      token: admin,
      body: { minimumBalance: '2000.50' },
    });
    expect(set.body.data.minimumBalance).toBe(2000.5);
    expect(await stats(li)).toBe(true);
    await api('/api/balance-settings', { method: 'PUT', token: admin, body: { minimumBalance: '1500' } });
  });
});
