import { beforeAll, describe, expect, it } from 'vitest';
import { NAME_MAX, NAME_TOO_LONG } from '../../schema/validators';
import { api } from '../factories/api';
import { makeCampaign, makeLanding } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';

// Names a user types and every screen shows are at most NAME_MAX (100) characters, refused
// with one clear message (docs/decisions/135-name-limits-and-wrapping.md).

let admin: string;
let campaignId: number;
const longest = 'N'.repeat(NAME_MAX);
const tooLong = 'N'.repeat(NAME_MAX + 1);

beforeAll(async () => {
  admin = await setupInstallation();
  campaignId = await makeCampaign(admin, { name: 'Limits', campaignType: 'multiple_path_type' });
});

const refused = (res: { status: number; body: any }, field = 'name') => {
  expect(res.status).toBe(422);
  expect(res.body.message).toBe(NAME_TOO_LONG);
  expect(res.body.errors[field]).toEqual([NAME_TOO_LONG]);
};

describe('name limits', () => {
  it('the message names the limit', () => {
    expect(NAME_MAX).toBe(100);
    expect(NAME_TOO_LONG).toBe('The name may not be longer than 100 characters.');
  });

  it('a campaign name of 100 characters is kept, 101 refused on add and edit', async () => {
    const id = await makeCampaign(admin, { name: longest });
    const detail = await api(`/api/campaign?campaignId=${id}`, { token: admin });
    expect(detail.body.data.name).toBe(longest);
    refused(await api('/api/add-campaign', { token: admin, body: { name: tooLong } }));
    refused(
      await api('/api/edit-campaign', {
        method: 'PUT',
        token: admin,
        body: { campaignId: id, name: tooLong },
      }),
    );
  });

  it('folders: add and rename refuse 101 characters', async () => {
    const ok = await api('/api/add-campaign-folder', { token: admin, body: { name: longest } });
    expect(ok.status).toBe(201);
    refused(await api('/api/add-campaign-folder', { token: admin, body: { name: tooLong } }));
    const folder = ok.body.data.folder?.campaignId ?? ok.body.data.campaignId;
    refused(
      await api('/api/edit-campaign-folder', { token: admin, body: { campaignId: folder, name: tooLong } }),
    );
  });

  it('paths, options, landing and offer pages refuse 101 characters', async () => {
    const path = await api('/api/add-path', { token: admin, body: { campaignId, name: longest } });
    expect(path.status).toBe(201);
    refused(await api('/api/add-path', { token: admin, body: { campaignId, name: tooLong } }));
    refused(await api('/api/add-option', { token: admin, body: { campaignId, name: tooLong } }));
    const pathId = path.body.data.pathId ?? path.body.data.path?.pathId;
    const page = { campaignId, pathId, url: 'https://lp.example/a' };
    refused(await api('/api/add-landing', { token: admin, body: { ...page, name: tooLong } }));
    refused(await api('/api/add-offer', { token: admin, body: { ...page, payout: '1', name: tooLong } }));
    expect(await makeLanding(admin, campaignId, { ...page, name: longest })).toBeGreaterThan(0);
  });

  it('find-and-replace never makes a name longer than the limit', async () => {
    const res = await api('/api/db-replace', {
      token: admin,
      body: { field: 'campaign.name', find: 'Limits', replace: tooLong },
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain(NAME_TOO_LONG);
  });
});
