import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { MONEY_MESSAGES as M } from '../../schema/money-api';
import { api } from '../factories/api';
import { assignCoach, setupInstallation, studentOf, userWithRole } from '../factories/install';

// Who may credit whose wallets, and the credit limit (docs/decisions/124; issue 24 item 5).
// Every case reads the ledger before and after: a refusal books nothing.

type User = Awaited<ReturnType<typeof userWithRole>>;

let admin: string;
let admin1: User;
let admin2: User;
let coach1: User;
let coach2: User;
let student1: User; // coach1's
let student2: User; // coach2's
let loner: User; // no coach

beforeAll(async () => {
  admin = await setupInstallation();
  admin1 = await userWithRole(admin, 'admin');
  admin2 = await userWithRole(admin, 'admin');
  coach1 = await userWithRole(admin, 'coach');
  coach2 = await userWithRole(admin, 'coach');
  student1 = await studentOf(admin, coach1);
  student2 = await studentOf(admin, coach2);
  loner = await userWithRole(admin, 'student');
});

const update = (token: string | null, body: Record<string, unknown>) =>
  api('/api/update-balance', { token, body });

/** Every wallet entry of a user (wallet and rotator alike), in micros. */
async function ledger(userId: number) {
  const row = await env.DB.prepare(
    'SELECT COUNT(*) AS n, COALESCE(SUM(amount_micros), 0) AS s FROM wallet_ledger WHERE user_id = ?1',
  )
    .bind(userId)
    .first<{ n: number; s: number }>();
  return { entries: row!.n, micros: row!.s };
}

async function expectRefused(
  token: string | null,
  target: User,
  body: Record<string, unknown>,
  status: number,
  message: string,
) {
  const before = await ledger(target.id);
  const res = await update(token, body);
  expect(res.status).toBe(status);
  expect(res.body.message).toBe(message);
  expect(await ledger(target.id)).toEqual(before);
  return res;
}

async function expectCredited(token: string, target: User, cpc: string, micros: number) {
  const before = await ledger(target.id);
  const res = await update(token, { userId: target.id, cpc });
  expect(res.status).toBe(200);
  expect(res.body.data.message).toBe(M.updated);
  expect(res.body.data.applied).toBe(true);
  expect(await ledger(target.id)).toEqual({ entries: before.entries + 1, micros: before.micros + micros });
  return res;
}

describe('update-balance: who may credit whom', () => {
  it('admin → own wallets: 403, nothing booked (with or without userId)', async () => {
    await expectRefused(admin1.token, admin1, { cpc: '100' }, 403, M.notOwnWallets);
    const res = await expectRefused(
      admin1.token,
      admin1,
      { userId: admin1.id, cpc: '100' },
      403,
      M.notOwnWallets,
    );
    expect(res.body.errors).toEqual({ message: [M.notOwnWallets] });
  });

  it('admin → another admin: booked', async () => {
    const res = await expectCredited(admin1.token, admin2, '250.50', 250_500_000);
    expect(res.body.data.balance.cpcFormatted).toBe('$250.50');
  });

  it('admin → a coach: booked', async () => {
    await expectCredited(admin1.token, coach1, '40', 40_000_000);
  });

  it('admin → a student, with or without a coach: booked', async () => {
    await expectCredited(admin1.token, student2, '75', 75_000_000);
    await expectCredited(admin1.token, loner, '12.34', 12_340_000);
  });

  it('coach → own wallets: 403, nothing booked', async () => {
    await expectRefused(coach1.token, coach1, { cpc: '1000000000' }, 403, M.notOwnWallets);
    await expectRefused(coach1.token, coach1, { userId: coach1.id, cpc: '5' }, 403, M.notOwnWallets);
  });

  it('coach → own student: booked, credit and debit', async () => {
    await expectCredited(coach1.token, student1, '300', 300_000_000);
    await expectCredited(coach1.token, student1, '-20', -20_000_000);
  });

  it("coach → another coach's student or a student without a coach: 403, nothing booked", async () => {
    await expectRefused(coach1.token, student2, { userId: student2.id, cpc: '300' }, 403, M.notYourStudent);
    await expectRefused(coach1.token, loner, { userId: loner.id, cpc: '300' }, 403, M.notYourStudent);
  });

  it('coach → an admin or another coach: 403, nothing booked', async () => {
    await expectRefused(
      coach1.token,
      admin2,
      { userId: admin2.id, cpc: '1000000000' },
      403,
      M.notYourStudent,
    );
    await expectRefused(coach1.token, coach2, { userId: coach2.id, cpc: '50' }, 403, M.notYourStudent);
  });

  it('student → anyone, itself included: 403, nothing booked', async () => {
    for (const target of [student1, student2, coach1, admin2]) {
      await expectRefused(student1.token, target, { userId: target.id, cpc: '10' }, 403, M.unauthorized);
    }
    await expectRefused(student1.token, student1, { cpc: '10' }, 403, M.unauthorized);
  });

  it('nobody (no token): 401, nothing booked', async () => {
    await expectRefused(null, student1, { userId: student1.id, cpc: '10' }, 401, 'Unauthenticated.');
  });

  it('a coach whose student moves to another coach loses the right at once', async () => {
    const student = await studentOf(admin, coach1);
    await expectCredited(coach1.token, student, '10', 10_000_000);
    await assignCoach(admin, student.id, coach2.id);
    await expectRefused(coach1.token, student, { userId: student.id, cpc: '10' }, 403, M.notYourStudent);
    await expectCredited(coach2.token, student, '10', 10_000_000);
  });
});

