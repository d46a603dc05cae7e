import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { MONEY_MESSAGES as M, WALLETS } from '../../schema/money-api';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { dbValue } from '../factories/db';
import { setupInstallation, studentOf, userWithRole } from '../factories/install';

// Wallets, adjustments and rotator funding (spec 4 §7, spec 2 §7; docs/decisions/050, 051).

let admin: string;
let coach: Awaited<ReturnType<typeof userWithRole>>;
let admin2: Awaited<ReturnType<typeof userWithRole>>;

beforeAll(async () => {
  admin = await setupInstallation();
  coach = await userWithRole(admin, 'coach');
  admin2 = await userWithRole(admin, 'admin');
});

const update = (token: string, body: Record<string, unknown>) => api('/api/update-balance', { token, body });
const balance = (token: string, body: Record<string, unknown> = {}) =>
  api('/api/get-balance', { token, body });

const ledgerSum = (userId: number, wallet: string) =>
  dbValue(
    'SELECT COALESCE(SUM(amount_micros), 0) n FROM wallet_ledger WHERE user_id = ?1 AND wallet = ?2 AND offer_id IS NULL',
    userId,
    wallet,
  );

describe('get-balance', () => {
  it('answers the caller its own six wallets, formatted, with an empty log', async () => {
    const student = await studentOf(admin, coach);
    const res = await balance(student.token);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.user.id).toBe(student.id);
    for (const w of WALLETS) {
      expect(data.balance[w]).toBe(0);
      expect(data.balance[`${w}Formatted`]).toBe('$0.00');
      expect(data.disabled[w]).toBe(false);
    }
    expect(data.balanceLogs).toEqual([]);
    expect(data.pagination).toEqual({ currentPage: 1, perPage: 10, total: 0, lastPage: 1 });
    expect(data.headerBalance).toBe(true);
    expect(data.minimumBalance).toBe(1500);
  });

  it("lets a coach read a student's wallets and refuses a student another's (403)", async () => {
    const a = await studentOf(admin, coach);
    const b = await userWithRole(admin, 'student');
    expect((await balance(coach.token, { userId: a.id })).body.data.user.id).toBe(a.id);
    const refused = await balance(b.token, { userId: a.id });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('This action is unauthorized.');
    const unknown = await balance(coach.token, { userId: 999999 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.userId).toEqual([M.userInvalid]);
    expect((await api('/api/get-balance', { body: {} })).status).toBe(401);
  });
});

