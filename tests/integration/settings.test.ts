import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_MESSAGES as M } from '../../schema/settings-api';
import { liveIntentAccounts } from '../../worker/services/settings/settings-form';
import { api, expectFieldErrors } from '../factories/api';
import { makeCampaign, makeLanding } from '../factories/campaigns';
import { login, setupInstallation, userWithRole } from '../factories/install';
import { hit } from '../factories/traffic';

// GET /api/settings and POST /api/update-setting (spec 2 §2, §3, §5, §7): every rule and
// message, uploads with their byte checks, password change, LiveIntent credentials encrypted
// at rest, and who may change what.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]);
const ICO = new Uint8Array([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]);
const GIF = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]);

let admin: string;

const BASIC = {
  baseUrl: 'https://tracker.example.com',
  email: 'owner@example.com',
  title: 'Acme Tracking',
  timeZone: 'America/New_York',
  customDomain: '',
  route_main: 'go',
  route_click: 'click',
  route_image: 'pixel.gif',
  route_iframe: 'iframe',
  route_script: 'script.js',
  route_postback: 'postback',
};

function form(fields: Record<string, string | Blob | [Uint8Array, string]>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) data.append(key, new File([value[0]], value[1]));
    else data.append(key, value);
  }
  return data;
}

const update = (fields: Record<string, string | Blob | [Uint8Array, string]>, token = admin) =>
  api('/api/update-setting', { token, body: form(fields) });

beforeAll(async () => {
  admin = await setupInstallation();
});

describe('GET /api/settings', () => {
  it('answers the admin every installation setting with the defaults', async () => {
    const res = await api('/api/settings', { token: admin });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      username: 'owner',
      role: 'admin|Administrator',
      canManage: true,
      baseUrl: 'https://tracker.example.com',
      email: 'owner@example.com',
      title: 'Edge Tracker',
      favicon: '',
      logo: '',
      timeZone: 'America/New_York',
      customDomain: '',
      appDomain: 'tracker.example.com',
      currentDomain: 'tracker.test',
      route_main: 'go',
      route_click: 'click',
      route_image: 'pixel.gif',
      route_iframe: 'iframe',
      route_script: 'script.js',
      route_postback: 'postback',
      has_liveintent_account: false,
      liFetchEnable: 0,
      liPasswordSet: false,
      retrieveNumDays: 7,
      pretrieveNumDays: 7,
      pliPauseAll: 0,
    });
  });

  it('answers a student only their own account, and nobody without a token', async () => {
    const student = await userWithRole(admin, 'student');
    const res = await api('/api/settings', { token: student.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      username: student.username,
      userEmail: `${student.username}@example.com`,
      role: 'student|Student',
      canManage: false,
    });
    expect((await api('/api/settings')).status).toBe(401);
  });
});

