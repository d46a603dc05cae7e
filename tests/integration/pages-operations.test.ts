import { SELF } from 'cloudflare:test';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer, makeOption, makePath } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';

// The pages-operation verbs of spec 2 §7: delete and undo, show deleted, clone, export, equal
// share, and the landing-page optimisation switches. Uploads and imports are in
// pages-operations-uploads.test.ts.

const admin = await setupInstallation();

const post = (path: string, body: Record<string, unknown>, token = admin) => api(path, { token, body });
const names = (list: { name: string }[]) => list.map((r) => r.name);

async function landingCampaign(count = 3, body: Record<string, unknown> = {}) {
  const campaignId = await makeCampaign(admin, { name: 'Ops', campaignType: 'landing_page', ...body });
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    ids.push(
      await makeLanding(admin, campaignId, {
        name: `LP ${i}`,
        url: `https://lp.example/${i}`,
        share: 10 * i,
      }),
    );
  }
  return { campaignId, ids };
}

async function download(link: string) {
  const res = await SELF.fetch(`http://tracker.test${link}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  return unzipSync(new Uint8Array(await res.arrayBuffer()));
}

describe('access', () => {
  it('needs a token and answers 404 for a campaign the user may not manage', async () => {
    const { campaignId, ids } = await landingCampaign(1);
    expect((await api('/api/delete-landing', { body: { campaignId, landingId: ids[0] } })).status).toBe(401);
    const student = await userWithRole(admin, 'student');
    const res = await post('/api/delete-landing', { campaignId, landingId: ids[0] }, student.token);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Campaign not found.');
    const list = await api(`/api/landing?campaignId=${campaignId}`, { token: admin });
    expect(list.body.data.result[0].deleted).toBe(0);
  });

  it('validates the campaign and the ids in the spec order', async () => {
    const res = await post('/api/delete-landing', {});
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      campaignId: ['Campaign is required.'],
      ids: ['Select at least one landing page.'],
    });
    const { campaignId } = await landingCampaign(1);
    const bad = await post('/api/clone-offers', { campaignId, offerPageIds: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Select at least one offer page.');
  });

  it('refuses ids of another campaign with 404 and changes nothing', async () => {
    const a = await landingCampaign(1);
    const b = await landingCampaign(1);
    const res = await post('/api/delete-landing', {
      campaignId: a.campaignId,
      landingId: [a.ids[0], b.ids[0]],
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Landing page not found.');
    const list = await api(`/api/landing?campaignId=${a.campaignId}`, { token: admin });
    expect(list.body.data.result.map((r: { deleted: number }) => r.deleted)).toEqual([0]);
  });
});

describe('landing pages', () => {
  it('deletes softly, lists with and without deleted, and undoes', async () => {
    const { campaignId, ids } = await landingCampaign(3);
    const del = await post('/api/delete-landing', { campaignId, showDeleted: 0, landingId: ids[1] });
    expect(del.status).toBe(200);
    expect(del.body.data.message).toBe('Landing pages deleted.');
    expect(names(del.body.data.result)).toEqual(['LP 1', 'LP 3']);

    const shown = await post('/api/landing-toggle-delete', { campaignId, showDeleted: 1 });
    expect(shown.body.data.result.map((r: { name: string; deleted: number }) => [r.name, r.deleted])).toEqual(
      [
        ['LP 1', 0],
        ['LP 2', 1],
        ['LP 3', 0],
      ],
    );
    const hidden = await post('/api/landing-toggle-delete', { campaignId, showDeleted: 0 });
    expect(names(hidden.body.data.result)).toEqual(['LP 1', 'LP 3']);

    // Bulk as a comma-joined string, answered with deleted ones shown.
    const bulk = await post('/api/delete-landing', {
      campaignId,
      showDeleted: 1,
      landingId: `${ids[0]},${ids[2]}`,
    });
    expect(bulk.body.data.result.map((r: { deleted: number }) => r.deleted)).toEqual([1, 1, 1]);

    const undo = await post('/api/undo-landing', { campaignId, showDeleted: 0, landingId: ids[1] });
    expect(undo.body.data.message).toBe('Landing pages restored.');
    expect(names(undo.body.data.result)).toEqual(['LP 2']);
    expect(undo.body.data.result[0]).toMatchObject({ landingPageId: ids[1], deleted: 0, share: 20 });
  });

  it('clones into independent copies', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Clone', campaignType: 'multiple_path_type' });
    const pathId = await makePath(admin, campaignId, { name: 'Main' });
    const lp = await makeLanding(admin, campaignId, {
      name: 'Hero',
      url: 'https://lp.example/hero?x={clickid}',
      share: 70,
      pathId,
      agents: '2,3',
      active: 0,
    });
    const res = await post('/api/clone-landings', { campaignId, landingIds: [lp] });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Landing pages cloned.');
    const [original, copy] = res.body.data.result;
    expect(copy).toEqual({
      ...original,
      landingPageId: expect.any(Number),
      name: 'Hero (copy)',
    });
    expect(copy.landingPageId).not.toBe(original.landingPageId);
    expect(copy).toMatchObject({
      url: 'https://lp.example/hero?x={clickid}',
      share: 70,
      pathId,
      path: 'Main',
      agents: '2,3',
      active: 0,
    });

    const edit = await api('/api/edit-landing', {
      token: admin,
      method: 'PUT',
      body: {
        campaignId,
        landingPageId: copy.landingPageId,
        name: 'Changed',
        url: 'https://other.example/',
        share: 5,
        pathId,
      },
    });
    expect(edit.status).toBe(200);
    const list = await api(`/api/landing?campaignId=${campaignId}`, { token: admin });
    expect(list.body.data.result[0]).toEqual(original);
    expect(list.body.data.result[1]).toMatchObject({
      name: 'Changed',
      url: 'https://other.example/',
      share: 5,
    });
  });

  it('shares traffic equally among live active pages, per path in a path campaign', async () => {
    const { campaignId, ids } = await landingCampaign(3);
    const res = await post('/api/landing-equal-share', { campaignId });
    expect(res.body.data.message).toBe('Traffic is now shared equally.');
    expect(res.body.data.result.map((r: { share: number }) => r.share)).toEqual([34, 33, 33]);

    // A paused page keeps its share; a deleted one too; the rest split 100.
    const paused = await makeLanding(admin, campaignId, { name: 'Paused', share: 7, active: 0 });
    await post('/api/delete-landing', { campaignId, landingId: ids[2] });
    const again = await post('/api/landing-equal-share', { campaignId, showDeleted: 1 });
    expect(
      again.body.data.result.map((r: { landingPageId: number; share: number }) => [r.landingPageId, r.share]),
    ).toEqual([
      [ids[0], 50],
      [ids[1], 50],
      [ids[2], 33],
      [paused, 7],
    ]);

    const pathCampaign = await makeCampaign(admin, { name: 'Paths', campaignType: 'multiple_path_type' });
    const p1 = await makePath(admin, pathCampaign, { name: 'A' });
    const p2 = await makePath(admin, pathCampaign, { name: 'B' });
    for (const [pathId, n] of [
      [p1, 2],
      [p2, 3],
    ] as const) {
      for (let i = 0; i < n; i++)
        await makeLanding(admin, pathCampaign, { name: `${pathId}-${i}`, pathId, share: 1 });
    }
    const perPath = await post('/api/landing-equal-share', { campaignId: pathCampaign });
    expect(
      perPath.body.data.result.map((r: { path: string; share: number }) => `${r.path}:${r.share}`),
    ).toEqual(['A:50', 'A:50', 'B:34', 'B:33', 'B:33']);
  });

  it('exports the selected pages as landings.csv in a ZIP behind a signed link', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Export me!', campaignType: 'multiple_path_type' });
    const pathId = await makePath(admin, campaignId, { name: 'Path, "quoted"' });
    const a = await makeLanding(admin, campaignId, {
      name: '=SUM(A1)',
      url: 'https://lp.example/a',
      share: 60,
      pathId,
      agents: '2,3',
    });
    await makeLanding(admin, campaignId, { name: 'Not selected', url: 'https://lp.example/n', pathId });
    const b = await makeLanding(admin, campaignId, {
      name: 'B',
      url: 'https://lp.example/b?s={clickid}',
      share: 40,
      pathId,
      active: 0,
    });
    const res = await post('/api/export-landings', { campaignId, landingIds: [a, b] });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Exported Successfully');
    expect(res.body.data.downloadLink).toMatch(/^\/files\/download\?key=exports%2Flanding-pages%2F/);
    expect(new URL(`http://x${res.body.data.downloadLink}`).searchParams.get('name')).toBe(
      `campaign-${campaignId}-export-me-landing-pages.zip`,
    );
    expect(res.body.data.result).toHaveLength(3);
    const files = await download(res.body.data.downloadLink);
    expect(Object.keys(files).sort()).toEqual(['landings.csv', 'manifest.json']);
    expect(strFromU8(files['landings.csv'])).toBe(
      'name,url,share,path,agents,active\r\n' +
        `'=SUM(A1),https://lp.example/a,60,"Path, ""quoted""",desktop|mobile,1\r\n` +
        'B,https://lp.example/b?s={clickid},40,"Path, ""quoted""",any,0\r\n',
    );
    expect(JSON.parse(strFromU8(files['manifest.json']))).toMatchObject({
      kind: 'landings',
      version: 1,
      campaignId,
      count: 2,
    });
  });
});

