import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import type { Env } from '../../worker/env';
import worker from '../../worker/index';
import { RESET_LIMIT_PER_ACCOUNT, RESET_LIMIT_PER_ADDRESS } from '../../worker/services/auth/password-resets';
import { api } from '../factories/api';
import { waitForCount } from '../factories/db';
import { setupInstallation, userWithRole } from '../factories/install';

// Reset links (docs/decisions/041): using one spends all; requests limited per address and per
// account with one answer for everything; the mail goes out after the answer.

const SENT =
  'If an account uses that address, we have sent it a link to reset the password. Please check your email.';
const admin = await setupInstallation();

let ipCounter = 0;
const newIp = () => `203.0.113.${++ipCounter}`;
const requestReset = (email: string, ip = newIp()) =>
  api('/api/auth/password/email', { body: { email }, headers: { 'CF-Connecting-IP': ip } });

const mailsTo = async (to: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM mail_outbox WHERE "to" = ?')
    .bind(to)
    .first<{ n: number }>())!.n;

/** The link of the n-th mail (1-based) to `to`, waiting for it to arrive. */
async function link(to: string, n: number) {
  await waitForCount('SELECT count(*) AS n FROM mail_outbox WHERE "to" = ?', [to], n);
  const rows = await env.DB.prepare('SELECT text FROM mail_outbox WHERE "to" = ? ORDER BY id').bind(to).all<{
    text: string;
  }>();
  const [, email, token] = /reset-password\/([^/]+)\/([\w-]+)/.exec(rows.results[n - 1].text)!;
  return { email: decodeURIComponent(email), token };
}

const verify = (l: { email: string; token: string }) =>
  api(`/api/auth/password/verify?email=${encodeURIComponent(l.email)}&token=${l.token}`);
const reset = (l: { email: string; token: string }, password: string) =>
  api('/api/auth/password/reset', {
    body: { ...l, password, password_confirmation: password },
  });

describe('a used link spends the others', () => {
  it('an older, unused link no longer works after a newer one reset the password', async () => {
    const user = await userWithRole(admin, 'student');
    const email = `${user.username}@example.com`;
    await requestReset(email);
    const older = await link(email, 1);
    await requestReset(email);
    const newer = await link(email, 2);
    expect((await verify(older)).status).toBe(200);

    expect((await reset(newer, 'Fresh-pass-41')).status).toBe(200);
    const verified = await verify(older);
    expect(verified.status).toBe(400);
    expect(verified.body.message).toBe('This password reset link is invalid or has expired.');
    const replay = await reset(older, 'Attacker-pass-9');
    expect(replay.status).toBe(400);
    const login = await api('/api/auth/login', {
      body: { username: user.username, password: 'Fresh-pass-41' },
    });
    expect(login.status).toBe(200);
  });

  it('a password change in the settings spends every outstanding link', async () => {
    const user = await userWithRole(admin, 'coach');
    const email = `${user.username}@example.com`;
    await requestReset(email);
    const pending = await link(email, 1);
    const body = new FormData();
    body.set('oldPassword', user.password);
    body.set('newPassword', 'Changed-pass-77');
    body.set('confirmPassword', 'Changed-pass-77');
    expect((await api('/api/update-setting', { token: user.token, body })).status).toBe(200);
    expect((await verify(pending)).status).toBe(400);
    expect((await reset(pending, 'Attacker-pass-9')).status).toBe(400);
  });
});

describe('request limits', () => {
  it(`one address gets at most ${RESET_LIMIT_PER_ADDRESS} mails an hour, with the same answer for every request`, async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => userWithRole(admin, 'student')));
    const ip = newIp();
    const before = (await env.DB.prepare('SELECT count(*) AS n FROM mail_outbox').first<{ n: number }>())!.n;
    const answers = [];
    for (let i = 0; i < 30; i++) {
      const email = i % 2 ? `${users[i % 4].username}@example.com` : `stranger${i}@example.com`;
      answers.push(await requestReset(email, ip));
    }
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ data: { message: SENT } });
    }
    // Requests 1..10 are within the limit; of those, the odd ones name real accounts (5 mails).
    await waitForCount('SELECT count(*) AS n FROM mail_outbox', [], before + 5);
    await new Promise((r) => setTimeout(r, 300));
    const after = (await env.DB.prepare('SELECT count(*) AS n FROM mail_outbox').first<{ n: number }>())!.n;
    expect(after - before).toBe(5);
  });

  it(`one account gets at most ${RESET_LIMIT_PER_ACCOUNT} mails an hour, whoever asks`, async () => {
    const user = await userWithRole(admin, 'student');
    const email = `${user.username}@example.com`;
    for (let i = 0; i < 30; i++) {
      const res = await requestReset(i % 2 ? email.toUpperCase() : email);
      expect(res.body).toEqual({ data: { message: SENT } });
    }
    await waitForCount(
      'SELECT count(*) AS n FROM mail_outbox WHERE "to" = ?',
      [email],
      RESET_LIMIT_PER_ACCOUNT,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailsTo(email)).toBe(RESET_LIMIT_PER_ACCOUNT);
  });
});

describe('the mail goes out after the answer', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('a known address answers as fast as an unknown one while the mail API takes 1.5 s', async () => {
    const user = await userWithRole(admin, 'student');
    globalThis.fetch = (async () => {
      await new Promise((r) => setTimeout(r, 1500));
      return new Response('{}', { status: 202 });
    }) as typeof fetch;
    const bindings = {
      ...(env as unknown as Env),
      MAIL_API_URL: 'https://mail.example/send',
      MAIL_API_KEY: 'k',
    };
    const timed = async (email: string) => {
      const ctx = createExecutionContext();
      const started = performance.now();
      const res = await worker.fetch(
        new Request('http://tracker.test/api/auth/password/email', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'CF-Connecting-IP': newIp() },
          body: JSON.stringify({ email }),
        }),
        bindings,
        ctx,
      );
      const body = await res.json();
      const ms = performance.now() - started;
      await waitOnExecutionContext(ctx);
      return { ms, body };
    };
    const unknown = await timed('nobody-here@example.com');
    const known = await timed(`${user.username}@example.com`);
    expect(known.body).toEqual(unknown.body);
    expect(known.ms).toBeLessThan(1000);
    expect(unknown.ms).toBeLessThan(1000);
    // The mail was still delivered, after the answer.
    const row = await env.DB.prepare('SELECT status FROM mail_outbox WHERE "to" = ?')
      .bind(`${user.username}@example.com`)
      .first<{ status: string }>();
    expect(row?.status).toBe('sent');
  });
});