describe('update-balance: the credit limit ($10,000 per user within 24 hours)', () => {
  it('refuses an admin credit above $10,000 with 422 on each credited wallet, nothing booked', async () => {
    const target = await userWithRole(admin, 'student');
    const res = await expectRefused(
      admin1.token,
      target,
      { userId: target.id, cpc: '9000', dsp: '1000.01', blaze: '-50' },
      422,
      M.creditLimit,
    );
    expect(res.body.errors).toEqual({ cpc: [M.creditLimit], dsp: [M.creditLimit] });
    await expectRefused(admin1.token, target, { userId: target.id, cpc: '1000000000' }, 422, M.creditLimit);
  });

  it('books exactly $10,000, then refuses the next cent within the window; debits still pass', async () => {
    const target = await userWithRole(admin, 'student');
    await expectCredited(admin1.token, target, '6000', 6_000_000_000);
    await expectCredited(admin2.token, target, '4000', 4_000_000_000);
    await expectRefused(admin1.token, target, { userId: target.id, liveintent: '0.01' }, 422, M.creditLimit);
    await expectCredited(admin1.token, target, '-100', -100_000_000);
    // A debit does not make room: the limit counts credits.
    await expectRefused(admin1.token, target, { userId: target.id, cpc: '50' }, 422, M.creditLimit);
  });

  it('counts only the last 24 hours', async () => {
    const target = await userWithRole(admin, 'student');
    await expectCredited(admin1.token, target, '10000', 10_000_000_000);
    await env.DB.prepare('UPDATE wallet_ledger SET created_at = created_at - ?2 WHERE user_id = ?1')
      .bind(target.id, 24 * 60 * 60 * 1000 + 1)
      .run();
    await expectCredited(admin1.token, target, '10000', 10_000_000_000);
  });

  it('holds under parallel credits: 6 × $3,000 at once books at most $9,000', async () => {
    const student = await studentOf(admin, coach1);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        update(i % 2 ? coach1.token : admin1.token, { userId: student.id, cpc: '3000' }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 422, 422, 422]);
    expect(await ledger(student.id)).toEqual({ entries: 3, micros: 9_000_000_000 });
  });

  it('a retried key at the limit answers the entries already booked', async () => {
    const target = await userWithRole(admin, 'student');
    const body = { userId: target.id, cpc: '10000', idempotencyKey: 'limit_retry_key-1' };
    expect((await update(admin1.token, body)).status).toBe(200);
    const again = await update(admin1.token, body);
    expect(again.status).toBe(200);
    expect(again.body.data.applied).toBe(false);
    expect(await ledger(target.id)).toEqual({ entries: 1, micros: 10_000_000_000 });
  });
});

describe('reading wallets and the picker follow the same relation', () => {
  it("lets a coach read their own student's wallets and refuses another coach's (403)", async () => {
    const own = await api('/api/get-balance', { token: coach1.token, body: { userId: student1.id } });
    expect(own.status).toBe(200);
    expect(own.body.data.user.id).toBe(student1.id);
    const other = await api('/api/get-balance', { token: coach1.token, body: { userId: student2.id } });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe(M.notYourStudent);
    const anyone = await api('/api/get-balance', { token: admin1.token, body: { userId: student2.id } });
    expect(anyone.status).toBe(200);
  });

  it('lists a coach only their own students; an admin every student', async () => {
    const mine = await api('/api/balance-users', { token: coach1.token });
    const ids = mine.body.data.result.map((u: { id: number }) => u.id);
    expect(ids).toContain(student1.id);
    expect(ids).not.toContain(student2.id);
    expect(ids).not.toContain(loner.id);
    const all = (await api('/api/balance-users', { token: admin1.token })).body.data.result.map(
      (u: { id: number }) => u.id,
    );
    expect(all).toEqual(expect.arrayContaining([student1.id, student2.id, loner.id]));
  });
});

describe('PUT /api/users/:id/coach', () => {
  it('is for admins; names a coach for a student only', async () => {
    const student = await userWithRole(admin, 'student');
    const put = (token: string, id: number, coachId: unknown) =>
      api(`/api/users/${id}/coach`, { method: 'PUT', token, body: { coachId } });
    expect((await put(coach1.token, student.id, coach1.id)).status).toBe(403);
    const notCoach = await put(admin, student.id, admin1.id);
    expect(notCoach.status).toBe(422);
    expect(notCoach.body.errors).toEqual({ coachId: ['Select a coach.'] });
    const notStudent = await put(admin, coach2.id, coach1.id);
    expect(notStudent.status).toBe(422);
    expect(notStudent.body.errors).toEqual({ coachId: ['Only a student has a coach.'] });
    expect((await put(admin, 999999, coach1.id)).status).toBe(404);
    const ok = await put(admin, student.id, coach1.id);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ message: 'Coach saved.', id: student.id, coach_id: coach1.id });
    const read = await api('/api/users', { token: admin });
    expect(read.body.data.result.find((u: { id: number }) => u.id === student.id).coach_id).toBe(coach1.id);
    const cleared = await put(admin, student.id, null);
    expect(cleared.body.data.coach_id).toBeNull();
  });

  it('lists a coach only for a student: a student made a coach answers none', async () => {
    const student = await userWithRole(admin, 'student');
    const put = await api(`/api/users/${student.id}/coach`, {
      method: 'PUT',
      token: admin,
      body: { coachId: coach1.id },
    });
    expect(put.status).toBe(200);
    const role = await api(`/api/users/${student.id}/role`, {
      method: 'PUT',
      token: admin,
      body: { role: 'coach' },
    });
    expect(role.status).toBe(200);
    expect(role.body.data.user.coach_id).toBeNull();
    const read = await api('/api/users', { token: admin });
    expect(read.body.data.result.find((u: { id: number }) => u.id === student.id).coach_id).toBeNull();
  });
});