describe('offer pages', () => {
  it('deletes one or a list, undoes, shows deleted and clones', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Offers', campaignType: 'direct_link' });
    const o1 = await makeOffer(admin, campaignId, {
      name: 'O1',
      payout: '12.5',
      rotator_participant_email: 'a@x.com',
    });
    const o2 = await makeOffer(admin, campaignId, { name: 'O2' });
    const o3 = await makeOffer(admin, campaignId, { name: 'O3' });

    const one = await post('/api/delete-offer', { campaignId, offerId: o1 });
    expect(one.body.data.message).toBe('Offer pages deleted.');
    expect(names(one.body.data.result)).toEqual(['O2', 'O3']);
    const list = await post('/api/delete-offer', { campaignId, offerId: [o2, o3], showDeleted: 1 });
    expect(list.body.data.result.map((r: { deleted: number }) => r.deleted)).toEqual([1, 1, 1]);
    expect(
      names((await post('/api/offer-toggle-delete', { campaignId, showDeleted: 0 })).body.data.result),
    ).toEqual([]);
    const undo = await post('/api/undo-offer', { campaignId, offerId: o1 });
    expect(undo.body.data.message).toBe('Offer pages restored.');
    expect(names(undo.body.data.result)).toEqual(['O1']);

    const clone = await post('/api/clone-offers', { campaignId, offerPageIds: [o1] });
    expect(clone.body.data.message).toBe('Offer pages cloned.');
    const [original, copy] = clone.body.data.result;
    expect(copy).toEqual({ ...original, offerPageId: expect.any(Number), name: 'O1 (copy)' });
    expect(copy).toMatchObject({ payout: 12.5, rotator_participant_email: 'a@x.com' });
    await api('/api/edit-offer', {
      token: admin,
      method: 'PUT',
      body: {
        campaignId,
        offerPageId: copy.offerPageId,
        name: 'Edited',
        url: 'https://o.example/',
        payout: '1',
      },
    });
    const after = await api(`/api/offer?campaignId=${campaignId}`, { token: admin });
    expect(after.body.data.result[0]).toEqual(original);
    expect(after.body.data.result[1]).toMatchObject({ name: 'Edited', payout: 1 });
  });

  it('shares equally per option in an option campaign', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Opt share', campaignType: 'multiple_option_type' });
    const a = await makeOption(admin, campaignId, { name: 'A' });
    const b = await makeOption(admin, campaignId, { name: 'B' });
    for (const optionId of [a, a, a, b]) await makeOffer(admin, campaignId, { optionId, share: 9 });
    const res = await post('/api/offer-equal-share', { campaignId });
    expect(
      res.body.data.result.map((r: { option: string; share: number }) => `${r.option}:${r.share}`),
    ).toEqual(['A:34', 'A:33', 'A:33', 'B:100']);
  });

  it('exports offers.csv with payout, path, option and participant email', async () => {
    const campaignId = await makeCampaign(admin, {
      name: 'Offer export',
      campaignType: 'multiple_option_type',
    });
    const optionId = await makeOption(admin, campaignId, { name: 'Gold' });
    const id = await makeOffer(admin, campaignId, {
      name: 'Buy',
      url: 'https://o.example/buy',
      share: 55,
      payout: '19.99',
      optionId,
      postback: 'subid',
      agents: [3],
      liConversionName: 'purchase',
      rotator_participant_email: 'p@x.com',
    });
    const res = await post('/api/export-offers', { campaignId, offerPageIds: [id] });
    expect(res.status).toBe(200);
    const files = await download(res.body.data.downloadLink);
    expect(strFromU8(files['offers.csv'])).toBe(
      'name,url,share,payout,path,option,postback,agents,active,li_conversion_name,rotator_participant_email\r\n' +
        'Buy,https://o.example/buy,55,19.99,,Gold,subid,mobile,1,purchase,p@x.com\r\n',
    );
  });
});

