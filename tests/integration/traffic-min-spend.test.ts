import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';

// Spec 2 §5, the $1500 rule: a trrcpc or crane campaign that was submitted, has spent under
// $1500, and whose submission day is missing or after 2025-07-06 cannot be set inactive. The
// editor save is the only API path that writes campaigns.active today (the list and its bulk
// actions only move, delete and restore; imports create new campaigns); migration 0015's
// trigger refuses every other writer (docs/decisions/095).

const MESSAGE = 'Cannot set the campaign to inactive before reaching $1500 spend';

const admin = await setupInstallation();

type Submission = { submitted?: number; spend?: number; on?: string | null; source?: string };

/** An active campaign of `source` with a traffic-campaign row as the provider left it. */
async function submittedCampaign({
  submitted = 1,
  spend = 0,
  on = '2025-08-01',
  source = 'trrcpc',
}: Submission) {
  const id = await makeCampaign(admin, { name: `Rule ${Math.random()}`, trafficSource: source });
  await env.DB.prepare(
    `INSERT INTO traffic_campaigns (campaign_id, provider, submitted, submitted_at, submitted_on, spend_micros)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)`,
  )
    .bind(id, source, submitted, on ? Date.parse(`${on}T12:00:00Z`) : null, on, spend)
    .run();
  return id;
}

const setInactive = (id: number, body: Record<string, unknown> = {}) =>
  api('/api/edit-campaign', {
    method: 'PUT',
    token: admin,
    body: { campaignId: id, name: 'Renamed', trafficSource: 'trrcpc', active: 0, ...body },
  });

async function campaignRow(id: number) {
  return env.DB.prepare('SELECT name, active, traffic_source FROM campaigns WHERE id = ?1')
    .bind(id)
    .first<{ name: string; active: number; traffic_source: string }>();
}

describe('editor save (PUT /api/edit-campaign)', () => {
  it('refuses a submission after 2025-07-06 with under $1500 spent, and writes nothing', async () => {
    const id = await submittedCampaign({ on: '2025-07-07', spend: 1_499_990_000 });
    const res = await setInactive(id);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(MESSAGE);
    expect(res.body.errors).toEqual({ active: [MESSAGE] });
    expect(await campaignRow(id)).toEqual({
      name: expect.stringMatching(/^Rule /),
      active: 1,
      traffic_source: 'trrcpc',
    });
  });

  it('refuses when the submission day is missing', async () => {
    const id = await submittedCampaign({ on: null });
    const res = await setInactive(id);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(MESSAGE);
    expect((await campaignRow(id))?.active).toBe(1);
  });

  it('allows a submission on 2025-07-06 itself', async () => {
    const id = await submittedCampaign({ on: '2025-07-06' });
    const res = await setInactive(id);
    expect(res.status).toBe(200);
    expect(res.body.data.campaign.campaignData.active).toBe(0);
    expect(await campaignRow(id)).toEqual({ name: 'Renamed', active: 0, traffic_source: 'trrcpc' });
  });

  it('allows a submission before 2025-07-06', async () => {
    const id = await submittedCampaign({ on: '2025-07-05' });
    expect((await setInactive(id)).status).toBe(200);
    expect((await campaignRow(id))?.active).toBe(0);
  });

  it('allows it once $1500 is spent (exactly 1500.00)', async () => {
    const id = await submittedCampaign({ spend: 1_500_000_000 });
    expect((await setInactive(id)).status).toBe(200);
    expect((await campaignRow(id))?.active).toBe(0);
  });

  it('allows a campaign that was never submitted', async () => {
    const id = await submittedCampaign({ submitted: 0, on: null });
    expect((await setInactive(id)).status).toBe(200);
  });

  it('applies to crane as well, and not to other sources', async () => {
    const crane = await submittedCampaign({ source: 'crane' });
    const res = await setInactive(crane, { trafficSource: 'crane' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(MESSAGE);
    const blaze = await submittedCampaign({ source: 'blaze' });
    expect((await setInactive(blaze, { trafficSource: 'blaze' })).status).toBe(200);
  });

  it('cannot be escaped by switching the traffic source away in the same save', async () => {
    const id = await submittedCampaign({});
    const res = await setInactive(id, { trafficSource: 'blaze' });
    expect(res.status).toBe(422);
    expect(await campaignRow(id)).toMatchObject({ active: 1, traffic_source: 'trrcpc' });
  });

  it('lets a protected campaign that stays active save its other fields', async () => {
    const id = await submittedCampaign({});
    const res = await setInactive(id, { active: 1 });
    expect(res.status).toBe(200);
    expect(await campaignRow(id)).toEqual({ name: 'Renamed', active: 1, traffic_source: 'trrcpc' });
  });
});

describe('every other writer of campaigns.active (the database trigger)', () => {
  const rawDeactivate = (id: number) =>
    env.DB.prepare('UPDATE campaigns SET active = 0 WHERE id = ?1').bind(id).run();

  it.each([
    ['after the cutoff', '2025-07-07', true],
    ['missing', null, true],
    ['on the cutoff day', '2025-07-06', false],
    ['before the cutoff', '2025-01-31', false],
  ])('submission day %s', async (_label, on, refused) => {
    const id = await submittedCampaign({ on });
    if (refused) {
      await expect(rawDeactivate(id)).rejects.toThrow(MESSAGE);
      expect((await campaignRow(id))?.active).toBe(1);
    } else {
      await rawDeactivate(id);
      expect((await campaignRow(id))?.active).toBe(0);
    }
  });

  it('leaves every other column write alone', async () => {
    const id = await submittedCampaign({});
    await env.DB.prepare("UPDATE campaigns SET name = 'Still here' WHERE id = ?1").bind(id).run();
    expect(await campaignRow(id)).toEqual({ name: 'Still here', active: 1, traffic_source: 'trrcpc' });
  });
});

describe('imports (ZIP of campaigns)', () => {
  it('create new campaigns: an inactive copy never deactivates the submitted original', async () => {
    const id = await submittedCampaign({ on: '2025-09-01' });
    const exported = await api('/api/export-campaigns', { token: admin, body: { campaign_ids: [id] } });
    expect(exported.status).toBe(200);
    const res = await SELF.fetch(`http://tracker.test${exported.body.data.downloadLink}`);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    // The same campaign, switched off in the file.
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    expect(manifest.campaigns[0].campaign.active).toBe(1);
    manifest.campaigns[0].campaign.active = 0;
    files['manifest.json'] = strToU8(JSON.stringify(manifest));
    const form = new FormData();
    form.set('uploads', new Blob([zipSync(files)]), 'campaigns.zip');
    form.set('dir', '0');
    const imported = await api('/api/import-campaigns', { token: admin, body: form });
    expect(imported.status).toBe(200);
    const copy = imported.body.data.result[0];
    expect(copy.campaignId).not.toBe(id);
    expect((await campaignRow(copy.campaignId))?.active).toBe(0);
    expect((await campaignRow(id))?.active).toBe(1);
    // The copy was never submitted, so it carries no traffic campaign of its own.
    const traffic = await env.DB.prepare('SELECT count(*) AS n FROM traffic_campaigns WHERE campaign_id = ?1')
      .bind(copy.campaignId)
      .first<{ n: number }>();
    expect(traffic?.n).toBe(0);
  });
});
