import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { growingDelayMs, PAIR_LOCK_AT } from '../../worker/services/auth/login-throttle';
import { api } from '../factories/api';
import { ADMIN, setupInstallation, userWithRole } from '../factories/install';

// Login throttling (docs/decisions/041): per (username, address) a growing delay then a short
// lock; per username a growing delay without a lock that never stops an address without
// recent failures; nothing per address alone.

const adminToken = await setupInstallation();

let ipCounter = 0;
const newIp = () => `192.0.2.${++ipCounter}`;

const attempt = (username: string, password: string, ip: string) =>
  api('/api/auth/login', { body: { username, password }, headers: { 'CF-Connecting-IP': ip } });

/** Moves every recorded failure of `username` `ms` into the past, as if that time went by. */
async function timePasses(username: string, ms: number) {
  await env.DB.prepare('UPDATE login_failures SET created_at = created_at - ? WHERE username = ?')
    .bind(ms, username.toLowerCase())
    .run();
}

const WAIT = /^Too many failed login attempts\. Please try again in (\d+) seconds?\.$/;

describe('per (username, address)', () => {
  it('lets two mistakes pass, then makes that pair wait a growing delay, right password or not', async () => {
    const user = await userWithRole(adminToken, 'student');
    const ip = newIp();
    for (let i = 0; i < 3; i++) expect((await attempt(user.username, `bad-${i}`, ip)).status).toBe(401);
    const waiting = await attempt(user.username, user.password, ip);
    expect(waiting.status).toBe(429);
    expect(waiting.body.message).toBe('Too many failed login attempts. Please try again in 1 second.');

    await timePasses(user.username, 1100);
    expect((await attempt(user.username, 'bad-3', ip)).status).toBe(401);
    const longer = await attempt(user.username, user.password, ip);
    expect(longer.status).toBe(429);
    expect(Number(WAIT.exec(longer.body.message)?.[1])).toBe(2);

    await timePasses(user.username, 2100);
    const ok = await attempt(user.username, user.password, ip);
    expect(ok.status).toBe(200);
    expect(ok.body.data.token).toEqual(expect.any(String));
  });

  it('locks the pair for 15 minutes at the 10th failure; the same user from another address signs in', async () => {
    const user = await userWithRole(adminToken, 'student');
    const ip = newIp();
    // Nine earlier failures of this pair, the last one 70 s ago (past its 64 s delay).
    for (let i = 1; i < PAIR_LOCK_AT; i++) {
      await env.DB.prepare('INSERT INTO login_failures (username, ip, created_at) VALUES (?, ?, ?)')
        .bind(user.username, ip, Date.now() - 70_000 * (PAIR_LOCK_AT - i))
        .run();
    }
    expect((await attempt(user.username, 'bad-10', ip)).status).toBe(401);
    const locked = await attempt(user.username, user.password, ip);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Too many failed login attempts. Please try again in 15 minutes.');

    const elsewhere = await attempt(user.username, user.password, newIp());
    expect(elsewhere.status).toBe(200);

    await timePasses(user.username, 15 * 60 * 1000);
    expect((await attempt(user.username, user.password, ip)).status).toBe(200);
  });
});

describe('per username across addresses', () => {
  it('strangers failing from many addresses never lock the owner out: the right password from a clean address signs in', async () => {
    const owner = await userWithRole(adminToken, 'coach');
    const strangers = Array.from({ length: 25 }, newIp);
    for (const ip of strangers) expect((await attempt(owner.username, 'guess', ip)).status).toBe(401);

    // Old rule: 10 failures for a username from any addresses locked the owner out for 15 minutes.
    const res = await attempt(owner.username, owner.password, newIp());
    expect(res.status).toBe(200);
    expect(res.body.data.user.username).toBe(owner.username);
  });

  it('makes every address that failed for the username wait a growing delay, capped, never a lock', async () => {
    const target = await userWithRole(adminToken, 'student');
    const ips = Array.from({ length: 12 }, newIp);
    for (const ip of ips) expect((await attempt(target.username, 'guess', ip)).status).toBe(401);

    // 12 failures: 1 s doubled twice. A guesser's second try from an address it already used waits.
    const second = await attempt(target.username, 'guess-2', ips[0]);
    expect(second.status).toBe(429);
    expect(Number(WAIT.exec(second.body.message)?.[1])).toBe(4);

    // The delay grows with the failures and stops at a minute: no lock.
    expect(growingDelayMs(10, 10, 60_000)).toBe(1000);
    expect(growingDelayMs(14, 10, 60_000)).toBe(16_000);
    expect(growingDelayMs(500, 10, 60_000)).toBe(60_000);

    await timePasses(target.username, 4100);
    expect((await attempt(target.username, target.password, ips[0])).status).toBe(200);
  });
});

describe('one address with many users behind it', () => {
  it('one user mistyping many times and many users mistyping once never stop a colleague', async () => {
    const office = newIp();
    const typist = await userWithRole(adminToken, 'student');
    for (let i = 0; i < 3; i++) await attempt(typist.username, `typo-${i}`, office);
    await timePasses(typist.username, 60_000);
    for (let i = 3; i < 12; i++) {
      await attempt(typist.username, `typo-${i}`, office);
      await timePasses(typist.username, 20 * 60 * 1000); // each delay has passed; old ones age out
    }
    const colleagues = await Promise.all([1, 2, 3, 4, 5].map(() => userWithRole(adminToken, 'student')));
    for (const c of colleagues) expect((await attempt(c.username, 'oops', office)).status).toBe(401);
    for (let i = 0; i < 12; i++) await attempt(`nobody${i}`, 'x', office);

    // Old rule: 10 failures from one address locked every login from it.
    for (const c of colleagues) {
      const res = await attempt(c.username, c.password, office);
      expect(res.status, c.username).toBe(200);
    }
    expect((await attempt(ADMIN.username, ADMIN.password, office)).status).toBe(200);
  });

  it('a success clears only that pair: a stranger who failed keeps waiting', async () => {
    const user = await userWithRole(adminToken, 'student');
    const stranger = newIp();
    for (let i = 0; i < 4; i++) await attempt(user.username, `bad-${i}`, stranger);
    expect((await attempt(user.username, user.password, newIp())).status).toBe(200);
    expect((await attempt(user.username, 'bad-again', stranger)).status).toBe(429);
  });
});