describe('POST /api/update-setting: the basic pane', () => {
  it('checks base url, email, title, the routes and the time zone in the spec order', async () => {
    const res = await update({
      baseUrl: '',
      email: '',
      title: ' ',
      timeZone: '',
      route_main: '',
      route_click: '',
      route_image: '',
      route_iframe: '',
      route_script: '',
      route_postback: '',
    });
    expect(res.body.message).toBe(M.baseUrlRequired);
    expectFieldErrors(res, {
      baseUrl: [M.baseUrlRequired],
      email: [M.emailRequired],
      title: [M.titleRequired],
      route_main: [M.routeMainRequired],
      route_click: [M.routeClickRequired],
      route_image: [M.routeImageRequired],
      route_iframe: [M.routeIframeRequired],
      route_script: [M.routeScriptRequired],
      route_postback: [M.routePostbackRequired],
      timeZone: [M.timezoneRequired],
    });
  });

  it('checks formats: URL, email pattern, route characters, reserved and repeated routes, zone, domain', async () => {
    const res = await update({
      ...BASIC,
      baseUrl: 'ftp://tracker.example.com',
      email: 'not-an-email',
      route_main: 'go/deeper',
      route_click: 'api',
      route_image: 'campaigns',
      route_iframe: 'GO2',
      route_script: 'go2',
      timeZone: 'Mars/Olympus',
      customDomain: 'not a host',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      baseUrl: [M.baseUrlInvalid],
      email: [M.emailInvalid],
      route_main: [M.routeInvalid],
      route_click: [M.routeReserved],
      route_image: [M.routeReserved],
      route_script: [M.routeDuplicate],
      customDomain: [M.customDomainInvalid],
    });
    // The zone is checked once the form is otherwise valid.
    const zone = await update({ ...BASIC, timeZone: 'Mars/Olympus' });
    expect(zone.status).toBe(422);
    expect(zone.body.errors).toEqual({ timeZone: [M.timezoneInvalid] });
    const unchanged = await api('/api/settings', { token: admin });
    expect(unchanged.body.data.title).toBe('Edge Tracker');
  });

  it('saves the pane; the tracking handler follows a changed route at once', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Route test', campaignType: 'landing_page' });
    await makeLanding(admin, campaignId, { url: 'https://lp.example/route-test' });
    const res = await update({
      ...BASIC,
      title: '  Acme Tracking  ',
      route_main: '/visit/',
      baseUrl: 'https://track.acme.test/',
      customDomain: 'https://Go.Acme.test/',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      message: 'Setting has been successfully Updated.',
      favicon: '',
      logo: '',
      title: 'Acme Tracking',
    });
    const s = (await api('/api/settings', { token: admin })).body.data;
    expect(s).toMatchObject({
      title: 'Acme Tracking',
      route_main: 'visit',
      baseUrl: 'https://track.acme.test',
      customDomain: 'go.acme.test',
      timeZone: 'America/New_York',
    });

    const visit = await hit(`/visit/${campaignId}?tid=ad1`);
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toMatch(/^https:\/\/lp\.example\/route-test/);
    const old = await hit(`/go/${campaignId}?tid=ad1`);
    expect(old.headers.get('location') ?? '').not.toMatch(/lp\.example/);

    const logo = await api('/api/logo');
    expect(logo.body.data.title).toBe('Acme Tracking');
    await update(BASIC);
  });
});

describe('POST /api/update-setting: favicon and logo', () => {
  it('stores a png logo and an ico favicon in R2 and serves them under /files/public/', async () => {
    const res = await update({ logo: [PNG, 'brand.PNG'], favicon: [ICO, 'favicon.ico'] });
    expect(res.status).toBe(200);
    const { logo, favicon } = res.body.data;
    expect(logo).toMatch(/^\/files\/public\/branding\/logo-[\w-]+\.png$/);
    expect(favicon).toMatch(/^\/files\/public\/branding\/favicon-[\w-]+\.ico$/);

    const served = await api(logo);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const ico = await api(favicon);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    const public_ = await api('/api/logo');
    expect(public_.body.data).toMatchObject({ logo, favicon, transparent_logo: logo });

    // A new logo replaces the old file; reset goes back to the built-in one and removes it.
    const jpeg = await update({ logo: [JPEG, 'brand.jpeg'] });
    expect(jpeg.body.data.logo).toMatch(/^\/files\/public\/branding\/logo-[\w-]+\.jpg$/);
    expect(await env.BUCKET.get(logo.replace('/files/', ''))).toBeNull();
    const reset = await update({ resetLogo: '1' });
    expect(reset.body.data.logo).toBe('');
    expect(reset.body.data.favicon).toBe(favicon);
    expect(await env.BUCKET.get(jpeg.body.data.logo.replace('/files/', ''))).toBeNull();
    expect((await api('/api/logo')).body.data.logo).toBe('');
  });

  it('refuses a favicon or logo of the wrong type, bytes or size', async () => {
    const cases: [Record<string, [Uint8Array, string]>, Record<string, string[]>][] = [
      [{ favicon: [JPEG, 'icon.jpg'] }, { favicon: [M.faviconType] }],
      [{ favicon: [GIF, 'icon.png'] }, { favicon: [M.faviconType] }],
      [{ favicon: [PNG, 'icon.ico'] }, { favicon: [M.faviconType] }],
      [{ logo: [GIF, 'logo.gif'] }, { logo: [M.logoType] }],
      [{ logo: [ICO, 'logo.png'] }, { logo: [M.logoType] }],
      [{ logo: [new TextEncoder().encode('<svg/>'), 'logo.jpg'] }, { logo: [M.logoType] }],
      [{ favicon: [ICO, 'icon'] }, { favicon: [M.faviconType] }],
    ];
    for (const [fields, errors] of cases) {
      const res = await update(fields);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual(errors);
    }
    const bigPng = new Uint8Array(2 * 1024 * 1024 + 1);
    bigPng.set(PNG);
    const big = await update({ logo: [bigPng, 'big.png'] });
    expect(big.body.errors).toEqual({ logo: [M.logoSize] });
    const bigIco = new Uint8Array(512 * 1024 + 1);
    bigIco.set(ICO);
    expect((await update({ favicon: [bigIco, 'big.ico'] })).body.errors).toEqual({
      favicon: [M.faviconSize],
    });
    // Nothing was stored by the refused uploads.
    expect((await api('/api/logo')).body.data.logo).toBe('');
  });

  it('writes nothing when one part of the form fails', async () => {
    const res = await update({ ...BASIC, title: 'Should not stick', logo: [GIF, 'logo.png'] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ logo: [M.logoType] });
    expect((await api('/api/settings', { token: admin })).body.data.title).toBe('Acme Tracking');
  });
});

