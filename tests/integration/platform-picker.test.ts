import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { setCredential } from '../../worker/services/integrations/credentials';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';

// Issue 25, item 4 (docs/decisions/156): the editor links a campaign to its TikTok, Taboola or
// MediaGo campaign by picking it from the connected account's campaigns, read with the
// platform's list call (here, the fakes'). A missing connection is an answer the editor shows.

let token: string;
let campaignId: number;

const picker = (platform: string, accountId = '', id = campaignId, as = token) =>
  api(
    `/api/integrations/platform-campaigns?${new URLSearchParams({ platform, campaignId: String(id), accountId })}`,
    { token: as },
  );

beforeAll(async () => {
  token = await setupInstallation();
  campaignId = await makeCampaign(token, { name: 'Linked on screen', trafficSource: 'tiktok' });
});

describe('the traffic sources', () => {
  it('takes TikTok as a campaign’s traffic source', async () => {
    const detail = await api(`/api/campaign?campaignId=${campaignId}`, { token });
    expect(detail.status).toBe(200);
    expect(detail.body.data.trafficSource ?? detail.body.data.traffic_source).toBe('tiktok');
  });
});

describe('the platform campaign picker', () => {
  it('answers connected: false for each platform before a connection is saved', async () => {
    for (const platform of ['tiktok', 'taboola', 'mediago']) {
      const res = await picker(platform, '7000000001');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        platform,
        connected: false,
        accountId: '7000000001',
        campaigns: [],
        problem: '',
      });
    }
  });

  it('lists the TikTok advertiser’s campaigns, and none before an advertiser is given', async () => {
    await setCredential(env, 'tiktok', null, { token: 'tt-picker-token' });
    const none = await picker('tiktok');
    expect(none.body.data).toMatchObject({ connected: true, campaigns: [], problem: '' });
    const res = await picker('tiktok', '7000000001');
    expect(res.status).toBe(200);
    expect(res.body.data.connected).toBe(true);
    expect(res.body.data.campaigns.map((c: { name: string }) => c.name)).toEqual([
      'Fake tiktok campaign 1',
      'Fake tiktok campaign 2',
      'Fake tiktok campaign 3',
    ]);
    for (const c of res.body.data.campaigns) expect(c.id).toMatch(/^\d{16}$/);
  });

  it('lists the Taboola campaigns of the credentials’ own account when none is named', async () => {
    await setCredential(env, 'taboola', null, { clientId: 'tb-picker', token: 'tb-secret' });
    const res = await picker('taboola');
    expect(res.body.data.connected).toBe(true);
    expect(res.body.data.accountId).toMatch(/^fake-advertiser-\d+$/);
    expect(res.body.data.campaigns).toHaveLength(3);
    expect(res.body.data.campaigns[0].name).toBe('Fake taboola campaign 1');
  });

  it('lists the MediaGo campaigns of the saved token', async () => {
    await setCredential(env, 'mediago', null, { token: 'mg-picker-token' });
    const res = await picker('mediago');
    expect(res.body.data.campaigns.map((c: { name: string }) => c.name)).toEqual([
      'Fake mediago campaign 1',
      'Fake mediago campaign 2',
      'Fake mediago campaign 3',
    ]);
  });

  it('answers the platform’s own words when the list cannot be read', async () => {
    const res = await picker('tiktok', 'fail-401-picker');
    expect(res.status).toBe(200);
    expect(res.body.data.campaigns).toEqual([]);
    expect(res.body.data.problem).toMatch(/^TikTok: /);
  });

  it('refuses another platform with 422, a campaign the user may not see with 404, and no token with 401', async () => {
    const bad = await picker('facebook');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ platform: ['Pick TikTok, Taboola or MediaGo.'] });
    const student = await userWithRole(token, 'student');
    expect((await picker('tiktok', '7000000001', campaignId, student.token)).status).toBe(404);
    expect((await picker('tiktok', '7000000001', campaignId, '')).status).toBe(401);
  });
});

describe('the link the editor saves', () => {
  it('needs the TikTok advertiser, and keeps the picked campaign with it', async () => {
    const listed = (await picker('tiktok', '7000000001')).body.data.campaigns[1];
    const missing = await api('/api/integrations/campaign-link', {
      token,
      body: { campaignId, platform: 'tiktok', externalCampaignId: listed.id },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ externalAccountId: ['Enter the TikTok advertiser id.'] });
    const saved = await api('/api/integrations/campaign-link', {
      token,
      body: {
        campaignId,
        platform: 'tiktok',
        externalCampaignId: listed.id,
        externalAccountId: '7000000001',
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.message).toBe('The campaign link was saved.');
    const status = await api(`/api/integrations/sync-status?campaignId=${campaignId}`, { token });
    expect(status.body.data.links).toMatchObject([
      { platform: 'tiktok', externalCampaignId: listed.id, externalAccountId: '7000000001', enabled: true },
    ]);
  });
});

describe('a verified Facebook campaign and its rate (docs/decisions/147)', () => {
  it('is linked as soon as its sync status is read, and takes a US-dollar rate on its link', async () => {
    const id = await makeCampaign(token, { name: 'Facebook in euros' });
    await env.DB.prepare(
      `UPDATE campaigns SET traffic_source = 'facebook', metainfo = json('{"facebook_campaign_id":"120209900000077","verified":true}') WHERE id = ?1`,
    )
      .bind(id)
      .run();
    const status = await api(`/api/integrations/sync-status?campaignId=${id}`, { token });
    expect(status.status).toBe(200);
    expect(status.body.data.links).toEqual([
      expect.objectContaining({
        platform: 'facebook',
        externalCampaignId: '120209900000077',
        externalAccountId: '',
        enabled: true,
        lastSyncAt: null,
        usdRate: '',
      }),
    ]);
    // The editor saves the link as it is, with the rate.
    const saved = await api('/api/integrations/campaign-link', {
      token,
      body: {
        campaignId: id,
        platform: 'facebook',
        externalCampaignId: '120209900000077',
        externalAccountId: '',
        enabled: true,
        usdRate: '1.08',
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.message).toBe('The campaign link was saved.');
    const after = await api(`/api/integrations/sync-status?campaignId=${id}`, { token });
    expect(after.body.data.links).toEqual([
      expect.objectContaining({
        platform: 'facebook',
        externalCampaignId: '120209900000077',
        usdRate: '1.08',
      }),
    ]);
    // A rate that is not a positive decimal is refused in its field, and the saved one stays.
    const wrong = await api('/api/integrations/campaign-link', {
      token,
      body: { campaignId: id, platform: 'facebook', externalCampaignId: '120209900000077', usdRate: '1,08' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.usdRate).toEqual([
      "Enter the rate as US dollars for one unit of the ad account's currency (a positive number, up to 6 decimals).",
    ]);
    const kept = await api(`/api/integrations/sync-status?campaignId=${id}`, { token });
    expect(kept.body.data.links[0].usdRate).toBe('1.08');
  });
});
