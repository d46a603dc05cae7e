import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import {
  makeCampaign,
  makeFolder,
  makeLanding,
  makeOffer,
  makeOption,
  makePath,
} from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { count, upload } from '../support/campaign-files';

// Moving campaigns in and out of an installation (spec 1 §7, spec 2 §7): export one or many
// as a ZIP in R2 behind a signed link, and import such a ZIP. The file checks of import (bad
// ZIPs, CSV files) are in campaign-import-checks.test.ts.

const admin = await setupInstallation();

async function download(link: string): Promise<Uint8Array> {
  const res = await SELF.fetch(`http://tracker.test${link}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  return new Uint8Array(await res.arrayBuffer());
}

const manifestOf = (zip: Uint8Array) => JSON.parse(strFromU8(unzipSync(zip)['manifest.json']));

/** A campaign with every kind of item: two paths, an option, landings and offers on them, tokens. */
async function richCampaign(token: string, name: string, body: Record<string, unknown> = {}) {
  const id = await makeCampaign(token, {
    name,
    campaignType: 'multiple_path_type',
    trafficSource: 'mediago',
    affiliate_network: 'clickbank',
    cpc: '0.333333',
    custom_url: 'https://fallback.example/',
    redirectType: 'meta',
    landing_pages_optimization_threshold: 2.5,
    extratokens: [
      { token_name: 'Campaign', parameter: 'cid', url_append: '{campaign_id}', offer_page_enabled: 1 },
      { token_name: 'Site', parameter: 'site', landing_page_enabled: 1 },
    ],
    ...body,
  });
  const p1 = await makePath(token, id, { name: 'Mobile path', share: 40, agents: '3' });
  const p2 = await makePath(token, id, { name: 'Desktop path', share: 60, agents: '2' });
  const opt = await makeOption(token, id, { name: 'Upsell' });
  await makeLanding(token, id, {
    name: 'Quiz',
    url: 'https://lp.example/quiz?x={clickid}',
    pathId: p1,
    share: 25,
  });
  await makeLanding(token, id, { name: 'Story', url: 'https://lp.example/story', pathId: p2, active: 0 });
  await makeOffer(token, id, {
    name: 'Bottle',
    url: 'https://offer.example/b',
    pathId: p1,
    optionId: opt,
    payout: '49.990001',
    rotator_participant_email: 'rep@example.com',
  });
  await makeOffer(token, id, {
    name: 'Kit',
    url: 'https://offer.example/k',
    pathId: p2,
    payout: '0.5',
    share: 10,
  });
  const gone = await makeLanding(token, id, { name: 'Old', pathId: p2 });
  await env.DB.prepare('UPDATE landing_pages SET deleted = 1 WHERE id = ?1').bind(gone).run();
  return id;
}

/** The campaign detail without ids and times: what must survive a round trip. */
async function portable(token: string, id: number) {
  const d = (await api(`/api/campaign?campaignId=${id}`, { token })).body.data;
  const paths = new Map(d.path.map((p: any) => [p.pathId, p.name]));
  const opts = new Map(d.option.map((o: any) => [o.optionId, o.name]));
  // What a landing page and an offer both carry: the page, its split and its path by name.
  const page = (p: any) => ({
    name: p.name,
    url: p.url,
    share: p.share,
    active: p.active,
    agents: p.agents,
    path: paths.get(p.pathId) ?? null,
  });
  const {
    campaignId: _a,
    dir: _b,
    created_at: _c,
    updated_at: _d,
    linkpixel: _e,
    userId: _f,
    landing,
    offer,
    path,
    option,
    extratokens,
    agents: _g,
    campaign,
    ...settings
  } = d;
  return {
    // The campaign's own id comes back in its access summary too; the rest must travel.
    settings: { ...settings, campaign: { ...campaign, campaignId: undefined } },
    path: path.map((p: any) => ({
      name: p.name,
      share: p.share,
      active: p.active,
      agents: p.agents,
      deleted: p.deleted,
    })),
    option: option.map((o: any) => ({ name: o.name, active: o.active, deleted: o.deleted })),
    landing: landing.map((l: any) => ({ ...page(l), deleted: l.deleted })),
    offer: offer.map((o: any) => ({
      ...page(o),
      payout: o.payout,
      email: o.rotator_participant_email,
      option: opts.get(o.optionId) ?? null,
    })),
    extratokens: extratokens.map((t: any) => ({
      slot: t.slot,
      token_name: t.token_name,
      parameter: t.parameter,
      url_append: t.url_append,
      landing_page_enabled: t.landing_page_enabled,
      offer_page_enabled: t.offer_page_enabled,
    })),
  };
}

describe('export', () => {
  it('export-campaign writes a ZIP with a versioned manifest behind a signed link', async () => {
    const id = await richCampaign(admin, 'Export me');
    const res = await api('/api/export-campaign', { token: admin, body: { campaignId: id } });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Campaign exported Succesfully.');
    expect(res.body.data.downloadLink).toMatch(
      /^\/files\/download\?key=exports%2F.+&name=campaign-\d+-export-me\.zip/,
    );
    const zip = await download(res.body.data.downloadLink);
    expect(Object.keys(unzipSync(zip)).sort()).toEqual(['README.txt', 'manifest.json']);
    const manifest = manifestOf(zip);
    expect(manifest).toMatchObject({ format: 'edge-tracker/campaigns', version: 1 });
    expect(manifest.campaigns).toHaveLength(1);
    const entry = manifest.campaigns[0];
    expect(entry).toMatchObject({ ref: id, parentRef: null, is_dir: 0, name: 'Export me' });
    expect(entry.campaign).toMatchObject({
      campaignType: 'multiple_path_type',
      cpc: '0.333333',
      redirectType: 'meta',
    });
    expect(entry.paths.map((p: any) => p.name)).toEqual(['Mobile path', 'Desktop path']);
    expect(entry.landings.map((l: any) => [l.name, l.deleted])).toEqual([
      ['Quiz', 0],
      ['Story', 0],
      ['Old', 1],
    ]);
    expect(entry.offers[0]).toMatchObject({
      name: 'Bottle',
      payout: '49.990001',
      pathRef: entry.paths[0].ref,
    });
    expect(entry.offers[0].optionRef).toBe(entry.options[0].ref);
    expect(entry.tokens.map((t: any) => [t.slot, t.parameter])).toEqual([
      [1, 'cid'],
      [2, 'site'],
    ]);
    // The link is signed: a changed key is refused.
    const forged = res.body.data.downloadLink.replace('exports%2F', 'exports%2Fx');
    expect((await SELF.fetch(`http://tracker.test${forged}`)).status).toBe(403);
  });

  it('export-campaigns takes ids as an array or comma-joined; a folder brings its live subtree', async () => {
    const f = await makeFolder(admin, 'Exported folder');
    const sub = await makeFolder(admin, 'Inner', { dir: f });
    const a = await makeCampaign(admin, { name: 'In folder', dir: f });
    const b = await makeCampaign(admin, { name: 'In inner', dir: sub });
    const gone = await makeCampaign(admin, { name: 'Deleted inside', dir: f });
    await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: gone, isPermanent: 0 },
    });
    const other = await makeCampaign(admin, { name: 'Loose' });
    const res = await api('/api/export-campaigns', { token: admin, body: { campaign_ids: `${f},${other}` } });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Campaigns exported Succesfully.');
    const manifest = manifestOf(await download(res.body.data.downloadLink));
    const byName = Object.fromEntries(manifest.campaigns.map((c: any) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual([
      'Exported folder',
      'In folder',
      'In inner',
      'Inner',
      'Loose',
    ]);
    expect(byName['Exported folder']).toMatchObject({ is_dir: 1, parentRef: null });
    expect(byName.Inner).toMatchObject({ is_dir: 1, parentRef: f });
    expect(byName['In folder'].parentRef).toBe(f);
    expect(byName['In inner'].parentRef).toBe(sub);
    expect(byName.Loose.parentRef).toBeNull();
    // Folders come before what they hold.
    const order = manifest.campaigns.map((c: any) => c.ref);
    expect(order.indexOf(f)).toBeLessThan(order.indexOf(sub));
    expect(order.indexOf(sub)).toBeLessThan(order.indexOf(b));
    expect(order).toContain(a);

    const array = await api('/api/export-campaigns', { token: admin, body: { campaign_ids: [other] } });
    expect(array.body.data.message).toBe('Campaigns exported Succesfully.');
    const none = await api('/api/export-campaigns', { token: admin, body: { campaign_ids: [] } });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ campaign_ids: ['Select at least one campaign.'] });
  });
});