describe('update-balance', () => {
  it('books per-wallet amounts with notes, the caller as author, and answers the new balance', async () => {
    const student = await studentOf(admin, coach);
    const res = await update(coach.token, {
      userId: student.id,
      liveintent: '1500',
      liveintentNote: 'Initial deposit',
      blaze: '-12.5',
      blazeNote: 'Refund',
      cpc: '',
      dsp: 7,
      mediago: '0.1',
      role: 'admin', // the client's claim is ignored: the server books the caller's real role
      addedByName: 'Coach Carter',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Balance is successfully updated.');
    expect(res.body.data.status).toBe(true);
    expect(res.body.data.applied).toBe(true);
    expect(res.body.data.balance).toMatchObject({
      liveintent: 1500,
      liveintentFormatted: '$1,500.00',
      blaze: -12.5,
      blazeFormatted: '-$12.50',
      cpc: 0,
      dsp: 7,
      mediago: 0.1,
      mediagoFormatted: '$0.10',
    });
    const entries = res.body.data.entries;
    expect(entries.map((e: any) => e.platform)).toEqual(['liveintent', 'blaze', 'dsp', 'mediago']);
    expect(entries[0]).toMatchObject({
      amount: 1500,
      note: 'Initial deposit',
      role: 'coach',
      addedByName: 'Coach Carter',
    });

    const read = await balance(student.token, { perPage: 2 });
    expect(read.body.data.balance.liveintentFormatted).toBe('$1,500.00');
    // Newest first, paged.
    expect(read.body.data.balanceLogs.map((l: any) => l.platform)).toEqual(['mediago', 'dsp']);
    expect(read.body.data.pagination).toEqual({ currentPage: 1, perPage: 2, total: 4, lastPage: 2 });
    const page2 = await balance(student.token, { perPage: 2, page: 2 });
    expect(page2.body.data.balanceLogs.map((l: any) => l.platform)).toEqual(['blaze', 'liveintent']);
  });

  it('refuses a student (403) whatever the payload says, and writes nothing', async () => {
    const victim = await userWithRole(admin, 'student');
    const student = await studentOf(admin, coach);
    for (const body of [
      { userId: victim.id, liveintent: '100', role: 'admin' },
      { liveintent: '100', role: 'coach' },
    ]) {
      const res = await update(student.token, body);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('This action is unauthorized.');
    }
    expect(await ledgerSum(victim.id, 'liveintent')).toBe(0);
    expect(await ledgerSum(student.id, 'liveintent')).toBe(0);
  });

  it("checks every amount: '' is 0, '-12.5' is allowed, '1e3', 'abc' and '12.345' mark their field", async () => {
    const student = await studentOf(admin, coach);
    const bad = await update(coach.token, {
      userId: student.id,
      liveintent: 'abc',
      blaze: '1e3',
      cpc: '12.345',
      dsp: '-12.5',
      mediago: '',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      liveintent: [M.amountInvalid],
      blaze: [M.amountInvalid],
      cpc: [M.amountDecimals],
    });
    expect(bad.body.message).toBe(M.amountInvalid);
    expect(await ledgerSum(student.id, 'dsp')).toBe(0); // nothing half-written

    const huge = await update(coach.token, { userId: student.id, liveintent: '1000000000.01' });
    expect(huge.body.errors.liveintent).toEqual([M.amountTooLarge]);

    const blank = await update(coach.token, { userId: student.id, liveintent: '', blaze: '  ' });
    expect(blank.status).toBe(422);
    expect(blank.body.message).toBe(M.nothingToUpdate);

    const ok = await update(coach.token, { userId: student.id, dsp: '-12.5', cpc: '12.34' });
    expect(ok.status).toBe(200);
    expect(await ledgerSum(student.id, 'dsp')).toBe(-12_500_000);
    expect(await ledgerSum(student.id, 'cpc')).toBe(12_340_000);
  });

  it('applies a request retried with the same idempotency key once, and answers the booked entries', async () => {
    const student = await studentOf(admin, coach);
    const body = { userId: student.id, liveintent: '250', idempotencyKey: `retry-${student.id}-abcdef` };
    const first = await update(coach.token, body);
    const again = await update(coach.token, body);
    expect(first.body.data.applied).toBe(true);
    expect(again.status).toBe(200);
    expect(again.body.data.applied).toBe(false);
    expect(again.body.data.entries.map((e: any) => e.id)).toEqual(
      first.body.data.entries.map((e: any) => e.id),
    );
    expect(again.body.data.balance.liveintent).toBe(250);
    expect(await ledgerSum(student.id, 'liveintent')).toBe(250_000_000);
    const reused = await update(coach.token, { ...body, liveintent: '300' });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe(M.keyReused);
    expect(await ledgerSum(student.id, 'liveintent')).toBe(250_000_000);
  });

  it('lands 20 concurrent adjustments by a coach and an admin exactly, and every balance equals its ledger sum', async () => {
    const student = await studentOf(admin, coach);
    const amounts = Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? `-${i + 1}.25` : `${i + 1}.10`));
    const answers = await Promise.all(
      amounts.map((amount, i) =>
        update(i % 2 ? coach.token : admin2.token, { userId: student.id, blaze: amount, cpc: '1.01' }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(amounts.map(() => 200));
    const expected = amounts.reduce((sum, a) => sum + Math.round(Number(a) * 100) * 10_000, 0);
    expect(await ledgerSum(student.id, 'blaze')).toBe(expected);
    expect(await ledgerSum(student.id, 'cpc')).toBe(20 * 1_010_000);
    const shown = (await balance(coach.token, { userId: student.id })).body.data;
    for (const w of WALLETS) expect(Math.round(shown.balance[w] * 1e6)).toBe(await ledgerSum(student.id, w));
    expect(shown.pagination.total).toBe(40);
  });

  it('refuses a disabled wallet, which get-balance reports', async () => {
    const student = await studentOf(admin, coach);
    const set = await api('/api/balance-settings', {
      method: 'PUT',
      token: admin,
      body: { userId: student.id, disabled: { mediago: true } },
    });
    expect(set.status).toBe(200);
    expect((await balance(student.token)).body.data.disabled.mediago).toBe(true);
    const res = await update(coach.token, { userId: student.id, mediago: '10', cpc: '5' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ mediago: [M.walletDisabled] });
    expect(await ledgerSum(student.id, 'cpc')).toBe(0);
    const coachSet = await api('/api/balance-settings', {
      method: 'PUT',
      token: coach.token,
      body: { headerBalance: false },
    });
    expect(coachSet.status).toBe(403);
  });
});

describe('rotator funding', () => {
  async function rotatorStudent() {
    const student = await studentOf(admin, coach);
    await env.DB.prepare('UPDATE users SET rotator_is_enabled = 1 WHERE id = ?1').bind(student.id).run();
    const campaignId = await makeCampaign(student.token, { name: 'Rotator R', campaignType: 'rotator' });
    const offerId = await makeOffer(student.token, campaignId, {
      name: 'Participant A',
      rotator_participant_email: 'alice@example.com',
    });
    await update(coach.token, { userId: student.id, liveintent: '100' });
    return { student, campaignId, offerId };
  }
  const fund = (token: string, campaignId: number, body: Record<string, unknown>) =>
    api(`/api/rotators/${campaignId}/fund`, { token, body });

  it('is refused (403) without rotator_is_enabled, which an admin sets', async () => {
    const student = await studentOf(admin, coach);
    const byCoach = await api('/api/balance-settings', {
      method: 'PUT',
      token: coach.token,
      body: { userId: student.id, rotatorEnabled: true },
    });
    expect(byCoach.status).toBe(403);
    for (const res of [
      await api('/api/rotators', { token: student.token }),
      await fund(student.token, 1, { offerId: 1, amount: '5', wallet: 'liveintent' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(M.rotatorDisabled);
    }
    const set = await api('/api/balance-settings', {
      method: 'PUT',
      token: admin,
      body: { userId: student.id, rotatorEnabled: true },
    });
    expect(set.status).toBe(200);
    expect((await api('/api/user', { token: student.token })).body.data.user.rotator_is_enabled).toBe(true);
    expect((await api('/api/rotators', { token: student.token })).body.data.result).toEqual([]);
    const listed = await api('/api/balance-users', { token: coach.token });
    expect(listed.body.data.result.find((u: any) => u.id === student.id)).toMatchObject({
      username: student.username,
      role: 'student|Student',
      rotator_is_enabled: true,
    });
    expect((await api('/api/balance-users', { token: student.token })).status).toBe(403);
  });

  it('lists rotators and their offers with the funding, and moves money wallet -> offer', async () => {
    const { student, campaignId, offerId } = await rotatorStudent();
    await makeCampaign(student.token, { name: 'Not a rotator' });
    const list = await api('/api/rotators?campaignType=rotator', { token: student.token });
    expect(list.body.data.result).toEqual([
      { campaignId, name: 'Rotator R', active: 1, campaignType: 'rotator' },
    ]);

    const res = await fund(student.token, campaignId, { offerId, amount: '40.50', wallet: 'liveintent' });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Rotator funded successfully.');
    expect(res.body.data.funding).toEqual({ id: offerId, amount: 40.5, amountFormatted: '$40.50' });
    expect(res.body.data.balance.liveintent).toBe(59.5);

    const offers = await api(`/api/rotators/${campaignId}/offers`, { token: student.token });
    expect(offers.body.data.result[0]).toMatchObject({
      offerPageId: offerId,
      rotator_participant_email: 'alice@example.com',
      rotator_funding: { id: offerId, amount: 40.5, amountFormatted: '$40.50' },
    });
    // The log lists the wallets only: the funding is the LiveIntent row, typed rotator funding;
    // the offer's credit shows as its funding above, never as a "rotator" wallet (issue 27).
    const logs = (await balance(student.token)).body.data.balanceLogs;
    expect(logs.map((l: any) => l.platform)).not.toContain('rotator');
    expect(logs[0]).toMatchObject({
      platform: 'liveintent',
      amount: -40.5,
      amountFormatted: '-$40.50',
      cause: 'rotator_funding',
      note: `Rotator funding: Rotator R / ${offers.body.data.result[0].name}`,
    });
  });

  it('refuses more than the wallet holds, a foreign offer and bad fields, moving nothing', async () => {
    const { student, campaignId, offerId } = await rotatorStudent();
    const tooMuch = await fund(student.token, campaignId, {
      offerId,
      amount: '100.01',
      wallet: 'liveintent',
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.amount).toEqual([M.insufficient]);
    const other = await rotatorStudent();
    const foreign = await fund(student.token, campaignId, {
      offerId: other.offerId,
      amount: '1',
      wallet: 'liveintent',
    });
    expect(foreign.body.errors.offerId).toEqual([M.offerRequired]);
    const notMine = await fund(student.token, other.campaignId, {
      offerId: other.offerId,
      amount: '1',
      wallet: 'liveintent',
    });
    expect(notMine.status).toBe(404);
    const bad = await fund(student.token, campaignId, { offerId, amount: '-5', wallet: 'wallet' });
    expect(bad.body.errors).toEqual({ amount: [M.fundAmountPositive], wallet: [M.walletRequired] });
    expect(await ledgerSum(student.id, 'liveintent')).toBe(100_000_000);
  });

  it('is atomic: a failure of the second entry leaves neither', async () => {
    const { student, campaignId, offerId } = await rotatorStudent();
    const key = `atomic-${student.id}-key`;
    // An entry that already holds the credit's key makes the second statement of the batch fail.
    await env.DB.prepare(
      `INSERT INTO wallet_ledger (user_id, wallet, offer_id, amount_micros, cause, idempotency_key)
       VALUES (?1, 'rotator', 999999, 1, 'rotator_funding', ?2)`,
    )
      .bind(student.id, `fund:${key}:credit`)
      .run();
    const res = await fund(student.token, campaignId, {
      offerId,
      amount: '30',
      wallet: 'liveintent',
      idempotencyKey: key,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(M.fundingFailed);
    const debit = await env.DB.prepare('SELECT COUNT(*) AS n FROM wallet_ledger WHERE idempotency_key = ?1')
      .bind(`fund:${key}:debit`)
      .first<{ n: number }>();
    expect(debit!.n).toBe(0);
    expect(await ledgerSum(student.id, 'liveintent')).toBe(100_000_000);
  });

  it('books a retried funding once', async () => {
    const { student, campaignId, offerId } = await rotatorStudent();
    const body = { offerId, amount: '25', wallet: 'liveintent', idempotencyKey: `fund-retry-${student.id}` };
    const [a, b] = await Promise.all([
      fund(student.token, campaignId, body),
      fund(student.token, campaignId, body),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.data.applied, b.body.data.applied].sort()).toEqual([false, true]);
    const again = await fund(student.token, campaignId, body);
    expect(again.body.data.funding.amount).toBe(25);
    expect(await ledgerSum(student.id, 'liveintent')).toBe(75_000_000);
  });
});
