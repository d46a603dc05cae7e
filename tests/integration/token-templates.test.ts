import { describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';

// Token templates (apply and remove: campaignid, template, campaigntype) and the 20-live-token
// limit of extra tokens, through the templates and through edit-campaign's extratokens.

const admin = await setupInstallation();

const LIMIT = 'You can add up to 20 tokens for a campaign.';
const apply = (body: Record<string, unknown>, token = admin) =>
  api('/api/apply-token-template', { token, body });
const remove = (body: Record<string, unknown>) => api('/api/remove-token-template', { token: admin, body });
const live = async (campaignId: number) =>
  (await api(`/api/extratokens?campaignId=${campaignId}`, { token: admin })).body.data.result as {
    slot: number;
    parameter: string;
    url_append: string;
    token_name: string;
  }[];
const tokens = (n: number, prefix = 'p') =>
  Array.from({ length: n }, (_, i) => ({ token_name: `Token ${i}`, parameter: `${prefix}${i}` }));

describe('GET /api/token-templates', () => {
  it('lists the shipped templates with their tokens', async () => {
    const res = await api('/api/token-templates', { token: admin });
    expect(res.status).toBe(200);
    const keys = res.body.data.result.map((t: { key: string }) => t.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'facebook',
        'taboola',
        'mediago',
        'tiktok',
        'liveintent',
        'google',
        'outbrain',
        'native',
      ]),
    );
    for (const template of res.body.data.result) {
      expect(template.tokens.length).toBeGreaterThan(0);
      expect(template.tokens.length).toBeLessThanOrEqual(20);
      const params = template.tokens.map((t: { parameter: string }) => t.parameter);
      expect(new Set(params).size).toBe(params.length);
    }
    expect((await api('/api/token-templates')).status).toBe(401);
  });
});

describe('apply and remove', () => {
  it('asks for a template first, then for one of the listed ones', async () => {
    const campaignId = await makeCampaign(admin);
    const none = await apply({ campaignid: campaignId, template: '', campaigntype: 'landing_page' });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('Please select a template!');
    expect(none.body.errors).toEqual({ template: ['Please select a template!'] });
    const removeNone = await remove({ campaignid: campaignId });
    expect(removeNone.body.message).toBe('Please select a template!');
    const unknown = await apply({ campaignid: campaignId, template: 'myspace' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe('Select one of the listed templates.');
    const noCampaign = await apply({ template: 'facebook' });
    expect(noCampaign.body.errors).toEqual({ campaignid: ['Campaign is required.'] });
  });

  it('applies the Facebook tokens into free slots, shows them in the campaign URL, and skips what exists', async () => {
    const campaignId = await makeCampaign(admin, {
      name: 'FB',
      extratokens: [{ token_name: 'Mine', parameter: 'ad_id', url_append: '{{ad.id}}' }],
    });
    const res = await apply({ campaignid: campaignId, template: 'facebook', campaigntype: 'direct_link' });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Token templates applied!');
    expect(res.body.data.added).toBe(8);
    const rows = await live(campaignId);
    expect(rows.map((r) => `${r.slot}:${r.parameter}=${r.url_append}`)).toEqual([
      '1:ad_id={{ad.id}}',
      '2:ad_name={{ad.name}}',
      '3:adset_id={{adset.id}}',
      '4:adset_name={{adset.name}}',
      '5:campaign_id={{campaign.id}}',
      '6:campaign_name={{campaign.name}}',
      '7:placement={{placement}}',
      '8:site_source={{site_source_name}}',
      '9:fbclid=',
    ]);
    expect(rows[0].token_name).toBe('Mine');
    expect(res.body.data.result).toEqual(
      rows.map((r) => expect.objectContaining({ parameter: r.parameter })),
    );

    const detail = await api(`/api/campaign?campaignId=${campaignId}`, { token: admin });
    expect(detail.body.data.linkpixel.campaignURL).toBe(
      `https://tracker.example.com/go/${campaignId}?tid=REPLACE_WITH_AD_ID&ad_id={{ad.id}}&ad_name={{ad.name}}&adset_id={{adset.id}}` +
        '&adset_name={{adset.name}}&campaign_id={{campaign.id}}&campaign_name={{campaign.name}}' +
        '&placement={{placement}}&site_source={{site_source_name}}',
    );

    const again = await apply({ campaignid: campaignId, template: 'facebook' });
    expect(again.body.data.added).toBe(0);
    expect(await live(campaignId)).toHaveLength(9);

    // Taboola shares campaign_id with Facebook: it is not added twice.
    const taboola = await apply({ campaignid: campaignId, template: 'taboola' });
    expect(taboola.body.data.added).toBe(6);
    expect((await live(campaignId)).map((r) => r.slot)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    ]);
  });

  it('refuses to pass 20 live tokens and adds nothing', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Full', extratokens: tokens(15) });
    const res = await apply({ campaignid: campaignId, template: 'tiktok' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(LIMIT);
    expect(await live(campaignId)).toHaveLength(15);
    const fits = await apply({ campaignid: campaignId, template: 'revcontent' });
    expect(fits.status).toBe(200);
    expect(await live(campaignId)).toHaveLength(18);
  });

  it('removes the template tokens only, and a removed slot is used again', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Remove', extratokens: tokens(2, 'own') });
    await apply({ campaignid: campaignId, template: 'google' });
    expect(await live(campaignId)).toHaveLength(11);
    const res = await remove({ campaignid: campaignId, template: 'google', campaigntype: 'landing_page' });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Tokens removed!');
    expect(res.body.data.removed).toBe(9);
    expect((await live(campaignId)).map((r) => r.parameter)).toEqual(['own0', 'own1']);
    const withDeleted = await api(`/api/extratokens?campaignId=${campaignId}&showDeleted=1`, {
      token: admin,
    });
    expect(withDeleted.body.data.result).toHaveLength(11);
    await apply({ campaignid: campaignId, template: 'mgid' });
    expect((await live(campaignId)).map((r) => r.slot)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('is refused on a campaign the user may not manage', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Not yours' });
    const student = await userWithRole(admin, 'student');
    const res = await apply({ campaignid: campaignId, template: 'facebook' }, student.token);
    expect(res.status).toBe(404);
    expect(await live(campaignId)).toHaveLength(0);
  });
});

describe('edit-campaign extratokens', () => {
  it('allows 20 live tokens and refuses the 21st with the spec message, keeping the tokens', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Twenty', extratokens: tokens(20) });
    expect(await live(campaignId)).toHaveLength(20);
    const current = (await live(campaignId)) as unknown as Record<string, unknown>[];
    const res = await api('/api/edit-campaign', {
      token: admin,
      method: 'PUT',
      body: {
        campaignId,
        name: 'Twenty',
        extratokens: [...current, { token_name: 'One more', parameter: 'more' }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(LIMIT);
    expect(res.body.errors).toEqual({ extratokens: [LIMIT] });
    expect(await live(campaignId)).toHaveLength(20);

    // Deleted tokens do not count: delete one and add another in the same save.
    const swapped = [
      ...current.slice(1),
      { ...current[0], deleted: 1 },
      { token_name: 'Replacement', parameter: 'replacement' },
    ];
    const ok = await api('/api/edit-campaign', {
      token: admin,
      method: 'PUT',
      body: { campaignId, name: 'Twenty', extratokens: swapped },
    });
    expect(ok.status).toBe(200);
    const after = await live(campaignId);
    expect(after).toHaveLength(20);
    expect(after.find((r) => r.parameter === 'replacement')?.slot).toBe(1);
  });
});
