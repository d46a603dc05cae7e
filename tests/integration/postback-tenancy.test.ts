import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalidateSettings } from '../../worker/services/settings/settings';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { conversionTotals, dbValue, waitForCount } from '../factories/db';
import { setupInstallation, userWithRole } from '../factories/install';
import { clickIdOf, hit } from '../factories/traffic';

// Forged conversions across users (issue 24): the secret a campaign's postback URL shows is that
// campaign's alone, so one student cannot book a sale on another's campaign with it, nor with
// the installation's secret (admins only; it converts only in the grace period of existing
// installations). docs/tracking.md "Postback secret", docs/decisions/120.

type User = { token: string };
let admin: string;
let coach: User;
let student1: User;
let student2: User;

beforeAll(async () => {
  admin = await setupInstallation();
  coach = await userWithRole(admin, 'coach');
  student1 = await userWithRole(admin, 'student');
  student2 = await userWithRole(admin, 'student');
});

async function campaignOf(user: User, name: string) {
  const campaign = await makeCampaign(user.token, { name });
  await makeOffer(user.token, campaign, { payout: '10' });
  return campaign;
}

async function clickOf(campaign: number) {
  const res = await hit(`/go/${campaign}`);
  expect(res.status).toBe(302);
  const clickId = clickIdOf(res);
  await waitForCount('SELECT count(*) n FROM visits WHERE click_id = ?', [clickId], 1);
  return clickId;
}

const campaignSecret = async (user: User, campaign: number) => {
  const res = await api(`/api/campaigns/${campaign}/postback-secret`, { token: user.token });
  expect(res.status).toBe(200);
  return res.body.data.secret as string;
};

const installationSecret = async () => {
  const res = await api('/api/postback-secret', { token: admin });
  expect(res.status).toBe(200);
  return res.body.data.secret as string;
};

const postback = (clickId: string, secret: string, tx: string) =>
  api(`/postback?clickid=${clickId}&payout=99999&txid=${tx}&secret=${secret}`);

const settle = () => new Promise((r) => setTimeout(r, 300));

