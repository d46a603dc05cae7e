import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { login, setupInstallation, userWithRole } from '../factories/install';

// Issue 17 item 5: /register knows whether sign-up is open before asking for anything, and an
// admin disables, enables and deletes users (docs/decisions/116), roles enforced on the server.

let admin: string;
let adminId: number;

const loginAs = (username: string, password: string) =>
  api('/api/auth/login', { body: { username, password, loginToken: '', hash: '' } });

beforeAll(async () => {
  admin = await setupInstallation();
  adminId = (await api('/api/user', { token: admin })).body.data.user.id;
});

describe('GET /api/registration', () => {
  it('says sign-up is closed without a token (REGISTRATION_ENABLED is false here)', async () => {
    const res = await api('/api/registration');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ open: false });
    // And the register call itself still refuses.
    const reg = await api('/api/auth/register', {
      body: { name: 'newbie', email: 'n@example.com', password: 'Passw0rd!x' },
    });
    expect(reg.status).toBe(403);
  });
});

describe('POST /api/auth/register with sign-up on', () => {
  it('creates a student who can sign in and answers "Successfully registered." (spec 1 §4, §8)', async () => {
    const vars = env as unknown as { REGISTRATION_ENABLED?: string };
    const before = vars.REGISTRATION_ENABLED;
    vars.REGISTRATION_ENABLED = 'true';
    try {
      expect((await api('/api/registration')).body.data).toEqual({ open: true });
      const reg = await api('/api/auth/register', {
        body: { name: 'signup-d1', email: 'signup-d1@example.com', password: 'Signup-pass-1' },
      });
      expect(reg.status).toBe(201);
      expect(reg.body.data.message).toBe('Successfully registered.');
      expect(reg.body.data.user).toMatchObject({ username: 'signup-d1', email: 'signup-d1@example.com' });
      const signIn = await loginAs('signup-d1', 'Signup-pass-1');
      expect(signIn.status).toBe(200);
      const me = await api('/api/user', { token: signIn.body.data.token });
      expect(me.body.data.user).toMatchObject({ username: 'signup-d1', role: 'student|Student' });
    } finally {
      vars.REGISTRATION_ENABLED = before;
    }
  });
});

describe('disabling a user', () => {
  it('refuses their existing token and their sign-in, and enabling lets them back', async () => {
    const student = await userWithRole(admin, 'student');
    expect((await api('/api/user', { token: student.token })).status).toBe(200);
    const off = await api(`/api/users/${student.id}/status`, {
      method: 'PUT',
      token: admin,
      body: { disabled: true },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({
      message: 'User disabled. They can no longer sign in.',
      id: student.id,
      disabled: true,
    });
    const stale = await api('/api/user', { token: student.token });
    expect(stale.status).toBe(401);
    const signIn = await loginAs(student.username, student.password);
    expect(signIn.status).toBe(403);
    expect(signIn.body.message).toBe('This account is disabled. Ask an administrator to enable it.');
    const list = await api('/api/users', { token: admin });
    expect(list.body.data.result.find((u: any) => u.id === student.id).disabled).toBe(true);

    const on = await api(`/api/users/${student.id}/status`, {
      method: 'PUT',
      token: admin,
      body: { disabled: false },
    });
    expect(on.body.data.message).toBe('User enabled. They can sign in again.');
    const again = await login(student.username, student.password);
    expect((await api('/api/user', { token: again })).body.data.user.disabled).toBe(false);
  });

  it('is an admin-only call that refuses the admin themselves and bad input', async () => {
    const coach = await userWithRole(admin, 'coach');
    const student = await userWithRole(admin, 'student');
    const byCoach = await api(`/api/users/${student.id}/status`, {
      method: 'PUT',
      token: coach.token,
      body: { disabled: true },
    });
    expect(byCoach.status).toBe(403);
    const self = await api(`/api/users/${adminId}/status`, {
      method: 'PUT',
      token: admin,
      body: { disabled: true },
    });
    expect(self.status).toBe(422);
    expect(self.body.errors.disabled).toEqual(['You cannot disable your own account.']);
    const bad = await api(`/api/users/${student.id}/status`, {
      method: 'PUT',
      token: admin,
      body: { disabled: 'yes' },
    });
    expect(bad.status).toBe(422);
    const missing = await api('/api/users/999999/status', {
      method: 'PUT',
      token: admin,
      body: { disabled: true },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('User not found.');
    // Nothing changed by the refused calls.
    expect((await api('/api/user', { token: student.token })).status).toBe(200);
  });
});

describe('deleting a user', () => {
  it("keeps their campaigns, now the deleting admin's, and ends their access", async () => {
    const student = await userWithRole(admin, 'student');
    const kept = await makeCampaign(student.token, { name: 'Student campaign kept' });
    const coach = await userWithRole(admin, 'coach');
    expect((await api(`/api/users/${student.id}`, { method: 'DELETE', token: coach.token })).status).toBe(
      403,
    );
    expect((await api(`/api/users/${adminId}`, { method: 'DELETE', token: admin })).status).toBe(422);

    const res = await api(`/api/users/${student.id}`, { method: 'DELETE', token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ message: 'User deleted.', id: student.id, reassignedCampaigns: 1 });
    const row = await env.DB.prepare('SELECT created_by, deleted FROM campaigns WHERE id = ?1')
      .bind(kept)
      .first();
    expect(row).toEqual({ created_by: adminId, deleted: 0 });
    expect((await api(`/api/campaign?campaignId=${kept}`, { token: admin })).status).toBe(200);
    expect((await api('/api/user', { token: student.token })).status).toBe(401);
    expect((await loginAs(student.username, student.password)).status).toBe(401);
    const users = (await api('/api/users', { token: admin })).body.data.result;
    expect(users.some((u: any) => u.id === student.id)).toBe(false);
    expect((await api(`/api/users/${student.id}`, { method: 'DELETE', token: admin })).status).toBe(404);
  });
});
