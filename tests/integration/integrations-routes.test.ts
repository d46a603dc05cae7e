import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_MESSAGES as M } from '../../schema/connections-api';
import { getCredential } from '../../worker/services/integrations/credentials';
import { api } from '../factories/api';
import { setupInstallation, userWithRole } from '../factories/install';

// The integrations screen's calls (spec 4 §7, §8), Facebook campaign verification and the save
// rule (spec 2 §5, §7, §8) and the postback URLs, against the platforms' fake (fakes/).
// Credentials must be stored encrypted and answered masked.

let admin: string;
let adminId: number;
let student: { id: number; token: string };

const row = (platform: string, userId: number) =>
  env.DB.prepare(
    'SELECT token, token_last4, client_id, client_id_last4, status FROM platform_credentials WHERE platform = ?1 AND user_id = ?2',
  )
    .bind(platform, userId)
    .first<{
      token: string;
      token_last4: string;
      client_id: string;
      client_id_last4: string;
      status: string;
    }>();

/** Follows the auth_url at the fake's login dialog, which consents and sends back a code. */
async function loginCode(authUrl: string, deny = false): Promise<URL> {
  const res = await env.PLATFORM_FAKES!.fetch(`${authUrl}${deny ? '&deny=1' : ''}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') ?? '');
}

/** A state minted for the holder of `token`, as the status call puts it into the dialog's URL. */
async function freshState(token: string): Promise<string> {
  const status = await api('/api/facebook/status', { token });
  return new URL(status.body.data.auth_url).searchParams.get('state') ?? '';
}

async function connectFacebook(token: string) {
  const status = await api('/api/facebook/status', { token });
  const back = await loginCode(status.body.data.auth_url);
  const res = await api('/api/auth/set-fb-token', {
    token,
    body: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(res.body.data).toEqual({ status: 'success', message: M.fbConnected });
}

beforeAll(async () => {
  admin = await setupInstallation();
  adminId = (await api('/api/user-get', { token: admin })).body.data.user.id;
  student = await userWithRole(admin, 'student');
});

describe('authentication', () => {
  it.each([
    ['GET', '/api/facebook/status'],
    ['POST', '/api/auth/set-fb-token'],
    ['POST', '/api/auth/reset-fb-token'],
    ['GET', '/api/auth/get-fb-token'],
    ['POST', '/api/facebook/test-conversion'],
    ['GET', '/api/facebook/campaign/verify/1234567'],
    ['POST', '/api/auth/set-tiktok-token'],
    ['GET', '/api/auth/get-tiktok-token'],
    ['POST', '/api/auth/set-mediago-token'],
    ['GET', '/api/auth/get-mediago-token'],
    ['POST', '/api/auth/set-taboola'],
    ['GET', '/api/auth/get-taboola'],
    ['GET', '/api/postback-urls'],
  ])('%s %s answers 401 without a token', async (method, path) => {
    const res = await api(path, { method, body: method === 'POST' ? {} : undefined });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Unauthenticated.');
  });
});

describe('Facebook connect and disconnect', () => {
  it('answers the login dialog URL of the configured app', async () => {
    const res = await api('/api/facebook/status', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.enabled).toBe(true);
    const url = new URL(res.body.data.auth_url);
    expect(`${url.origin}${url.pathname}`).toBe('http://fakes.test/facebook/v26.0/dialog/oauth');
    expect(url.searchParams.get('client_id')).toBe('fake-app-id');
    expect(url.searchParams.get('redirect_uri')).toBe('http://tracker.test/integrations');
    expect(url.searchParams.get('scope')).toBe('ads_read,ads_management,business_management');
    // 32 random bytes, base64url: nothing in it names the user or can be made without the server.
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('exchanges the returned code, stores the token encrypted and answers it masked', async () => {
    const before = await api('/api/auth/get-fb-token', { token: admin });
    expect(before.body.data).toEqual({ token: '', status: 'inactive' });

    const status = await api('/api/facebook/status', { token: admin });
    const back = await loginCode(status.body.data.auth_url);
    expect(back.pathname).toBe('/integrations');
    const code = back.searchParams.get('code');
    expect(code).toMatch(/^fake-code-/);
    // The dialog sends back the state it was given, as a real OAuth dialog does.
    const state = back.searchParams.get('state');
    expect(state).toBe(new URL(status.body.data.auth_url).searchParams.get('state'));
    const res = await api('/api/auth/set-fb-token', { token: admin, body: { code, state } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: 'success', message: 'Facebook connected successfully!' });

    // The login's short-lived token (EAAF...) is traded for the long-lived one (EAAL..., about 60
    // days) before anything is stored, and its expiry is stored with it (decision 146).
    const saved = await getCredential(env, 'facebook', adminId);
    const plain = saved?.token ?? '';
    expect(plain).toMatch(/^EAAL/);
    expect(saved?.expiresAt).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    const stored = await row('facebook', adminId);
    expect(stored?.token.startsWith('enc:v1:')).toBe(true);
    expect(stored?.token).not.toContain(plain);
    expect(stored?.status).toBe('active');

    const read = await api('/api/auth/get-fb-token', { token: admin });
    expect(read.body.data).toEqual({ token: `••••${plain.slice(-4)}`, status: 'active' });
    expect(JSON.stringify(read.body)).not.toContain(plain);
  });

  it('answers the spec message when Facebook refuses the code, and keeps the stored token', async () => {
    const res = await api('/api/auth/set-fb-token', {
      token: admin,
      body: { code: 'bad-code', state: await freshState(admin) },
    });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('Failed to connect Facebook. Please try again.');
    expect(res.body.errors.message).toEqual([
      'Failed to connect Facebook. Please try again.',
      'Invalid verification code format.',
    ]);
    expect((await api('/api/auth/get-fb-token', { token: admin })).body.data.status).toBe('active');
  });

  it('gives up on a slow Facebook after the timeout with the same message', async () => {
    const res = await api('/api/auth/set-fb-token', {
      token: student.token,
      body: { code: 'slow-code', state: await freshState(student.token) },
    });
    expect(res.status).toBe(504);
    expect(res.body.message).toBe('Failed to connect Facebook. Please try again.');
    expect(await row('facebook', student.id)).toBeNull();
  });

  it('refuses a missing code and state with 422', async () => {
    const res = await api('/api/auth/set-fb-token', { token: admin, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      code: ['The Facebook login code is missing.'],
      state: ['The Facebook login state is missing.'],
    });
  });

  it('the login dialog sends back an error when the user cancels', async () => {
    const status = await api('/api/facebook/status', { token: admin });
    const back = await loginCode(status.body.data.auth_url, true);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.has('code')).toBe(false);
  });
});

describe('Facebook OAuth state (docs/decisions/123)', () => {
  const setToken = (token: string, body: Record<string, unknown>) =>
    api('/api/auth/set-fb-token', { token, body });

  /** Runs the login dialog for the holder of `token`: the code and state it sends back. */
  async function dialog(token: string) {
    const status = await api('/api/facebook/status', { token });
    const back = await loginCode(status.body.data.auth_url);
    return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
  }

  async function expectRefused(token: string, userId: number, body: Record<string, unknown>) {
    const res = await setToken(token, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(M.fbStateInvalid);
    expect(res.body.errors).toEqual({ message: [M.fbStateInvalid] });
    expect(await row('facebook', userId)).toBeNull();
  }

  it("refuses the attacker's code with a forged state: 400, no token stored", async () => {
    const attacker = await userWithRole(admin, 'student');
    const victim = await userWithRole(admin, 'student');
    const { code } = await dialog(attacker.token);
    await expectRefused(victim.token, victim.id, { code, state: '999.forged' });
    await expectRefused(victim.token, victim.id, { code, state: `${victim.id}.forged` });
  });

  it("refuses another user's state, which its owner can still use", async () => {
    const attacker = await userWithRole(admin, 'student');
    const victim = await userWithRole(admin, 'student');
    const login = await dialog(attacker.token);
    await expectRefused(victim.token, victim.id, login);
    const own = await setToken(attacker.token, login);
    expect(own.status).toBe(200);
    expect((await row('facebook', attacker.id))?.status).toBe('active');
  });

  it('uses a state once: the second exchange with it is refused', async () => {
    const user = await userWithRole(admin, 'student');
    const login = await dialog(user.token);
    expect((await setToken(user.token, login)).status).toBe(200);
    await api('/api/auth/reset-fb-token', { token: user.token, body: {} });
    const again = await setToken(user.token, login);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(M.fbStateInvalid);
    expect((await api('/api/auth/get-fb-token', { token: user.token })).body.data.status).toBe('inactive');
  });

  it('lets only one of two parallel exchanges with the same state through', async () => {
    const user = await userWithRole(admin, 'student');
    const login = await dialog(user.token);
    const answers = await Promise.all([setToken(user.token, login), setToken(user.token, login)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });

  it('expires a state after 10 minutes', async () => {
    const user = await userWithRole(admin, 'student');
    const login = await dialog(user.token);
    const stored = await env.DB.prepare(
      'SELECT state_hash, expires_at, created_at FROM oauth_states WHERE user_id = ?1',
    )
      .bind(user.id)
      .first<{ state_hash: string; expires_at: number; created_at: number }>();
    expect(stored!.expires_at - stored!.created_at).toBe(10 * 60 * 1000);
    expect(stored!.state_hash).toMatch(/^[0-9a-f]{64}$/); // only its hash is kept
    expect(stored!.state_hash).not.toContain(login.state);
    await env.DB.prepare('UPDATE oauth_states SET expires_at = ?2 WHERE user_id = ?1')
      .bind(user.id, Date.now() - 1)
      .run();
    await expectRefused(user.token, user.id, login);
  });
});

describe('Facebook conversion test', () => {
  it('needs a connected Facebook account', async () => {
    const res = await api('/api/facebook/test-conversion', {
      token: student.token,
      body: { dataset_id: '123456789', test_event_code: 'TEST123' },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Connect Facebook first.');
  });

  it('checks both fields in order', async () => {
    const res = await api('/api/facebook/test-conversion', { token: admin, body: { dataset_id: ' ' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      dataset_id: ['Dataset ID is required.'],
      test_event_code: ['Test event code is required.'],
    });
  });

  it('sends one test event and answers the spec messages', async () => {
    const ok = await api('/api/facebook/test-conversion', {
      token: admin,
      body: { dataset_id: '123456789', test_event_code: 'TEST123' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({
      status: 'success',
      message: 'Conversion test succeeded.',
      events_received: 1,
    });

    const bad = await api('/api/facebook/test-conversion', {
      token: admin,
      body: { dataset_id: 'not-a-dataset', test_event_code: 'TEST123' },
    });
    expect(bad.status).toBe(502);
    expect(bad.body.message).toBe('Conversion test failed.');
    expect(bad.body.errors.message[1]).toContain("Object with ID 'not-a-dataset' does not exist");
  });
});

describe('Facebook campaign verification and the save rule', () => {
  it('refuses an id that is not a Facebook id, and needs a connected account', async () => {
    const bad = await api('/api/facebook/campaign/verify/12ab', { token: admin });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Facebook campaign ID must be valid.');
    const notConnected = await api('/api/facebook/campaign/verify/1234567', { token: student.token });
    expect(notConnected.status).toBe(409);
  });

  it('answers code, is_internal and is_external, and a campaign saves only with the verification', async () => {
    const found = await api('/api/facebook/campaign/verify/1234567', { token: admin });
    expect(found.status).toBe(200);
    expect(found.body.code).toBe(200);
    expect(found.body.data).toMatchObject({
      is_internal: false,
      is_external: true,
      name: 'Campaign 1234567',
      message: 'Facebook campaign verified.',
    });
    const verification = found.body.data.verification as string;
    expect(verification.length).toBeGreaterThan(10);

    const missing = await api('/api/facebook/campaign/verify/12345', { token: admin });
    expect(missing.status).toBe(200);
    expect(missing.body.code).toBe(404);
    expect(missing.body.data).toMatchObject({ is_internal: false, is_external: false, verification: '' });

    const spec =
      'Please verify the facebook campaign first before saving. Facebook campaign ID must be valid.';
    const save = (metainfo: Record<string, unknown>) =>
      api('/api/add-campaign', { token: admin, body: { name: 'FB', trafficSource: 'facebook', metainfo } });
    // The browser's word alone is not enough: verified without the server's signature.
    const unsigned = await save({ facebook_campaign_id: '1234567', verified: true });
    expect(unsigned.status).toBe(422);
    expect(unsigned.body.errors).toEqual({ trafficSource: [spec] });
    // A verification of another id does not carry over.
    const other = await save({ facebook_campaign_id: '7654321', verified: true, verification });
    expect(other.status).toBe(422);
    expect(other.body.errors.trafficSource).toEqual([spec]);
    const forged = await save({
      facebook_campaign_id: '1234567',
      verified: true,
      verification: 'AAAAAAAAAAAAAAAA',
    });
    expect(forged.status).toBe(422);
    const count = await env.DB.prepare("SELECT count(*) n FROM campaigns WHERE name = 'FB'").first<{
      n: number;
    }>();
    expect(count?.n).toBe(0);

    const saved = await save({ facebook_campaign_id: '1234567', verified: true, verification });
    expect(saved.status).toBe(201);
    const id = saved.body.data.campaign.campaignData.campaignId;

    // Now this installation tracks it: is_internal, except for the campaign itself.
    const again = await api('/api/facebook/campaign/verify/1234567', { token: admin });
    expect(again.body.data.is_internal).toBe(true);
    const self = await api(`/api/facebook/campaign/verify/1234567?campaignId=${id}`, { token: admin });
    expect(self.body.data.is_internal).toBe(false);

    // An edit keeps the saved verification; changing the id without a new one is refused.
    const detail = (await api(`/api/campaign?campaignId=${id}`, { token: admin })).body.data;
    const edit = (metainfo: Record<string, unknown>) =>
      api('/api/edit-campaign', {
        method: 'PUT',
        token: admin,
        body: { campaignId: id, name: 'FB edited', trafficSource: 'facebook', metainfo },
      });
    expect((await edit(detail.metainfo)).status).toBe(200);
    const changed = await edit({ ...detail.metainfo, facebook_campaign_id: '9999999' });
    expect(changed.status).toBe(422);
    expect(changed.body.errors.trafficSource).toEqual([spec]);
  });

  it('a Facebook failure answers the editor message', async () => {
    // Campaign ids are digits, so the fake's magic values cannot be used: tell it to fail once.
    const control = await env.PLATFORM_FAKES!.fetch('http://fakes.test/__control', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: '7777777', fail: 'fail-500', times: 1 }),
    });
    expect(control.status).toBe(200);
    const failed = await api('/api/facebook/campaign/verify/7777777', { token: admin });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe('Error encountered while verifying campaign. Please try again.');
  });
});

describe('a refused Facebook token', () => {
  it('answers the spec message and shows the connection as inactive', async () => {
    const coach = await userWithRole(admin, 'coach');
    await connectFacebook(coach.token);
    // Facebook now refuses this token (code 190, session expired).
    const plain = (await getCredential(env, 'facebook', coach.id))?.token ?? '';
    await env.PLATFORM_FAKES!.fetch('http://fakes.test/__control', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: plain, fail: 'fail-401', times: 1 }),
    });
    const res = await api('/api/facebook/test-conversion', {
      token: coach.token,
      body: { dataset_id: '123456789', test_event_code: 'TEST1' },
    });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('Conversion test failed.');
    expect(res.body.errors.message[1]).toContain('Error validating access token');
    expect((await api('/api/auth/get-fb-token', { token: coach.token })).body.data.status).toBe('inactive');
  });
});

describe('Facebook disconnect', () => {
  it('drops the token and answers the spec messages', async () => {
    await connectFacebook(student.token);
    const res = await api('/api/auth/reset-fb-token', { token: student.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: 'success', message: 'Facebook disconnected!' });
    expect(await row('facebook', student.id)).toMatchObject({ token: '', status: 'inactive' });
    const read = await api('/api/auth/get-fb-token', { token: student.token });
    expect(read.body.data).toEqual({ token: '', status: 'inactive' });
    const twice = await api('/api/auth/reset-fb-token', { token: student.token, body: {} });
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe('Failed to disconnect Facebook.');
    // The admin's own connection is untouched.
    expect((await api('/api/auth/get-fb-token', { token: admin })).body.data.status).toBe('active');
  });
});

describe('TikTok, MediaGo and Taboola credentials', () => {
  it.each(['tiktok', 'mediago'])('%s: saves the token encrypted and answers it masked', async (platform) => {
    const plain = `${platform}-secret-token-98765`;
    const empty = await api(`/api/auth/set-${platform}-token`, { token: admin, body: { api_token: '  ' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ api_token: ['Token is required.'] });

    const res = await api(`/api/auth/set-${platform}-token`, { token: admin, body: { api_token: plain } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: 'success', message: 'Token saved!' });
    const stored = await row(platform, adminId);
    expect(stored?.token.startsWith('enc:v1:')).toBe(true);
    expect(stored?.token).not.toContain(plain);
    expect((await getCredential(env, platform as 'tiktok', adminId))?.token).toBe(plain);

    const read = await api(`/api/auth/get-${platform}-token`, { token: admin });
    expect(read.body.data).toEqual({ token: '••••8765' });
    // Each user has their own: the student has none.
    expect((await api(`/api/auth/get-${platform}-token`, { token: student.token })).body.data).toEqual({
      token: '',
    });
  });

  it('Taboola: checks both fields in order, stores both encrypted and answers both masked', async () => {
    const bad = await api('/api/auth/set-taboola', { token: admin, body: {} });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      client_id: ['Client ID is required.'],
      client_secret: ['Client secret is required.'],
    });
    const res = await api('/api/auth/set-taboola', {
      token: admin,
      body: { client_id: 'acme-client-1234', client_secret: 'very-secret-5678' },
    });
    expect(res.body.data).toEqual({ status: 'success', message: 'Taboola saved!' });
    const stored = await row('taboola', adminId);
    expect(stored?.token).not.toContain('very-secret-5678');
    expect(stored?.client_id).not.toContain('acme-client-1234');
    expect(stored?.client_id.startsWith('enc:v1:')).toBe(true);
    const read = await api('/api/auth/get-taboola', { token: admin });
    expect(read.body.data).toEqual({ client_id: '••••1234', client_secret: '••••5678' });
  });
});

describe('GET /api/postback-urls', () => {
  it("answers each network's postback and pixel URL with its macro, and its setup video when one exists", async () => {
    await env.BUCKET.put('public/videos/postback-clickbank.mp4', new Uint8Array([0, 0, 0, 24]), {
      customMetadata: { title: 'ClickBank postback in two minutes' },
    });
    const res = await api('/api/postback-urls', { token: student.token });
    expect(res.status).toBe(200);
    const rows = res.body.data as any[];
    expect(rows.map((r) => [r.network, r.param, r.macro])).toEqual([
      ['clickbank', 'tid', '{tid}'],
      ['mediamaven', 'subid', '{subid}'],
      ['maxweb', 'subid', '{subid}'],
      ['sellhealth', 't1', '{t1}'],
      ['oasisads', 's1', '{s1}'],
    ]);
    expect(rows[0]).toMatchObject({
      label: 'ClickBank',
      postback_url: 'https://tracker.example.com/postback?clickid={tid}',
      pixel_url: 'https://tracker.example.com/pixel.gif?clickid={tid}',
    });
    expect(rows[3].postback_url).toBe('https://tracker.example.com/postback?clickid={t1}');
    expect(rows[0].video).toEqual({
      title: 'ClickBank postback in two minutes',
      url: '/files/public/videos/postback-clickbank.mp4',
      type: 'file',
      id: 'clickbank',
    });
    expect(rows[1].video).toBeNull();
  });
});
