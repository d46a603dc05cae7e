import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  credentialFor,
  deleteCredential,
  getCredential,
  maskedCredential,
  setCredential,
  setCredentialStatus,
} from '../../worker/services/integrations/credentials';

// The credentials service the integrations routes and the syncs share (docs/decisions/071).

describe('platform credentials', () => {
  it('stores secrets encrypted, answers them in clear to the server and masked to screens', async () => {
    const masked = await setCredential(env, 'taboola', 7, {
      clientId: 'client-abcd1234',
      token: 'secret-wxyz9876',
    });
    expect(masked).toMatchObject({
      connected: true,
      status: 'active',
      tokenLast4: '9876',
      clientIdLast4: '1234',
    });
    const row = await env.DB.prepare(
      "SELECT * FROM platform_credentials WHERE platform = 'taboola' AND user_id = 7",
    ).first<Record<string, string>>();
    expect(row!.token).toMatch(/^enc:v1:/);
    expect(row!.client_id).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain('secret-wxyz9876');
    expect(JSON.stringify(row)).not.toContain('client-abcd1234');
    expect(await getCredential(env, 'taboola', 7)).toMatchObject({
      token: 'secret-wxyz9876',
      clientId: 'client-abcd1234',
    });
    expect(await maskedCredential(env, 'taboola', 7)).toEqual({
      platform: 'taboola',
      connected: true,
      status: 'active',
      tokenLast4: '9876',
      clientIdLast4: '1234',
      expiresAt: null,
      updatedAt: expect.any(Number),
    });
  });

  it('does not decrypt a value copied to another row', async () => {
    await setCredential(env, 'mediago', 8, { token: 'mg-token-1111' });
    await env.DB.prepare(
      `INSERT INTO platform_credentials (platform, user_id, token, token_last4)
       SELECT platform, 9, token, token_last4 FROM platform_credentials WHERE platform = 'mediago' AND user_id = 8`,
    ).run();
    expect((await getCredential(env, 'mediago', 9))?.token).toBe('');
    expect(await credentialFor(env, 'mediago', 9)).toBeNull();
  });

  it("uses the owner's own active credential first, then the installation's", async () => {
    await setCredential(env, 'facebook', null, { token: 'installation-token' });
    await setCredential(env, 'facebook', 21, { token: 'owner-token' });
    expect((await credentialFor(env, 'facebook', 21))?.token).toBe('owner-token');
    expect((await credentialFor(env, 'facebook', 22))?.token).toBe('installation-token');
    await setCredentialStatus(env, 'facebook', 21, 'inactive');
    expect((await credentialFor(env, 'facebook', 21))?.token).toBe('installation-token');
    expect(await deleteCredential(env, 'facebook', null)).toBe(true);
    expect(await deleteCredential(env, 'facebook', null)).toBe(false);
    expect(await credentialFor(env, 'facebook', 21)).toBeNull();
    // An admin's credential serves the installation's campaigns when neither of the others exists.
    const admin = await env.DB.prepare(
      "INSERT INTO users (username, email, password_hash, role) VALUES ('li-admin', 'a@example.com', 'x', 'admin') RETURNING id",
    ).first<{ id: number }>();
    await setCredential(env, 'facebook', admin!.id, { token: 'admin-token' });
    expect((await credentialFor(env, 'facebook', 21))?.token).toBe('admin-token');
    expect((await credentialFor(env, 'facebook', null))?.token).toBe('admin-token');
    expect(await maskedCredential(env, 'facebook', null)).toMatchObject({
      connected: false,
      status: 'inactive',
      tokenLast4: '',
    });
  });
});
