import { describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { ADMIN, licenseKey, setupInput } from '../factories/install';

describe('first-run setup', () => {
  it('reports setup as not done on a fresh installation', async () => {
    const res = await api('/api/setup-created');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: false });
  });

  it('answers every failed check in the spec order, the first as the message', async () => {
    const res = await api('/api/auth/application_startup', { body: {} });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Username field is not valid.');
    // Each field with its first message, in this order.
    expect(Object.entries(res.body.errors).map(([field, m]) => [field, (m as string[])[0]])).toEqual([
      ['username', 'Username field is not valid.'],
      ['password', 'Password field is required.'],
      ['confirm_password', 'Confirm Password field is required.'],
      ['baseurl', 'Base url field is required.'],
      ['email', 'Email field is required.'],
      ['timezone', 'Timezone field is required.'],
      ['license_key', 'License key is required.'],
    ]);
  });

  it.each([
    [{ username: 'Admin' }, 'Username field is not valid.'],
    [{ password: '' }, 'Password field is required.'],
    [{ confirm_password: '   ' }, 'Confirm Password field is required.'],
    [{ confirm_password: 'other-secret' }, 'Confirm Password do not match with Password.'],
    [{ baseurl: '' }, 'Base url field is required.'],
    [{ email: '' }, 'Email field is required.'],
    [{ email: 'not-an-email' }, 'Please enter valid email address.'],
    [{ timezone: '' }, 'Timezone field is required.'],
    [{ timezone: 'Mars/Olympus_Mons' }, 'Timezone field is not valid.'],
    [{ license_key: '' }, 'License key is required.'],
    [{ license_key: 'garbage' }, 'Invalid email or licenseKey'],
  ])('refuses %j with its message', async (override, message) => {
    const res = await api('/api/auth/application_startup', { body: await setupInput(override) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(message);
    expect((await api('/api/setup-created')).body.data).toBe(false);
  });

  it('refuses a license issued to another email', async () => {
    const res = await api('/api/auth/application_startup', {
      body: await setupInput({ license_key: await licenseKey('someone-else@example.com') }),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.license_key).toEqual(['Invalid email or licenseKey']);
  });

  it('strips whitespace from the passwords, creates the admin and refuses a second setup', async () => {
    const body = await setupInput({ password: ` ${ADMIN.password} `, confirm_password: ADMIN.password });
    const res = await api('/api/auth/application_startup', { body });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Setup complete! You may now log in.');
    expect(res.body.data.token).toMatch(/^ey/);
    // The wizard sends the admin to log in: no session cookie is set by setup.
    expect(res.headers.get('set-cookie')).toBeNull();

    expect((await api('/api/setup-created')).body).toEqual({ data: true });
    const me = await api('/api/user', { token: res.body.data.token });
    expect(me.body.data.user).toMatchObject({ username: ADMIN.username, role: 'admin|Administrator' });

    const login = await api('/api/auth/login', {
      body: { username: ADMIN.username, password: ADMIN.password },
    });
    expect(login.body.data.license).toBe('active');

    const again = await api('/api/auth/application_startup', {
      body: await setupInput({ username: 'other' }),
    });
    expect(again.status).toBe(403);
    expect(again.body.errors.message).toEqual(['Setup has already been completed.']);
  });
});
