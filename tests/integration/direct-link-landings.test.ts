import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';
import { hit } from '../factories/traffic';

// A direct-link campaign sends its visitors straight to an offer: the server refuses every way of
// adding a landing page to one (add, CSV upload, ZIP import, clone), writing nothing, and a
// campaign that had pages keeps them when it becomes a direct link
// (docs/decisions/136-editor-tabs-at-once.md).

const REFUSED = 'A direct-link campaign sends visitors straight to its offers: it has no landing pages.';

const owner = await setupInstallation();

async function landingCount(campaignId: number) {
  const row = await env.DB.prepare('SELECT count(*) n FROM landing_pages WHERE campaign_id = ?1')
    .bind(campaignId)
    .first<{ n: number }>();
  return row?.n;
}

function expectRefused(res: { status: number; body: any }) {
  expect(res.status).toBe(422);
  expect(res.body.message).toBe(REFUSED);
  expect(res.body.errors).toEqual({ campaignId: [REFUSED] });
}

function form(fields: Record<string, string | number>, file: File) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, String(v));
  body.set('uploads', file);
  return body;
}

describe('landing pages on a direct-link campaign', () => {
  it('add-landing is refused with the message, for the default type too, and nothing is written', async () => {
    const explicit = await makeCampaign(owner, { name: 'Direct', campaignType: 'direct_link' });
    const byDefault = await makeCampaign(owner, { name: 'Direct by default' });
    for (const campaignId of [explicit, byDefault]) {
      const res = await api('/api/add-landing', {
        token: owner,
        body: { campaignId, name: 'Unused LP', url: 'https://lp.example/unused' },
      });
      expectRefused(res);
      expect(await landingCount(campaignId)).toBe(0);
    }
    const detail = await api(`/api/campaign?campaignId=${byDefault}`, { token: owner });
    expect(detail.body.data.campaignType).toBe('direct_link');
    expect(detail.body.data.landing).toEqual([]);
  });

  it('the CSV upload and the ZIP import are refused and write nothing', async () => {
    const campaignId = await makeCampaign(owner, { name: 'Direct uploads', campaignType: 'direct_link' });
    const text = 'Name,URL,Share\nAlpha,https://lp.example/a,60\n';
    const csv = await api('/api/lading-pages-csv', {
      token: owner,
      body: form({ campaignId, overwrite: 0 }, new File([text], 'pages.csv', { type: 'text/csv' })),
    });
    expectRefused(csv);

    // A real export of a landing-page campaign's pages, imported into the direct link.
    const source = await makeCampaign(owner, { name: 'LP source', campaignType: 'landing_page' });
    const lp = await makeLanding(owner, source, { name: 'Source LP' });
    const exported = await api('/api/export-landings', {
      token: owner,
      body: { campaignId: source, landingIds: [lp] },
    });
    expect(exported.status).toBe(200);
    const file = await hit(exported.body.data.downloadLink);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const zip = await api('/api/import-landings', {
      token: owner,
      body: form({ campaignId }, new File([bytes], 'export.zip', { type: 'application/zip' })),
    });
    expectRefused(zip);
    expect(await landingCount(campaignId)).toBe(0);
  });

  it('cloning an old page of a direct link is refused; the old page itself stays', async () => {
    const campaignId = await makeCampaign(owner, { name: 'Old direct', campaignType: 'direct_link' });
    // A page from before the rule (or an import of old data) is kept as it came.
    const now = Date.now();
    const old = await env.DB.prepare(
      `INSERT INTO landing_pages (campaign_id, name, url, share, active, agents, deleted, created_at, updated_at)
       VALUES (?1, 'Old LP', 'https://lp.example/old', 100, 1, '1', 0, ?2, ?2) RETURNING id`,
    )
      .bind(campaignId, now)
      .first<{ id: number }>();
    const res = await api('/api/clone-landings', {
      token: owner,
      body: { campaignId, landingIds: [old!.id] },
    });
    expectRefused(res);
    expect(await landingCount(campaignId)).toBe(1);
  });

  it('a landing-page campaign that becomes a direct link keeps its pages and sends visitors to the offer', async () => {
    const campaignId = await makeCampaign(owner, { name: 'Switching', campaignType: 'landing_page' });
    await makeLanding(owner, campaignId, { name: 'Kept LP', url: 'https://lp.example/kept' });
    await makeOffer(owner, campaignId, { name: 'Offer', url: 'https://offer.example/buy' });
    const toLanding = await hit(`/go/${campaignId}`);
    expect(toLanding.status).toBe(302);
    expect(toLanding.headers.get('location')).toMatch(/^https:\/\/lp\.example\/kept/);

    const edit = await api('/api/edit-campaign', {
      method: 'PUT',
      token: owner,
      body: { campaignId, name: 'Switching', campaignType: 'direct_link' },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data.campaign.campaignData.campaignType).toBe('direct_link');
    const listed = await api(`/api/landing?campaignId=${campaignId}`, { token: owner });
    expect(listed.body.data.result.map((l: { name: string }) => l.name)).toEqual(['Kept LP']);
    const toOffer = await hit(`/go/${campaignId}`);
    expect(toOffer.status).toBe(302);
    expect(toOffer.headers.get('location')).toMatch(/^https:\/\/offer\.example\/buy/);
    // No new page on it now.
    expectRefused(
      await api('/api/add-landing', {
        token: owner,
        body: { campaignId, name: 'Another', url: 'https://lp.example/another' },
      }),
    );
    expect(await landingCount(campaignId)).toBe(1);
  });
});