async function setGrace(until: number | null) {
  await env.DB.prepare(
    `INSERT INTO settings (key, value) VALUES ('postback_legacy_until', ?1)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
  )
    .bind(until === null ? '' : String(until))
    .run();
  invalidateSettings();
}

describe('postback secrets per campaign', () => {
  it("refuses a student's own campaign secret and the installation secret on another student's click", async () => {
    const own = await campaignOf(student1, 'Student 1');
    const victim = await campaignOf(student2, 'Student 2');
    const clickId = await clickOf(victim);

    const mine = await campaignSecret(student1, own);
    const installation = await installationSecret();
    expect(mine).toMatch(/^[\w-]{24}$/);
    expect(mine).not.toBe(installation);
    // The campaign endpoint answers only the campaign's managers.
    expect((await api(`/api/campaigns/${victim}/postback-secret`, { token: student1.token })).status).toBe(
      404,
    );

    for (const [secret, tx] of [
      [mine, 'X1'],
      [installation, 'X2'],
    ]) {
      const forged = await postback(clickId, secret, tx);
      expect(forged.status).toBe(403);
      expect(forged.body.message).toBe('The postback secret is missing or wrong.');
    }
    await settle();
    expect(await conversionTotals(victim)).toEqual({ conversions: 0, revenue_micros: 0 });
    await waitForCount(
      "SELECT coalesce(sum(count), 0) n FROM conversion_rejections WHERE campaign_id = ? AND reason = 'secret'",
      [victim],
      2,
    );

    // The victim's own secret (shown to its owner, a coach and the admin alike) converts it.
    const theirs = await campaignSecret(student2, victim);
    expect(await campaignSecret(coach, victim)).toBe(theirs);
    expect(await campaignSecret({ token: admin }, victim)).toBe(theirs);
    expect((await postback(clickId, theirs, 'OK-1')).status).toBe(200);
    await waitForCount('SELECT count(*) n FROM conversions WHERE campaign_id = ?', [victim], 1);
    expect(await dbValue('SELECT sum(payout_micros) n FROM conversions WHERE campaign_id = ?', victim)).toBe(
      99_999_000_000,
    );
    // The URLs the editor shows carry the same secret.
    const detail = await api(`/api/campaign?campaignId=${victim}`, { token: student2.token });
    expect(detail.body.data.linkpixel.postback).toContain(`&secret=${theirs}`);
  });

  it('shows and rotates the installation secret to admins only', async () => {
    for (const user of [coach, student1]) {
      for (const [path, method] of [
        ['/api/postback-secret', 'GET'],
        ['/api/postback-secret/rotate', 'POST'],
        ['/api/postback-secret/legacy/end', 'POST'],
      ]) {
        const res = await api(path, { method, token: user.token });
        expect(res.status, path).toBe(403);
        expect(JSON.stringify(res.body)).not.toContain(await installationSecret());
      }
    }
    expect((await api('/api/postback-secret')).status).toBe(401);
    expect((await api('/api/postback-secret/legacy/end', { method: 'POST' })).status).toBe(401);
    const res = await api('/api/postback-secret', { token: admin });
    expect(res.status).toBe(200);
    // A new installation has no grace period.
    expect(res.body.data.legacy).toEqual({ until: null, uses: 0, lastUsedAt: null, campaigns: [] });
  });

  it('rotates a campaign secret alone, and all derived ones with the installation secret', async () => {
    const a = await campaignOf(student1, 'Rotate A');
    const b = await campaignOf(student1, 'Rotate B');
    const clickA = await clickOf(a);
    const clickB = await clickOf(b);
    const [a1, b1] = [await campaignSecret(student1, a), await campaignSecret(student1, b)];
    expect(a1).not.toBe(b1);

    const own = await api(`/api/campaigns/${a}/postback-secret`, {
      token: student1.token,
      body: { own: true },
    });
    expect(own.status).toBe(200);
    const a2 = own.body.data.secret as string;
    expect((await postback(clickA, a1, 'R1')).status).toBe(403);
    expect((await postback(clickA, a2, 'R1')).status).toBe(200);
    expect(await campaignSecret(student1, b)).toBe(b1);

    expect((await api('/api/postback-secret/rotate', { method: 'POST', token: admin })).status).toBe(200);
    const b2 = await campaignSecret(student1, b);
    expect(b2).not.toBe(b1);
    expect(await campaignSecret(student1, a)).toBe(a2); // a stored secret stays
    expect((await postback(clickB, b1, 'R2')).status).toBe(403);
    expect((await postback(clickB, b2, 'R2')).status).toBe(200);
    await waitForCount('SELECT count(*) n FROM conversions WHERE campaign_id IN (?, ?)', [a, b], 2);
  });

  it('accepts the installation secret during the grace period, counts its uses, and not after the admin ends it', async () => {
    // Migration 0020 opens the grace period only where a secret already existed.
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0020_'))!;
    await env.DB.prepare("DELETE FROM settings WHERE key = 'postback_legacy_until'").run();
    await installationSecret();
    await env.DB.prepare(migration.queries[0]).run();
    invalidateSettings();
    const until = Number(
      (await env.DB.prepare("SELECT value FROM settings WHERE key = 'postback_legacy_until'").first<{
        value: string;
      }>())!.value,
    );
    expect(Math.abs(until - (Date.now() + 60 * 86_400_000))).toBeLessThan(120_000);

    const victim = await campaignOf(student2, 'Grace');
    const stored = await campaignOf(student2, 'Grace, own secret');
    await api(`/api/campaigns/${stored}/postback-secret`, { token: student2.token, body: { own: true } });
    const clickId = await clickOf(victim);
    const storedClick = await clickOf(stored);
    const legacy = await installationSecret();

    expect((await postback(clickId, legacy, 'G1')).status).toBe(200);
    expect((await postback(clickId, legacy, 'G2')).status).toBe(200);
    // A campaign with a stored secret never took the installation's: not in the grace period either.
    expect((await postback(storedClick, legacy, 'G3')).status).toBe(403);
    await waitForCount('SELECT count(*) n FROM conversions WHERE campaign_id = ?', [victim], 2);
    await waitForCount(
      'SELECT coalesce(sum(count), 0) n FROM postback_legacy_uses WHERE campaign_id = ?',
      [victim],
      2,
    );
    const state = await api('/api/postback-secret', { token: admin });
    expect(state.body.data.legacy).toMatchObject({
      until,
      uses: 2,
      campaigns: [{ id: victim, name: 'Grace', uses: 2 }],
    });
    expect(state.body.data.legacy.lastUsedAt).toBeGreaterThan(Date.now() - 60_000);

    const ended = await api('/api/postback-secret/legacy/end', { method: 'POST', token: admin });
    expect(ended.status).toBe(200);
    expect(ended.body.data.message).toBe(
      'The installation\u2019s postback secret no longer converts campaigns.',
    );
    expect(ended.body.data.legacy.until).toBeNull();
    const refused = await postback(clickId, legacy, 'G4');
    expect(refused.status).toBe(403);
    expect((await postback(clickId, await campaignSecret(student2, victim), 'G5')).status).toBe(200);
    await waitForCount('SELECT count(*) n FROM conversions WHERE campaign_id = ?', [victim], 3);
    await settle();
    expect(
      await dbValue(
        "SELECT count(*) n FROM conversions WHERE campaign_id = ? AND transaction_id = 'G4'",
        victim,
      ),
    ).toBe(0);
  });

  it('a grace period whose end date has passed accepts the installation secret no more', async () => {
    const victim = await campaignOf(student2, 'Grace over');
    const clickId = await clickOf(victim);
    await setGrace(Date.now() + 3_600_000);
    expect((await postback(clickId, await installationSecret(), 'E1')).status).toBe(200);
    await setGrace(Date.now() - 1000);
    expect((await postback(clickId, await installationSecret(), 'E2')).status).toBe(403);
    await setGrace(null);
  });
});