describe('paths and options', () => {
  it('deletes, undoes, shows deleted and shares paths equally', async () => {
    const campaignId = await makeCampaign(admin, { name: 'P', campaignType: 'multiple_path_type' });
    const p1 = await makePath(admin, campaignId, { name: 'P1', share: 80 });
    const p2 = await makePath(admin, campaignId, { name: 'P2', share: 20 });
    const p3 = await makePath(admin, campaignId, { name: 'P3', share: 20 });
    const del = await post('/api/delete-path', { campaignId, pathId: p2 });
    expect(del.body.data.message).toBe('Paths deleted.');
    expect(names(del.body.data.result)).toEqual(['P1', 'P3']);
    const shown = await post('/api/path-toggle-delete', { campaignId, showDeleted: 1 });
    expect(shown.body.data.result.map((r: { deleted: number }) => r.deleted)).toEqual([0, 1, 0]);
    const equal = await post('/api/path-equal-share', { campaignId, showDeleted: 1 });
    expect(equal.body.data.result.map((r: { share: number }) => r.share)).toEqual([50, 20, 50]);
    const undo = await post('/api/undo-path', { campaignId, pathId: p2 });
    expect(undo.body.data.message).toBe('Paths restored.');
    expect(names(undo.body.data.result)).toEqual(['P1', 'P2', 'P3']);
    expect(p1 && p3).toBeTruthy();
  });

  it('clones a path with its live landing pages and offers', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Path clone', campaignType: 'multiple_path_type' });
    const pathId = await makePath(admin, campaignId, { name: 'Main', share: 60, agents: '2' });
    const other = await makePath(admin, campaignId, { name: 'Other' });
    await makeLanding(admin, campaignId, { name: 'L1', pathId, share: 30 });
    const gone = await makeLanding(admin, campaignId, { name: 'Gone', pathId });
    await post('/api/delete-landing', { campaignId, landingId: gone });
    await makeLanding(admin, campaignId, { name: 'L-other', pathId: other });
    await makeOffer(admin, campaignId, { name: 'O1', pathId, payout: '3' });

    const res = await post('/api/clone-paths', { campaignId, pathIds: [pathId] });
    expect(res.body.data.message).toBe('Paths cloned.');
    const copy = res.body.data.result[2];
    expect(copy).toMatchObject({ name: 'Main (copy)', share: 60, agents: '2', active: 1, deleted: 0 });

    const landings = (await api(`/api/landing?campaignId=${campaignId}`, { token: admin })).body.data.result;
    expect(landings.map((r: { name: string; path: string }) => `${r.name}@${r.path}`)).toEqual([
      'L1@Main',
      'L-other@Other',
      'L1@Main (copy)',
    ]);
    expect(landings[2].pathId).toBe(copy.pathId);
    const offers = (await api(`/api/offer?campaignId=${campaignId}`, { token: admin })).body.data.result;
    expect(
      offers.map((r: { name: string; pathId: number; payout: number }) => [r.name, r.pathId, r.payout]),
    ).toEqual([
      ['O1', pathId, 3],
      ['O1', copy.pathId, 3],
    ]);
  });

  it('deletes, undoes and clones options (with their offers)', async () => {
    const campaignId = await makeCampaign(admin, { name: 'O', campaignType: 'multiple_option_type' });
    const gold = await makeOption(admin, campaignId, { name: 'Gold' });
    const silver = await makeOption(admin, campaignId, { name: 'Silver' });
    await makeOffer(admin, campaignId, { name: 'G1', optionId: gold });
    await makeOffer(admin, campaignId, { name: 'S1', optionId: silver });

    const del = await post('/api/delete-option', { campaignId, optionId: silver });
    expect(del.body.data.message).toBe('Options deleted.');
    expect(names(del.body.data.result)).toEqual(['Gold']);
    expect(
      names((await post('/api/option-toggle-delete', { campaignId, showDeleted: 1 })).body.data.result),
    ).toEqual(['Gold', 'Silver']);
    expect(
      names((await post('/api/undo-option', { campaignId, optionId: silver })).body.data.result),
    ).toEqual(['Gold', 'Silver']);
    const clone = await post('/api/clone-options', { campaignId, optionIds: [gold] });
    expect(clone.body.data.message).toBe('Options cloned.');
    expect(names(clone.body.data.result)).toEqual(['Gold', 'Silver', 'Gold (copy)']);
    const offers = (await api(`/api/offer?campaignId=${campaignId}`, { token: admin })).body.data.result;
    expect(offers.map((r: { name: string; option: string }) => `${r.name}@${r.option}`)).toEqual([
      'G1@Gold',
      'S1@Silver',
      'G1@Gold (copy)',
    ]);
  });
});

