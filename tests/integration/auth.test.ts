import { env } from 'cloudflare:workers';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { api, freshIp } from '../factories/api';
import { waitForCount } from '../factories/db';
import { ADMIN, login, setupInstallation, userWithRole } from '../factories/install';

let adminToken = await setupInstallation();

const loginBody = (username: string, password: string) => ({ body: { username, password } });

describe('login', () => {
  it('answers the user, the role as type|name, the license state and a working token', async () => {
    const res = await api('/api/auth/login', {
      ...loginBody(ADMIN.username, ADMIN.password),
      headers: { 'CF-Connecting-IP': freshIp() },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual({ username: ADMIN.username, id: 1 });
    expect(res.body.data.role).toBe('admin|Administrator');
    expect(res.body.data.license).toBe('active');
    const me = await api('/api/user', { token: res.body.data.token });
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(ADMIN.email);
  });

  it('accepts the username in any case and strips whitespace from the password', async () => {
    const res = await api('/api/auth/login', {
      body: { username: ADMIN.username.toUpperCase(), password: ` ${ADMIN.password}` },
    });
    expect(res.status).toBe(200);
  });

  it('refuses a wrong password or an unknown user with the same message', async () => {
    const ip = freshIp();
    const wrong = await api('/api/auth/login', {
      ...loginBody(ADMIN.username, 'nope'),
      headers: { 'CF-Connecting-IP': ip },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Username or Password are incorrect');
    const unknown = await api('/api/auth/login', {
      ...loginBody('ghost', 'nope'),
      headers: { 'CF-Connecting-IP': ip },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors.message).toEqual(['Username or Password are incorrect']);
  });

  // The throttling rules have their own file: tests/integration/login-throttle.test.ts.

  it('answers license inactive and no token when the license was deactivated', async () => {
    const deactivate = await api('/api/license/deactivate', { method: 'POST', token: adminToken });
    expect(deactivate.status).toBe(200);
    const res = await api('/api/auth/login', loginBody(ADMIN.username, ADMIN.password));
    expect(res.status).toBe(200);
    expect(res.body.data.license).toBe('inactive');
    expect(res.body.data.token).toBeNull();
    // Restore for the other tests of this file.
    const { licenseKey } = await import('../factories/install');
    const again = await api('/api/license/activate', {
      body: { email: ADMIN.email, licenseKey: await licenseKey(ADMIN.email) },
    });
    expect(again.status).toBe(200);
    adminToken = await login(ADMIN.username, ADMIN.password);
  });
});

describe('tokens', () => {
  const sign = (claims: Record<string, unknown>, exp: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuedAt(exp - 3600)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(env.JWT_SECRET));

  it('answers 401 with no token, a malformed token or a token signed with another key', async () => {
    expect((await api('/api/user')).status).toBe(401);
    expect((await api('/api/user', { token: 'not-a-jwt' })).status).toBe(401);
    const foreign = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const res = await api('/api/user', { token: foreign });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Unauthenticated.');
  });

  it('answers 401 with the session-timeout message for an expired token', async () => {
    const expired = await sign({ ver: 0 }, Math.floor(Date.now() / 1000) - 60);
    const res = await api('/api/user', { token: expired });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Session timeout. Please login again.');
  });

  it('revokes every token of the user on logout', async () => {
    const user = await userWithRole(adminToken, 'coach');
    const second = await login(user.username, user.password);
    expect((await api('/api/user', { token: user.token })).status).toBe(200);
    const out = await api('/api/auth/logout', { method: 'POST', token: user.token });
    expect(out.status).toBe(200);
    expect((await api('/api/user', { token: user.token })).status).toBe(401);
    expect((await api('/api/user', { token: second })).status).toBe(401);
    expect((await api('/api/user', { token: await login(user.username, user.password) })).status).toBe(200);
  });
});

describe('one-time login links', () => {
  it('logs in once with loginToken and hash, then never again', async () => {
    const student = await userWithRole(adminToken, 'student');
    const issued = await api('/api/auth/login-token', { token: adminToken, body: { userId: student.id } });
    expect(issued.status).toBe(201);
    const { loginToken, hash, url } = issued.body.data;
    expect(url).toBe(`https://tracker.example.com/login#loginToken=${loginToken}&hash=${hash}`);

    const first = await api('/api/auth/login', { body: { loginToken, hash } });
    expect(first.status).toBe(200);
    expect(first.body.data.user.username).toBe(student.username);
    expect(first.body.data.role).toBe('student|Student');

    const replay = await api('/api/auth/login', { body: { loginToken, hash } });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe('This login link is invalid or has expired.');
  });

  it('refuses a wrong hash and keeps the link usable for the right one', async () => {
    const student = await userWithRole(adminToken, 'student');
    const { loginToken, hash } = (
      await api('/api/auth/login-token', { token: adminToken, body: { userId: student.id } })
    ).body.data;
    expect((await api('/api/auth/login', { body: { loginToken, hash: `${hash}x` } })).status).toBe(401);
    expect((await api('/api/auth/login', { body: { loginToken, hash } })).status).toBe(200);
  });

  it('refuses an expired link', async () => {
    const student = await userWithRole(adminToken, 'student');
    const { loginToken, hash } = (
      await api('/api/auth/login-token', { token: adminToken, body: { userId: student.id } })
    ).body.data;
    await env.DB.prepare('update login_tokens set expires_at = ? where id = ?')
      .bind(Date.now() - 1, loginToken)
      .run();
    expect((await api('/api/auth/login', { body: { loginToken, hash } })).status).toBe(401);
  });

  it('is issued by admins only', async () => {
    const coach = await userWithRole(adminToken, 'coach');
    const res = await api('/api/auth/login-token', { token: coach.token, body: { userId: coach.id } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('This action is unauthorized.');
  });
});

describe('session to token', () => {
  const setCookies = (headers: Headers): string[] =>
    (headers as unknown as { getSetCookie(): string[] }).getSetCookie();
  const cookieValue = (headers: Headers, name: string) => {
    const all = setCookies(headers);
    const found = all.map((c) => c.split(';')[0]).find((c) => c.startsWith(`${name}=`));
    return found?.slice(name.length + 1) ?? '';
  };

  it('sets an HttpOnly SameSite session cookie at login and exchanges it for a token with the CSRF header', async () => {
    const res = await api('/api/auth/login', loginBody(ADMIN.username, ADMIN.password));
    const setCookie = setCookies(res.headers).find((c) => c.startsWith('tracker_session='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const session = cookieValue(res.headers, 'tracker_session');

    const csrf = await api('/sanctum/csrf-cookie');
    expect(csrf.status).toBe(204);
    const xsrf = cookieValue(csrf.headers, 'XSRF-TOKEN');
    expect(xsrf.length).toBeGreaterThan(20);

    const exchanged = await api('/api/auth/session-to-token', {
      method: 'POST',
      headers: { cookie: `tracker_session=${session}; XSRF-TOKEN=${xsrf}`, 'X-XSRF-TOKEN': xsrf },
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.data.user).toEqual({ id: 1, username: ADMIN.username });
    expect(exchanged.body.data.role).toBe('admin|Administrator');
    expect((await api('/api/user', { token: exchanged.body.data.token })).status).toBe(200);

    const noHeader = await api('/api/auth/session-to-token', {
      method: 'POST',
      headers: { cookie: `tracker_session=${session}; XSRF-TOKEN=${xsrf}` },
    });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.message).toBe('CSRF token mismatch.');

    // A signed-out page load asks too: "no session" is a 200, not a red 401 in the console (issue 27).
    const noSession = await api('/api/auth/session-to-token', {
      method: 'POST',
      headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'X-XSRF-TOKEN': xsrf },
    });
    expect(noSession.status).toBe(200);
    expect(noSession.body.data).toEqual({ user: null, token: null, role: null, message: 'No session.' });

    // A session cookie that signs nobody in (garbage, or revoked by a logout elsewhere) is the
    // same answer, and the cookie is cleared.
    const stale = await api('/api/auth/session-to-token', {
      method: 'POST',
      headers: { cookie: `tracker_session=not-a-token; XSRF-TOKEN=${xsrf}`, 'X-XSRF-TOKEN': xsrf },
    });
    expect(stale.status).toBe(200);
    expect(stale.body.data.token).toBeNull();
    expect(setCookies(stale.headers).find((c) => c.startsWith('tracker_session='))).toMatch(/Max-Age=0/i);
  });
});

describe('password reset', () => {
  // Reset mails go out after the answer (waitUntil): wait for the request's own mail.
  let mailsSeen = 0;
  const lastMail = async () => {
    await waitForCount('select count(*) as n from mail_outbox', [], mailsSeen + 1);
    const row = await env.DB.prepare('select * from mail_outbox order by id desc limit 1').first<{
      to: string;
      subject: string;
      text: string;
    }>();
    mailsSeen = (await env.DB.prepare('select count(*) as n from mail_outbox').first<{ n: number }>())!.n;
    return row;
  };

  it('always answers success, and mails a link only to a known address', async () => {
    const before = await env.DB.prepare('select count(*) as n from mail_outbox').first<{ n: number }>();
    const unknown = await api('/api/auth/password/email', { body: { email: 'nobody@example.com' } });
    expect(unknown.status).toBe(200);
    const after = await env.DB.prepare('select count(*) as n from mail_outbox').first<{ n: number }>();
    expect(after!.n).toBe(before!.n);

    const known = await api('/api/auth/password/email', { body: { email: ADMIN.email.toUpperCase() } });
    expect(known.status).toBe(200);
    expect(known.body.data.message).toBe(unknown.body.data.message);
    const mail = await lastMail();
    expect(mail!.to).toBe(ADMIN.email);
    expect(mail!.text).toMatch(
      /https:\/\/tracker\.example\.com\/reset-password\/owner%40example\.com\/[\w-]{40,}/,
    );
  });

  it('validates the address with the spec messages', async () => {
    const empty = await api('/api/auth/password/email', { body: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe('Email field is required.');
    const bad = await api('/api/auth/password/email', { body: { email: 'nope' } });
    expect(bad.body.message).toBe('Please enter valid email address.');
  });

  it('verifies, resets once, stores only the hash, and revokes old tokens', async () => {
    const user = await userWithRole(adminToken, 'student');
    await api('/api/auth/password/email', { body: { email: `${user.username}@example.com` } });
    const mail = await lastMail();
    const [, email, token] = /reset-password\/([^/]+)\/([\w-]+)/.exec(mail!.text)!;
    const stored = await env.DB.prepare(
      'select token_hash from password_resets order by id desc limit 1',
    ).first<{ token_hash: string }>();
    expect(stored!.token_hash).not.toBe(token);
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const verify = await api(`/api/auth/password/verify?email=${email}&token=${token}`);
    expect(verify.status).toBe(200);
    const wrongEmail = await api(`/api/auth/password/verify?email=other%40example.com&token=${token}`);
    expect(wrongEmail.status).toBe(400);

    const mismatch = await api('/api/auth/password/reset', {
      body: { email: decodeURIComponent(email), token, password: 'NewPass1', password_confirmation: 'Other' },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.message).toBe('Confirm Password do not match with Password.');

    const reset = await api('/api/auth/password/reset', {
      body: {
        email: decodeURIComponent(email),
        token,
        password: 'NewPass1',
        password_confirmation: 'NewPass1',
      },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.data.message).toBe('Password successfully changed');
    expect((await api('/api/user', { token: user.token })).status).toBe(401);
    expect((await api('/api/auth/login', loginBody(user.username, 'NewPass1'))).status).toBe(200);

    const reuse = await api('/api/auth/password/reset', {
      body: {
        email: decodeURIComponent(email),
        token,
        password: 'Again123',
        password_confirmation: 'Again123',
      },
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.message).toBe('This password reset link is invalid or has expired.');
    expect((await api(`/api/auth/password/verify?email=${email}&token=${token}`)).status).toBe(400);
  });

  it('refuses a token older than 60 minutes', async () => {
    await api('/api/auth/password/email', { body: { email: ADMIN.email } });
    const [, email, token] = /reset-password\/([^/]+)\/([\w-]+)/.exec((await lastMail())!.text)!;
    await env.DB.prepare(
      'update password_resets set expires_at = ? where id = (select max(id) from password_resets)',
    )
      .bind(Date.now() - 1)
      .run();
    expect((await api(`/api/auth/password/verify?email=${email}&token=${token}`)).status).toBe(400);
  });
});

describe('registration and users', () => {
  it('keeps self-registration off by default', async () => {
    const res = await api('/api/auth/register', {
      body: { name: 'newbie', email: 'newbie@example.com', password: 'Newbie-pass-1' },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Registration is disabled on this installation.');
  });

  it('says a new username is required, or reserved for "Admin", where the spec is silent (issue 27)', async () => {
    const body = (username: string) => ({
      username,
      email: 'named@example.com',
      password: 'Named-pass-12',
      password_confirmation: 'Named-pass-12',
      role: 'student',
    });
    for (const [username, message] of [
      ['', 'Username field is required.'],
      ['   ', 'Username field is required.'],
      ['Admin', 'The username "Admin" is reserved. Choose another username.'],
      ['admin', 'The username "Admin" is reserved. Choose another username.'],
      ['two words', 'Username field is not valid.'],
    ]) {
      const res = await api('/api/registeruser', { token: adminToken, body: body(username) });
      expect(res.status).toBe(422);
      expect(res.body.errors.username).toEqual([message]);
    }
    // First-run setup keeps the spec's own words for both (spec 1 §5; tests/integration/setup.test.ts).
  });

  it('lets an admin create users with a role, list them and change roles', async () => {
    const created = await api('/api/registeruser', {
      token: adminToken,
      body: {
        username: 'coachy',
        email: 'coachy@example.com',
        password: 'Coach-pass-12',
        password_confirmation: 'Coach-pass-12',
        role: 'coach',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.user).toMatchObject({ username: 'coachy', role: 'coach|Coach' });

    const duplicate = await api('/api/registeruser', {
      token: adminToken,
      body: {
        username: 'COACHY',
        email: 'c2@example.com',
        password: 'Other-pass-12',
        password_confirmation: 'Other-pass-12',
        role: 'coach',
      },
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors.username).toEqual(['This username is already taken.']);

    const badRole = await api('/api/registeruser', {
      token: adminToken,
      body: {
        username: 'x2',
        email: 'x2@example.com',
        password: 'pw',
        password_confirmation: 'pw',
        role: 'root',
      },
    });
    expect(badRole.status).toBe(422);
    expect(badRole.body.errors.role).toEqual(['Role must be admin, coach or student.']);

    const list = await api('/api/users', { token: adminToken });
    expect(list.status).toBe(200);
    const coachy = list.body.data.result.find((u: { username: string }) => u.username === 'coachy');
    expect(coachy.role).toBe('coach|Coach');

    const coachToken = await login('coachy', 'Coach-pass-12');
    const changed = await api(`/api/users/${coachy.id}/role`, {
      method: 'PUT',
      token: adminToken,
      body: { role: 'student' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.user.role).toBe('student|Student');
    // The old token carried the old role: it is revoked.
    expect((await api('/api/user', { token: coachToken })).status).toBe(401);
    const missing = await api('/api/users/9999/role', {
      method: 'PUT',
      token: adminToken,
      body: { role: 'coach' },
    });
    expect(missing.status).toBe(404);
  });

  it('refuses admin-only calls to a student with 403 and to a coach with 403', async () => {
    const student = await userWithRole(adminToken, 'student');
    const coach = await userWithRole(adminToken, 'coach');
    for (const token of [student.token, coach.token]) {
      const list = await api('/api/users', { token });
      expect(list.status).toBe(403);
      expect(list.body.errors.message).toEqual(['This action is unauthorized.']);
      const create = await api('/api/registeruser', {
        token,
        body: {
          username: 'sneaky',
          email: 's@example.com',
          password: 'pw',
          password_confirmation: 'pw',
          role: 'admin',
        },
      });
      expect(create.status).toBe(403);
    }
    const count = await env.DB.prepare("select count(*) as n from users where username = 'sneaky'").first<{
      n: number;
    }>();
    expect(count!.n).toBe(0);
  });
});

describe('license', () => {
  it('validates activation input in the spec order with its messages', async () => {
    const empty = await api('/api/license/activate', { token: adminToken, body: {} });
    expect(empty.status).toBe(422);
    expect(Object.entries(empty.body.errors).map(([k, v]) => [k, (v as string[])[0]])).toEqual([
      ['email', 'Email field is required.'],
      ['licenseKey', 'License field is required.'],
    ]);
    const badEmail = await api('/api/license/activate', {
      token: adminToken,
      body: { email: 'x', licenseKey: 'k' },
    });
    expect(badEmail.body.message).toBe('Enter valid email address.');
    const wrong = await api('/api/license/activate', {
      token: adminToken,
      body: { email: ADMIN.email, licenseKey: 'k' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toBe('Invalid email or licenseKey');
  });

  it('refuses an expired key, a key for another email and replacing an active license without an admin', async () => {
    const { licenseKey } = await import('../factories/install');
    const expired = await licenseKey(ADMIN.email, { expiresIn: Math.floor(Date.now() / 1000) - 10 });
    expect(
      (
        await api('/api/license/activate', {
          token: adminToken,
          body: { email: ADMIN.email, licenseKey: expired },
        })
      ).body.message,
    ).toBe('Invalid email or licenseKey');
    const other = await licenseKey('other@example.com');
    expect(
      (
        await api('/api/license/activate', {
          token: adminToken,
          body: { email: ADMIN.email, licenseKey: other },
        })
      ).status,
    ).toBe(422);
    const anonymous = await api('/api/license/activate', {
      body: { email: 'other@example.com', licenseKey: other },
    });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.message).toBe(
      'A license is already active. Sign in as an administrator to replace it.',
    );
    const coach = await userWithRole(adminToken, 'coach');
    const byCoach = await api('/api/license/activate', {
      token: coach.token,
      body: { email: 'other@example.com', licenseKey: other },
    });
    expect(byCoach.status).toBe(403);
    const status = await api('/api/license');
    expect(status.body.data).toMatchObject({ status: 'active', email: ADMIN.email });
  });
});

describe('malformed input never answers 500', () => {
  it.each([
    ['malformed JSON', '{"username": ', 400],
    ['a JSON array', '[1,2,3]', 400],
    ['wrong types', JSON.stringify({ username: { a: 1 }, password: [1] }), 422],
  ])('login with %s answers %i', async (_name, body, status) => {
    const res = await api('/api/auth/login', { body });
    expect(res.status).toBe(status);
    expect(res.body.errors.message ?? Object.values(res.body.errors)[0]).toBeTruthy();
  });

  it('answers 413 for a body over 1 MB', async () => {
    const res = await api('/api/auth/login', { body: JSON.stringify({ username: 'x'.repeat(1_100_000) }) });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The request body is too large: the limit is 1 MB.');
  });

  it('answers a JSON 404 for unknown API paths and methods', async () => {
    const res = await api('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found.', errors: { message: ['Not found.'] } });
    expect((await api('/api/auth/login')).status).toBe(404);
  });

  it('answers index.html for unknown SPA paths', async () => {
    const res = await api('/campaigns/whatever', {
      headers: { accept: 'text/html', 'Sec-Fetch-Mode': 'navigate' },
    });
    expect(res.status).toBe(200);
    expect(String(res.body)).toContain('<div id="root">');
  });
});
