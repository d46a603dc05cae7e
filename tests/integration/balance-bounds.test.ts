import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { toMicros } from '../../schema/money';
import { MONEY_MESSAGES as M } from '../../schema/money-api';
import { api } from '../factories/api';
import { setupInstallation, userWithRole } from '../factories/install';

// Issue 24, item 6: a balance above 2^53 micro-units drifted in the numeric field. Amounts and
// balances are bounded at one billion (10^15 micros, docs/decisions/125), so every balance the
// answers carry as a number is exact; a credit that would leave the range is a 422.

const admin = await setupInstallation();

const update = (body: Record<string, unknown>) => api('/api/update-balance', { token: admin, body });
const ledgerRows = async (userId: number) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM wallet_ledger WHERE user_id = ?1')
    .bind(userId)
    .first<{ n: number }>())!.n;

/**
 * A balance booked two days ago, outside the 24-hour credit limit's window (decision 124): the
 * limit caps what one day may add, so a balance near the bound is set up as history.
 */
async function bookedLongAgo(userId: number, wallet: string, micros: number) {
  await env.DB.prepare(
    `INSERT INTO wallet_ledger (user_id, wallet, amount_micros, note, cause, idempotency_key, created_at)
     VALUES (?1, ?2, ?3, 'history', 'adjustment', ?4, ?5)`,
  )
    .bind(userId, wallet, micros, `history:${userId}:${wallet}`, Date.now() - 2 * 86_400_000)
    .run();
}

describe('wallet balances stay within one billion', () => {
  it('books a balance of exactly 1,000,000,000 and answers it exactly', async () => {
    const student = await userWithRole(admin, 'student');
    await bookedLongAgo(student.id, 'cpc', 999_999_990_000_000);
    const res = await update({ userId: student.id, cpc: '9.99' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const top = await update({ userId: student.id, cpc: '0.01' });
    expect(top.status).toBe(200);
    expect(top.body.data.balance.cpc).toBe(1_000_000_000);
    expect(top.body.data.balance.cpcFormatted).toBe('$1,000,000,000.00');
  });

  it('refuses the cent above the bound with 422 on that wallet, and books nothing', async () => {
    const student = await userWithRole(admin, 'student');
    await bookedLongAgo(student.id, 'cpc', 1_000_000_000_000_000);
    const res = await update({ userId: student.id, cpc: '0.01', dsp: '5' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: M.balanceTooLarge, errors: { cpc: [M.balanceTooLarge] } });
    expect(await ledgerRows(student.id)).toBe(1);
    const balance = await api('/api/get-balance', { token: admin, body: { userId: student.id } });
    expect(balance.body.data.balance.cpc).toBe(1_000_000_000);
    expect(balance.body.data.balance.dsp).toBe(0);
  });

  it('refuses every credit past the bound, so the balance never nears 2^53 micro-units', async () => {
    const student = await userWithRole(admin, 'student');
    await bookedLongAgo(student.id, 'blaze', 999_995_000_000_000);
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await update({ userId: student.id, blaze: '999.99' })).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 422, 422, 422, 422, 422]);
    const balance = await api('/api/get-balance', { token: admin, body: { userId: student.id } });
    expect(balance.body.data.balance.blaze).toBe(999_999_999.95);
  });

  it('bounds the negative side the same way', async () => {
    const student = await userWithRole(admin, 'student');
    expect((await update({ userId: student.id, mediago: '-1000000000' })).status).toBe(200);
    const res = await update({ userId: student.id, mediago: '-0.01' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ mediago: [M.balanceTooLarge] });
  });

  it('parses no amount above one billion anywhere (payouts, costs)', () => {
    expect(toMicros('1000000000')).toBe(1_000_000_000_000_000);
    expect(toMicros('999999999.999999')).toBe(999_999_999_999_999);
    expect(toMicros('1000000000.000001')).toBeNull();
    expect(toMicros('9999999999.99')).toBeNull();
  });
});