describe('import of an export', () => {
  it('recreates the same campaigns, items and tokens with new ids in an empty installation', async () => {
    const f = await makeFolder(admin, 'Round trip');
    const one = await richCampaign(admin, 'Trip one', { dir: f });
    const two = await makeCampaign(admin, {
      name: 'Trip two',
      campaignType: 'landing_page',
      dir: f,
      active: 0,
      postback_enabled: 1,
      postback: 'https://ads.example/pb?c={clickid}&p={payout}',
    });
    await makeLanding(admin, two, { name: 'Only LP' });
    const before = { one: await portable(admin, one), two: await portable(admin, two) };
    const exported = await api('/api/export-campaigns', { token: admin, body: { campaign_ids: [f] } });
    const zip = await download(exported.body.data.downloadLink);

    // Empty the installation of everything this export holds, as a fresh one would be.
    await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: String(f), isPermanent: 1 },
    });
    expect(await count(`SELECT count(*) n FROM campaigns WHERE id IN (${f}, ${one}, ${two})`)).toBe(0);

    const res = await upload('/api/import-campaigns', admin, new Blob([zip]), 'campaigns.zip', { dir: '0' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      uploaded: true,
      message: 'Campaign successfully imported.',
      campaigns: 2,
      folders: 1,
    });
    const [newFolder] = res.body.data.result;
    expect(newFolder).toMatchObject({ name: 'Round trip', is_dir: 1, dir: 0 });
    expect(newFolder.campaignId).not.toBe(f);
    const inside = (await api(`/api/campaign?dir=${newFolder.campaignId}`, { token: admin })).body.data
      .result;
    expect(inside.map((c: any) => c.name)).toEqual(['Trip one', 'Trip two']);
    const [newOne, newTwo] = inside.map((c: any) => c.campaignId);
    expect(newOne).not.toBe(one);
    expect(await portable(admin, newOne)).toEqual(before.one);
    expect(await portable(admin, newTwo)).toEqual(before.two);
  });

  it('imports into a folder and for another user when an admin says so', async () => {
    const student = await userWithRole(admin, 'student');
    const source = await makeCampaign(admin, { name: 'For the student' });
    const zip = await download(
      (await api('/api/export-campaign', { token: admin, body: { campaignId: source } })).body.data
        .downloadLink,
    );
    const target = await makeFolder(student.token, 'Student imports');
    const res = await upload('/api/import-campaigns', admin, new Blob([zip]), 'x.zip', {
      dir: String(target),
      userId: String(student.id),
    });
    expect(res.status).toBe(200);
    const created = res.body.data.result[0];
    expect(created).toMatchObject({ name: 'For the student', dir: target });
    const owner = await env.DB.prepare('SELECT created_by FROM campaigns WHERE id = ?1')
      .bind(created.campaignId)
      .first<{ created_by: number }>();
    expect(owner?.created_by).toBe(student.id);
    const seen = (await api(`/api/campaign?dir=${target}`, { token: student.token })).body.data.result;
    expect(seen.map((c: any) => c.campaignId)).toEqual([created.campaignId]);

    // A student cannot import for someone else.
    const denied = await upload('/api/import-campaigns', student.token, new Blob([zip]), 'x.zip', {
      userId: '1',
    });
    expect(denied.status).toBe(422);
    expect(denied.body.errors).toEqual({ userId: ['Select a valid user.'] });
  });

  it('never reuses the id of a permanently deleted campaign', async () => {
    const doomed = await makeCampaign(admin, { name: 'Highest' });
    const source = await makeCampaign(admin, { name: 'Source' });
    await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: String(source), isPermanent: 1 },
    });
    void doomed;
    const again = await makeCampaign(admin, { name: 'Another' });
    const copy = (await api('/api/clone', { token: admin, body: { campaignId: again } })).body.data.resultt;
    expect(copy.campaignId).toBeGreaterThan(again);
    // A clone right after deleting the newest campaign takes a fresh id as well.
    await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: String(copy.campaignId), isPermanent: 1 },
    });
    const copy2 = (await api('/api/clone', { token: admin, body: { campaignId: again } })).body.data.resultt;
    expect(copy2.campaignId).toBeGreaterThan(copy.campaignId);
  });
});