describe('landing-page optimisation', () => {
  it('turns auto optimisation on with a metric, threshold and minimum visits', async () => {
    const { campaignId } = await landingCampaign(1);
    const missing = await post('/api/campaign-toggle-auto-optimize', { campaignId, autoOptimized: 1 });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ optimizationMetricSelected: ['Select an optimization metric.'] });

    const bad = await post('/api/campaign-toggle-auto-optimize', {
      campaignId,
      autoOptimized: 1,
      optimizationMetricSelected: 'clicks',
      optimizationThreshold: -1,
      optimizationMinLpVisit: 'ten',
    });
    expect(bad.body.errors).toEqual({
      optimizationMetricSelected: ['Select an optimization metric.'],
      optimizationThreshold: ['Threshold must be a number greater than or equal to 0.'],
      optimizationMinLpVisit: ['Minimum landing visits must be a number greater than or equal to 0.'],
    });

    const on = await post('/api/campaign-toggle-auto-optimize', {
      campaignId,
      autoOptimized: 1,
      optimizationMetricSelected: 'epc',
      optimizationThreshold: '2.5',
    });
    expect(on.status).toBe(200);
    expect(on.body.data.message).toBe('Landing pages auto optimization is on.');
    expect(on.body.data.campaign).toMatchObject({
      landing_pages_auto_optimized: 1,
      landing_pages_optimization_metric: 'epc',
      landing_pages_optimization_threshold: 2.5,
      landing_pages_optimization_min_visits: 10,
    });
    expect(names(on.body.data.result)).toEqual(['LP 1']);

    const off = await post('/api/campaign-toggle-auto-optimize', {
      campaignId,
      autoOptimized: 0,
      optimizationMinLpVisit: 0,
    });
    expect(off.body.data.message).toBe('Landing pages auto optimization is off.');
    const detail = await api(`/api/campaign?campaignId=${campaignId}`, { token: admin });
    expect(detail.body.data).toMatchObject({
      landing_pages_auto_optimized: 0,
      landing_pages_optimization_metric: 'epc',
      landing_pages_optimization_min_visits: 0,
    });
  });

  it('sets test reporting explicitly or flips it, and sets the goal', async () => {
    const { campaignId } = await landingCampaign(1);
    const on = await post('/api/campaign-toggle-lp-test-reporting', { campaignId, enabled: 1 });
    expect(on.body.data.message).toBe('Landing pages test reporting is on.');
    expect(on.body.data.campaign.enable_lp_test_reporting).toBe(1);
    const flipped = await post('/api/campaign-toggle-lp-test-reporting', { campaignId });
    expect(flipped.body.data.campaign.enable_lp_test_reporting).toBe(0);

    const goal = await post('/api/campaign-set-lp-optimization-goal', { campaignId, goal: 'lp_ctr' });
    expect(goal.status).toBe(200);
    expect(goal.body.data.message).toBe('Landings pages optimization goal set to lp_ctr');
    const bad = await post('/api/campaign-set-lp-optimization-goal', { campaignId, goal: 'revenue' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Select a valid optimization goal.');
    const detail = await api(`/api/campaign?campaignId=${campaignId}`, { token: admin });
    expect(detail.body.data.landing_pages_optimization_goal).toBe('lp_ctr');
  });
});
