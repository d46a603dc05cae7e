import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { GIF, JPEG, PNG, pngOfSize } from '../support/images';

// Tab 7: blaze banners and placement (spec 2 §3, §7, §8, §9) against the provider's fake.

let admin: string;
let campaign: number;
beforeAll(async () => {
  admin = await setupInstallation();
  campaign = await makeCampaign(admin, { name: 'Blaze campaign', trafficSource: 'blaze' });
});

const image = (bytes: Uint8Array | string, name: string) => new File([bytes], name, { type: 'image/png' });

function bannerForm(fields: Record<string, string>, files: File[] = [], campaignId = campaign) {
  const form = new FormData();
  form.set('campaign_id', String(campaignId));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const f of files) form.append('images[]', f);
  return form;
}

const fields = (name = 'Spring sale') => ({
  name,
  url: 'https://offer.example/spring',
  type: 'EMAIL_PLACEMENT',
  width: '300',
  height: '250',
  active: '1',
});

const saveBanner = (form: FormData, token = admin) => api('/api/blaze/save-banner', { token, body: form });

async function bannerCount(campaignId = campaign) {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM banners WHERE campaign_id = ?1')
    .bind(campaignId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function r2Keys(prefix: string) {
  return (await env.BUCKET.list({ prefix })).objects.map((o) => o.key);
}

describe('zones and placement', () => {
  it('answers the publisher zones (publisher 9 by default) and the saved placement', async () => {
    const before = await api(`/api/blaze/get-zones-and-placement-by-publisher-id/9?campaign_id=${campaign}`, {
      token: admin,
    });
    expect(before.status).toBe(200);
    expect(before.body.status).toBe('success');
    expect(before.body.data.zones.map((z: any) => z.id)).toEqual(['9-1', '9-2', '9-3']);
    expect(before.body.data.placement).toBeNull();
    const saved = await api('/api/blaze/save-placement', {
      token: admin,
      body: { campaign_id: campaign, placement: '9-2' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ message: 'Placements saved successfully', placement: '9-2' });
    const after = await api(`/api/blaze/get-zones-and-placement-by-publisher-id/12?campaign_id=${campaign}`, {
      token: admin,
    });
    expect(after.body.data.zones[0].name).toBe('Publisher 12 zone 1');
    expect(after.body.data.placement).toBe('9-2');
    const detail = await api(`/api/campaign?campaignId=${campaign}`, { token: admin });
    expect(detail.body.data.placement).toBe('9-2');
  });

  it('refuses an empty placement and tells the provider failure with the spec message', async () => {
    const empty = await api('/api/blaze/save-placement', {
      token: admin,
      body: { campaign_id: campaign, placement: '' },
    });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe('Select a placement.');
    const failed = await api('/api/blaze/save-placement', {
      token: admin,
      body: { campaign_id: campaign, placement: 'fail-500-zone' },
    });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe('Failed to save placements');
    expect(failed.body.errors.message).toEqual(['Failed to save placements', 'Provider internal error']);
    const detail = await api(`/api/campaign?campaignId=${campaign}`, { token: admin });
    expect(detail.body.data.placement).toBe('9-2');
  });

  it('belongs to blaze campaigns only', async () => {
    const other = await makeCampaign(admin, { name: 'Not blaze', trafficSource: 'taboola' });
    const res = await api('/api/blaze/save-placement', {
      token: admin,
      body: { campaign_id: other, placement: '9-1' },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Banners and placement are for Blaze campaigns.');
  });
});

describe('POST api/blaze/save-banner', () => {
  it('creates one banner per image, stores each under the campaign prefix, answers the list', async () => {
    const res = await saveBanner(
      bannerForm(fields(), [image(PNG, 'a.png'), image(JPEG, 'b.jpg'), image(GIF, 'c.gif')]),
    );
    expect(res.status).toBe(201);
    expect(res.body.data.message).toBe('Banner(s) saved successfully');
    const banners = res.body.data.banners;
    expect(
      banners.map((b: any) => [b.name, b.image_name, b.width, b.height, b.active, b.placement_type]),
    ).toEqual([
      ['Spring sale', 'a.png', 300, 250, 1, 'EMAIL_PLACEMENT'],
      ['Spring sale', 'b.jpg', 300, 250, 1, 'EMAIL_PLACEMENT'],
      ['Spring sale', 'c.gif', 300, 250, 1, 'EMAIL_PLACEMENT'],
    ]);
    expect(banners.every((b: any) => /^bz-\d+$/.test(b.provider_banner_id))).toBe(true);
    const keys = await r2Keys(`banners/${campaign}/`);
    expect(keys).toHaveLength(3);
    // The image is served through its signed link with its sniffed type.
    const file = await api(banners[1].image_url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    const detail = await api(`/api/campaign?campaignId=${campaign}`, { token: admin });
    expect(detail.body.data.banners).toHaveLength(3);
  });

  it('needs at least one image on create, takes at most 5 per request, checks the fields', async () => {
    const before = await bannerCount();
    const none = await saveBanner(bannerForm(fields()));
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('Add at least one image for the banner.');
    const six = await saveBanner(
      bannerForm(
        fields(),
        Array.from({ length: 6 }, (_, i) => image(PNG, `${i}.png`)),
      ),
    );
    expect(six.status).toBe(422);
    expect(six.body.message).toBe('Send at most 5 images or ids at a time.');
    const bad = await saveBanner(
      bannerForm({ ...fields(''), url: 'ftp://x', width: '0' }, [image(PNG, 'a.png')]),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      name: ['Banner name is required.'],
      url: ['Enter a valid http or https URL.'],
      width: ['Width and height must be whole numbers from 1 to 5000.'],
    });
    expect(await bannerCount()).toBe(before);
  });

  it('refuses a wrong type behind an image extension, an oversized image, and keeps nothing of the batch', async () => {
    const before = await bannerCount();
    const keys = (await r2Keys(`banners/${campaign}/`)).length;
    const fake = await saveBanner(
      bannerForm(fields(), [image(PNG, 'ok.png'), image('<?php echo 1;', 'shell.png')]),
    );
    expect(fake.status).toBe(422);
    expect(fake.body.message).toBe('Images must be png, jpg, jpeg or gif files. (shell.png)');
    const big = await saveBanner(bannerForm(fields(), [image(pngOfSize(2 * 1024 * 1024 + 1), 'big.png')]));
    expect(big.status).toBe(422);
    expect(big.body.message).toBe('Each banner image must be 2 MB or smaller. (big.png)');
    expect(await bannerCount()).toBe(before);
    expect((await r2Keys(`banners/${campaign}/`)).length).toBe(keys);
  });

  it('reduces traversal names to a base name inside the campaign prefix', async () => {
    const res = await saveBanner(
      bannerForm(fields('Traversal'), [image(PNG, '../../../public/branding/logo.png')]),
    );
    expect(res.status).toBe(201);
    const banner = res.body.data.banners.find((b: any) => b.name === 'Traversal');
    expect(banner.image_name).toBe('logo.png');
    const row = await env.DB.prepare('SELECT r2_key FROM banners WHERE id = ?1')
      .bind(banner.id)
      .first<{ r2_key: string }>();
    expect(row?.r2_key).toMatch(new RegExp(`^banners/${campaign}/[0-9a-f]{8}-logo\\.png$`));
    expect(await env.BUCKET.head('public/branding/logo.png')).toBeNull();
  });

  it('edits a banner with one image at most, replacing the stored file', async () => {
    const list = (await api(`/api/blaze/banners?campaign_id=${campaign}`, { token: admin })).body.data
      .banners;
    const target = list[0];
    const oldKey = (
      await env.DB.prepare('SELECT r2_key FROM banners WHERE id = ?1')
        .bind(target.id)
        .first<{ r2_key: string }>()
    )?.r2_key;
    const two = await saveBanner(
      bannerForm({ ...fields('Edited'), id: String(target.id) }, [image(PNG, 'x.png'), image(PNG, 'y.png')]),
    );
    expect(two.status).toBe(422);
    expect(two.body.message).toBe('A banner being edited takes one image only.');
    const res = await saveBanner(
      bannerForm({ ...fields('Edited'), id: String(target.id), width: '970', active: '0' }, [
        image(GIF, 'new.gif'),
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Banner(s) updated successfully');
    const edited = res.body.data.banners.find((b: any) => b.id === target.id);
    expect(edited).toMatchObject({ name: 'Edited', width: 970, active: 0, image_name: 'new.gif' });
    expect(await env.BUCKET.head(oldKey!)).toBeNull();
    // Without an image the stored one stays.
    const keep = await saveBanner(bannerForm({ ...fields('Edited again'), id: String(target.id) }));
    expect(keep.status).toBe(200);
    expect(keep.body.data.banners.find((b: any) => b.id === target.id).image_name).toBe('new.gif');
  });

  it('activates and deactivates in batches of at most 5 ids', async () => {
    const list = (await api(`/api/blaze/banners?campaign_id=${campaign}`, { token: admin })).body.data
      .banners;
    const ids = list.slice(0, 2).map((b: any) => b.id);
    const form = bannerForm({ active: '0' });
    for (const id of ids) form.append('ids[]', String(id));
    const res = await saveBanner(form);
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Banner(s) updated successfully');
    expect(res.body.data.banners.filter((b: any) => ids.includes(b.id)).map((b: any) => b.active)).toEqual([
      0, 0,
    ]);
    const tooMany = bannerForm({ active: '1' });
    for (let i = 1; i <= 6; i++) tooMany.append('ids[]', String(i));
    const refused = await saveBanner(tooMany);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Send at most 5 images or ids at a time.');
  });

  it('answers the spec failure toast when the provider fails, and writes nothing', async () => {
    const before = await bannerCount();
    const res = await saveBanner(bannerForm(fields('fail-500 banner'), [image(PNG, 'a.png')]));
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('Failed to save banner');
    expect(await bannerCount()).toBe(before);
  });
});

describe('POST api/blaze/delete-banners', () => {
  it('deletes up to 5 banners with their files, refuses unknown ids and bigger batches', async () => {
    const list = (await api(`/api/blaze/banners?campaign_id=${campaign}`, { token: admin })).body.data
      .banners;
    const ids = list.slice(0, 2).map((b: any) => b.id);
    const keysBefore = (await r2Keys(`banners/${campaign}/`)).length;
    const res = await api('/api/blaze/delete-banners', {
      token: admin,
      body: { campaign_id: campaign, ids },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Banner(s) deleted successfully');
    expect(res.body.data.banners.map((b: any) => b.id)).not.toContain(ids[0]);
    expect(res.body.data.banners).toHaveLength(list.length - 2);
    expect((await r2Keys(`banners/${campaign}/`)).length).toBe(keysBefore - 2);
    const unknown = await api('/api/blaze/delete-banners', {
      token: admin,
      body: { campaign_id: campaign, ids: [ids[0]] },
    });
    expect(unknown.status).toBe(404);
    const six = await api('/api/blaze/delete-banners', {
      token: admin,
      body: { campaign_id: campaign, ids: [1, 2, 3, 4, 5, 6] },
    });
    expect(six.status).toBe(422);
  });

  it('keeps another user’s campaign out of reach', async () => {
    const student = (await userWithRole(admin, 'student')).token;
    const res = await api('/api/blaze/delete-banners', {
      token: student,
      body: { campaign_id: campaign, ids: [1] },
    });
    expect(res.status).toBe(404);
    const upload = await saveBanner(bannerForm(fields(), [image(PNG, 'a.png')]), student);
    expect(upload.status).toBe(404);
  });
});