describe('POST /api/update-setting: password change', () => {
  it('checks old, new and confirmation in order, with whitespace stripped', async () => {
    const user = await userWithRole(admin, 'coach');
    const empty = await update({ oldPassword: 'x', newPassword: ' ', confirmPassword: '' }, user.token);
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({
      oldPassword: [M.oldPasswordIncorrect],
      newPassword: [M.newPasswordRequired],
      confirmPassword: [M.confirmPasswordRequired],
    });
    const noOld = await update({ newPassword: 'Abc-defg-1', confirmPassword: 'Abc-defg-1' }, user.token);
    expect(noOld.body.errors).toEqual({ oldPassword: [M.oldPasswordRequired] });
    const mismatch = await update(
      { oldPassword: user.password, newPassword: 'New-pass-1', confirmPassword: 'New-pass-2' },
      user.token,
    );
    expect(mismatch.body.errors).toEqual({ confirmPassword: [M.confirmPasswordMismatch] });
    expect(mismatch.body.message).toBe(M.confirmPasswordMismatch);
    // Still the old password.
    await login(user.username, user.password);
  });

  it('changes the password, signs out every other session and hands this one a new token', async () => {
    const user = await userWithRole(admin, 'student');
    const other = await login(user.username, user.password);
    const res = await update(
      { oldPassword: ` ${user.password} `, newPassword: 'Brand new 9', confirmPassword: 'Brandnew9 ' },
      user.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Setting has been successfully Updated.');
    expect(res.body.data.token).toEqual(expect.any(String));
    expect((await api('/api/user', { token: other })).status).toBe(401);
    expect((await api('/api/user', { token: user.token })).status).toBe(401);
    expect((await api('/api/user', { token: res.body.data.token })).status).toBe(200);
    await login(user.username, 'Brandnew9');
    const old = await api('/api/auth/login', { body: { username: user.username, password: user.password } });
    expect(old.status).toBe(401);
  });

  it('lets a student change only their password: installation fields are the admin’s', async () => {
    const student = await userWithRole(admin, 'student');
    const attempts: Record<string, string>[] = [
      { title: 'Mine now' },
      { ...BASIC },
      { liAdvertiserId: 'abc' },
      { pliPauseAll: '1' },
      { resetLogo: '1' },
    ];
    for (const fields of attempts) {
      const res = await update(fields, student.token);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('This action is unauthorized.');
    }
    const logo = await update({ logo: [PNG, 'x.png'] }, student.token);
    expect(logo.status).toBe(403);
    expect((await api('/api/settings', { token: admin })).body.data.title).toBe('Acme Tracking');
    expect((await update({}, student.token)).status).toBe(200);
    expect((await api('/api/update-setting', { body: form({ title: 'x' }) })).status).toBe(401);
  });
});

describe('POST /api/update-setting: LiveIntent credentials', () => {
  it('checks the advertiser ids, then what fetching needs, in the spec order', async () => {
    const bad = await update({ liAdvertiserId: 'abc def', liAid: 'a/b', liFetchEnable: '0' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      liAdvertiserId: [M.advertiserIdInvalid],
      liAid: [M.advertiserAppIdInvalid],
    });

    const fetching = await update({
      liAdvertiserId: '',
      liAid: '',
      liFetchEnable: '1',
      liUsername: '',
      liPassword: '',
      retrieveNumDays: '',
    });
    expectFieldErrors(fetching, {
      liAdvertiserId: [M.advertiserIdRequired],
      liAid: [M.advertiserAppIdRequired],
      liUsername: [M.liUsernameRequired],
      liPassword: [M.liPasswordRequired],
      retrieveNumDays: [M.retrieveDaysRequired],
    });
    const days = await update({ pliFetchEnable: '0', pretrieveNumDays: '45' });
    expect(days.body.errors).toEqual({ pretrieveNumDays: [M.retrieveDaysInvalid] });
  });

  it('extracts a pasted aid=, stores credentials encrypted and never answers the password', async () => {
    const res = await update({
      liAdvertiserId: 'adv_42',
      liAid: 'https://lax.liveintent.com/reports?foo=1&aid=app-7_x&bar=2',
      liFetchEnable: '1',
      liUsername: 'buyer@acme.test',
      liPassword: ' s3cret pass ',
      retrieveNumDays: '-1',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe(M.updated);

    const rows = await env.DB.prepare(
      "SELECT key, value FROM settings WHERE key LIKE 'li\\_%' ESCAPE '\\'",
    ).all<{
      key: string;
      value: string;
    }>();
    const stored = Object.fromEntries(rows.results.map((r) => [r.key, r.value]));
    expect(stored).toMatchObject({
      li_advertiser_id: 'adv_42',
      li_aid: 'app-7_x',
      li_fetch_enable: '1',
      li_retrieve_num_days: '-1',
    });
    // At rest: neither the password nor the username in clear.
    expect(stored.li_password).toMatch(/^enc:v1:/);
    expect(stored.li_username).toMatch(/^enc:v1:/);
    expect(stored.li_password).not.toContain('s3cret');
    expect(JSON.stringify(stored)).not.toContain('buyer@acme.test');

    const s = (await api('/api/settings', { token: admin })).body.data;
    expect(s).toMatchObject({
      liAdvertiserId: 'adv_42',
      liAid: 'app-7_x',
      liFetchEnable: 1,
      liUsername: 'buyer@acme.test',
      liPasswordSet: true,
      retrieveNumDays: -1,
      has_liveintent_account: true,
    });
    expect(JSON.stringify(s)).not.toContain('s3cret');
    expect(s).not.toHaveProperty('liPassword');

    // The sync of a later release reads the clear values; whitespace was stripped.
    const accounts = await liveIntentAccounts(env);
    expect(accounts.own).toEqual({
      advertiserId: 'adv_42',
      aid: 'app-7_x',
      fetchEnabled: true,
      username: 'buyer@acme.test',
      password: 's3cretpass',
      retrieveNumDays: -1,
    });

    // A blank password keeps the stored one, so saving again needs no re-entry.
    const again = await update({
      liAdvertiserId: 'adv_43',
      liAid: 'aid=app-8',
      liFetchEnable: '1',
      liUsername: 'buyer@acme.test',
      liPassword: '',
      retrieveNumDays: '30',
    });
    expect(again.status).toBe(200);
    const after = await liveIntentAccounts(env);
    expect(after.own).toMatchObject({
      advertiserId: 'adv_43',
      aid: 'app-8',
      password: 's3cretpass',
      retrieveNumDays: 30,
    });
    // The value is bound to its name: copied under another key it does not decrypt.
    await env.DB.prepare(
      "UPDATE settings SET value = (SELECT value FROM settings WHERE key = 'li_password') WHERE key = 'li_username'",
    ).run();
    expect((await liveIntentAccounts(env)).own.username).toBe('');
    await update({ liUsername: 'buyer@acme.test' });
  });

  it('keeps the personal account apart, with its own days default and pause-all flag', async () => {
    const res = await update({
      pliAdvertiserId: 'p-1',
      pliAid: 'p_app',
      pliFetchEnable: '1',
      pliUsername: 'coach@acme.test',
      pliPassword: 'pw',
      pretrieveNumDays: '',
      pliPauseAll: '1',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ pretrieveNumDays: [M.retrieveDaysRequired] });
    const ok = await update({ pliAdvertiserId: 'p-1', pliAid: 'p_app', pliPauseAll: 'true' });
    expect(ok.status).toBe(200);
    const s = (await api('/api/settings', { token: admin })).body.data;
    expect(s).toMatchObject({
      pliAdvertiserId: 'p-1',
      pliAid: 'p_app',
      pliFetchEnable: 0,
      pliPasswordSet: false,
      pretrieveNumDays: 7,
      pliPauseAll: 1,
      liAdvertiserId: 'adv_43',
    });
  });
});
