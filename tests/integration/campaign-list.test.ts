import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_TABLES, type TreeRow } from '../../worker/services/campaigns/campaign-tree';
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

// The campaigns list of spec 1 §4/§7 and the delete call of spec 2 §7: folders, moving,
// renaming, soft delete with undo, permanent delete, clone, and who may do what.

const admin = await setupInstallation();

async function list(token: string, dir = 0, includeDeleted = 0) {
  const res = await api(`/api/campaign?dir=${dir}&includeDeleted=${includeDeleted}`, { token });
  expect(res.status).toBe(200);
  return res.body.data as { result: any[]; currentDir: { campaignId: number; dir: number; name: string } };
}

const ids = (rows: { campaignId: number }[]) => rows.map((r) => r.campaignId);

const row = (id: number) =>
  env.DB.prepare(
    'SELECT id, name, is_dir, parent_id, deleted, deleted_at, created_by FROM campaigns WHERE id = ?1',
  )
    .bind(id)
    .first<TreeRow>();

describe('GET /api/campaign (the list)', () => {
  it('answers result and currentDir, folders first by name, then campaigns by id', async () => {
    const student = await userWithRole(admin, 'student');
    const c1 = await makeCampaign(student.token, { name: 'Zulu' });
    const fB = await makeFolder(student.token, 'B folder');
    const c2 = await makeCampaign(student.token, { name: 'Alpha' });
    const fA = await makeFolder(student.token, 'a folder');
    const top = await list(student.token);
    expect(top.currentDir).toEqual({ campaignId: 0, dir: 0, name: '' });
    expect(ids(top.result)).toEqual([fA, fB, c1, c2]);
    expect(top.result[0]).toMatchObject({ campaignId: fA, name: 'a folder', is_dir: 1, dir: 0, deleted: 0 });
    expect(top.result[2]).toMatchObject({ campaignId: c1, name: 'Zulu', is_dir: 0, deleted: 0, active: 1 });
    const inside = await list(student.token, fB);
    expect(inside).toEqual({ result: [], currentDir: { campaignId: fB, dir: 0, name: 'B folder' } });
  });
});

describe('POST /api/add-campaign-folder', () => {
  it('requires a name after trimming', async () => {
    const res = await api('/api/add-campaign-folder', {
      token: admin,
      body: { name: '   ', moveCampaigns: [] },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'Folder name is required.',
      errors: { name: ['Folder name is required.'] },
    });
  });

  it('creates the folder and moves the campaigns into it in one step', async () => {
    const a = await makeCampaign(admin, { name: 'Drop A' });
    const b = await makeCampaign(admin, { name: 'Drop B' });
    const res = await api('/api/add-campaign-folder', {
      token: admin,
      body: { name: '  Summer tests ', dir: 0, moveCampaigns: [a, b] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.message).toBe('Folder created successfully.');
    expect(res.body.data.moved).toBe(2);
    const id = res.body.data.folder.campaignId;
    expect(res.body.data.folder).toEqual({
      campaignId: id,
      name: 'Summer tests',
      is_dir: 1,
      dir: 0,
      deleted: 0,
      active: 1,
      campaignType: 'direct_link',
      trafficSource: '',
      offerPromotion: 'other',
    });
    const inside = await list(admin, id);
    expect(ids(inside.result)).toEqual([a, b]);
    expect(inside.currentDir).toEqual({ campaignId: id, dir: 0, name: 'Summer tests' });
    expect(ids((await list(admin)).result)).not.toContain(a);
  });

  it('accepts moveCampaigns comma-joined and a parent folder', async () => {
    const parent = await makeFolder(admin, 'Parent');
    const a = await makeCampaign(admin, { name: 'Comma A' });
    const id = await makeFolder(admin, 'Child', { dir: parent, moveCampaigns: `${a}` });
    expect((await row(id))?.parent_id).toBe(parent);
    expect((await row(a))?.parent_id).toBe(id);
  });

  it('writes nothing when one of the campaigns is not there', async () => {
    const a = await makeCampaign(admin, { name: 'Lonely' });
    const before = await env.DB.prepare('SELECT count(*) n FROM campaigns WHERE is_dir = 1').first<{
      n: number;
    }>();
    const res = await api('/api/add-campaign-folder', {
      token: admin,
      body: { name: 'Never made', moveCampaigns: [a, 999999] },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Campaign not found.');
    const after = await env.DB.prepare('SELECT count(*) n FROM campaigns WHERE is_dir = 1').first<{
      n: number;
    }>();
    expect(after?.n).toBe(before?.n);
    expect((await row(a))?.parent_id).toBeNull();
  });

  it('refuses a parent that is not a folder, and ids that are not ids', async () => {
    const c = await makeCampaign(admin);
    const bad = await api('/api/add-campaign-folder', { token: admin, body: { name: 'X', dir: c } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ dir: ['Select a valid folder.'] });
    const junk = await api('/api/add-campaign-folder', {
      token: admin,
      body: { name: 'X', moveCampaigns: ['a'] },
    });
    expect(junk.status).toBe(422);
    expect(junk.body.errors).toEqual({ moveCampaigns: ['Select at least one campaign.'] });
  });

  it('refuses to put a folder into a new folder inside itself', async () => {
    const outer = await makeFolder(admin, 'Outer');
    const res = await api('/api/add-campaign-folder', {
      token: admin,
      body: { name: 'Loop', dir: outer, moveCampaigns: [outer] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      moveCampaigns: ['A folder cannot be moved into itself or one of its subfolders.'],
    });
  });
});

describe('POST /api/move-campaign', () => {
  it('moves a campaign into a folder and back to the top level', async () => {
    const f = await makeFolder(admin, 'Moves');
    const c = await makeCampaign(admin, { name: 'Mover' });
    const into = await api('/api/move-campaign', { token: admin, body: { campaignId: c, dir: f } });
    expect(into.status).toBe(200);
    expect(into.body).toEqual({ data: { message: 'Campaign moved successfully.', moved: 1 } });
    expect(ids((await list(admin, f)).result)).toEqual([c]);

    const back = await api('/api/move-campaign', { token: admin, body: { campaignId: c, dir: 0 } });
    expect(back.body.data.message).toBe('Campaign moved successfully.');
    expect((await row(c))?.parent_id).toBeNull();
    expect(ids((await list(admin, f)).result)).toEqual([]);

    // dir null is the top level too, and form data works like JSON.
    await api('/api/move-campaign', { token: admin, body: { campaignId: c, dir: f } });
    const form = new FormData();
    form.set('campaignId', String(c));
    const viaForm = await api('/api/move-campaign', { token: admin, body: form });
    expect(viaForm.status).toBe(200);
    expect((await row(c))?.parent_id).toBeNull();
  });

  it('moves several at once', async () => {
    const f = await makeFolder(admin, 'Bulk');
    const a = await makeCampaign(admin);
    const b = await makeCampaign(admin);
    const res = await api('/api/move-campaign', { token: admin, body: { campaignId: `${a},${b}`, dir: f } });
    expect(res.body.data).toEqual({ message: 'Campaigns moved successfully.', moved: 2 });
    expect(ids((await list(admin, f)).result)).toEqual([a, b]);
  });

  it('never puts a folder into itself or below itself', async () => {
    const top = await makeFolder(admin, 'Top');
    const mid = await makeFolder(admin, 'Mid', { dir: top });
    const low = await makeFolder(admin, 'Low', { dir: mid });
    for (const dir of [top, mid, low]) {
      const res = await api('/api/move-campaign', { token: admin, body: { campaignId: top, dir } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({
        dir: ['A folder cannot be moved into itself or one of its subfolders.'],
      });
    }
    expect((await row(top))?.parent_id).toBeNull();
    // Moving the lowest folder up is fine.
    const up = await api('/api/move-campaign', { token: admin, body: { campaignId: low, dir: top } });
    expect(up.status).toBe(200);
    expect((await row(low))?.parent_id).toBe(top);
  });

  it('checks the campaign, then the folder', async () => {
    const c = await makeCampaign(admin);
    const missing = await api('/api/move-campaign', { token: admin, body: { dir: 0 } });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      message: 'Campaign is required.',
      errors: { campaignId: ['Campaign is required.'] },
    });
    const notFolder = await api('/api/move-campaign', { token: admin, body: { campaignId: c, dir: c } });
    expect(notFolder.status).toBe(422);
    expect(notFolder.body.errors).toEqual({ dir: ['Select a valid folder.'] });
    const unknown = await api('/api/move-campaign', { token: admin, body: { campaignId: 987654, dir: 0 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Campaign not found.');
  });
});

describe('POST /api/edit-campaign-folder', () => {
  it('renames a folder; a name empty after trimming changes nothing', async () => {
    const f = await makeFolder(admin, 'Old name');
    const renamed = await api('/api/edit-campaign-folder', {
      token: admin,
      body: { campaignId: f, name: ' New name ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ message: 'Folder renamed successfully.', changed: true });
    expect(renamed.body.data.folder).toMatchObject({ campaignId: f, name: 'New name', is_dir: 1 });
    const empty = await api('/api/edit-campaign-folder', {
      token: admin,
      body: { campaignId: f, name: '   ' },
    });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({
      message: 'The folder name was empty, so it was left unchanged.',
      changed: false,
    });
    expect((await row(f))?.name).toBe('New name');
  });

  it('is only for folders', async () => {
    const c = await makeCampaign(admin, { name: 'Not a folder' });
    const res = await api('/api/edit-campaign-folder', { token: admin, body: { campaignId: c, name: 'X' } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Folder not found.');
    expect((await row(c))?.name).toBe('Not a folder');
  });
});

describe('DELETE /api/delete-campaign and POST /api/undo-delete-campaign', () => {
  it('soft deletes (deleted and deleted_at), hides from the list, cannot be opened, and undoes', async () => {
    const a = await makeCampaign(admin, { name: 'Soft A' });
    const b = await makeCampaign(admin, { name: 'Soft B' });
    const res = await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: `${a},${b}`, isPermanent: 0 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      message: 'Campaigns Deleted Successfully.',
      campaignId: `${a},${b}`,
      isPermanent: 0,
      deleted: 2,
    });
    const gone = await row(a);
    expect(gone?.deleted).toBe(1);
    expect(gone?.deleted_at).toBeGreaterThan(Date.now() - 60_000);
    expect(ids((await list(admin)).result)).not.toContain(a);
    const withDeleted = await list(admin, 0, 1);
    expect(withDeleted.result.find((r) => r.campaignId === a)).toMatchObject({ deleted: 1, name: 'Soft A' });

    // A deleted campaign cannot be opened, edited or moved.
    const open = await api(`/api/campaign?campaignId=${a}`, { token: admin });
    expect(open.status).toBe(404);
    expect(open.body.message).toBe('Campaign not found.');
    const move = await api('/api/move-campaign', { token: admin, body: { campaignId: a, dir: 0 } });
    expect(move.status).toBe(404);

    const undo = await api('/api/undo-delete-campaign', { token: admin, body: { campaignId: `${a},${b}` } });
    expect(undo.status).toBe(200);
    expect(undo.body.data).toEqual({
      message: 'Campaigns restored successfully.',
      campaignId: `${a},${b}`,
      restored: 2,
    });
    expect(await row(a)).toMatchObject({ deleted: 0, deleted_at: null });
    expect((await api(`/api/campaign?campaignId=${a}`, { token: admin })).status).toBe(200);
    expect(ids((await list(admin)).result)).toEqual(expect.arrayContaining([a, b]));
  });

  it('a folder takes its live subtree; undo brings back exactly what that delete took', async () => {
    const f = await makeFolder(admin, 'Tree');
    const sub = await makeFolder(admin, 'Sub', { dir: f });
    const inF = await makeCampaign(admin, { name: 'In tree', dir: f });
    const inSub = await makeCampaign(admin, { name: 'In sub', dir: sub });
    const earlier = await makeCampaign(admin, { name: 'Deleted before', dir: f });
    await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: earlier, isPermanent: 0 },
    });
    const earlierAt = (await row(earlier))?.deleted_at;
    await new Promise((r) => setTimeout(r, 5));

    const res = await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: f, isPermanent: 0 },
    });
    expect(res.body.data.deleted).toBe(4);
    for (const id of [f, sub, inF, inSub]) expect((await row(id))?.deleted).toBe(1);
    expect((await row(earlier))?.deleted_at).toBe(earlierAt);

    await api('/api/undo-delete-campaign', { token: admin, body: { campaignId: String(f) } });
    for (const id of [f, sub, inF, inSub]) expect((await row(id))?.deleted).toBe(0);
    expect((await row(earlier))?.deleted).toBe(1);
    expect(ids((await list(admin, sub)).result)).toEqual([inSub]);
  });

  it('a campaign restored while its folder stays deleted comes back at the top level', async () => {
    const f = await makeFolder(admin, 'Gone folder');
    const c = await makeCampaign(admin, { name: 'Orphan', dir: f });
    await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: f, isPermanent: 0 },
    });
    await api('/api/undo-delete-campaign', { token: admin, body: { campaignId: c } });
    expect(await row(c)).toMatchObject({ deleted: 0, parent_id: null });
    expect((await row(f))?.deleted).toBe(1);
  });

  it('permanently removes the campaign, its items, tokens and statistics from every table', async () => {
    const c = await makeCampaign(admin, {
      name: 'Doomed',
      campaignType: 'multiple_path_type',
      extratokens: [{ token_name: 'Sub', parameter: 'sub1' }],
    });
    const keep = await makeCampaign(admin, { name: 'Neighbour' });
    const path = await makePath(admin, c);
    await makeLanding(admin, c, { pathId: path });
    await makeOffer(admin, c, { pathId: path });
    // One row in every table that has a campaign_id column, for both campaigns.
    const tables = await campaignTables();
    for (const table of tables) {
      await insertRow(table, c);
      await insertRow(table, keep);
    }
    for (const table of tables) {
      const n = await env.DB.prepare(`SELECT count(*) n FROM ${table} WHERE campaign_id = ?1`)
        .bind(c)
        .first<{ n: number }>();
      expect(n?.n, table).toBeGreaterThan(0);
    }
    const res = await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: String(c), isPermanent: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      message: 'Campaigns Deleted Successfully.',
      isPermanent: 1,
      deleted: 1,
    });
    expect(await row(c)).toBeNull();
    for (const table of tables) {
      const gone = await env.DB.prepare(`SELECT count(*) n FROM ${table} WHERE campaign_id = ?1`)
        .bind(c)
        .first<{ n: number }>();
      expect(gone?.n, table).toBe(0);
      const kept = await env.DB.prepare(`SELECT count(*) n FROM ${table} WHERE campaign_id = ?1`)
        .bind(keep)
        .first<{ n: number }>();
      expect(kept?.n, table).toBeGreaterThan(0);
    }
    // Undo has nothing to bring back.
    const undo = await api('/api/undo-delete-campaign', { token: admin, body: { campaignId: String(c) } });
    expect(undo.status).toBe(404);
  });

  it('knows every table with a campaign_id column', async () => {
    expect([...CAMPAIGN_TABLES].sort()).toEqual((await campaignTables()).sort());
  });

  it('permanently deleting a folder removes its subtree, soft-deleted rows included', async () => {
    const f = await makeFolder(admin, 'Purge');
    const a = await makeCampaign(admin, { dir: f });
    const b = await makeCampaign(admin, { dir: f });
    await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: b, isPermanent: 0 },
    });
    const res = await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: f, isPermanent: 1 },
    });
    expect(res.body.data.deleted).toBe(3);
    for (const id of [f, a, b]) expect(await row(id)).toBeNull();
  });

  it('takes the fields from the query string too, and checks them', async () => {
    const c = await makeCampaign(admin);
    const viaQuery = await api(`/api/delete-campaign?campaignId=${c}&isPermanent=0`, {
      method: 'DELETE',
      token: admin,
    });
    expect(viaQuery.status).toBe(200);
    expect((await row(c))?.deleted).toBe(1);
    const none = await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { isPermanent: 0 },
    });
    expect(none.status).toBe(422);
    expect(none.body).toEqual({
      message: 'Select at least one campaign.',
      errors: { campaignId: ['Select at least one campaign.'] },
    });
    const flag = await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: c, isPermanent: 'maybe' },
    });
    expect(flag.status).toBe(422);
    expect(flag.body.errors).toEqual({ isPermanent: ['Use 1 or 0.'] });
    const undoNone = await api('/api/undo-delete-campaign', { token: admin, body: { campaignId: '' } });
    expect(undoNone.status).toBe(422);
    expect(undoNone.body.errors).toEqual({ campaignId: ['Select at least one campaign.'] });
  });
});

describe('POST /api/clone', () => {
  it('copies the campaign with its live items and tokens, remapping paths and options', async () => {
    const source = await makeCampaign(admin, {
      name: 'Original',
      campaignType: 'multiple_path_type',
      cpc: '0.125',
      trafficSource: 'taboola',
      extratokens: [
        { token_name: 'Ad', parameter: 'ad', url_append: '{ad_id}', landing_page_enabled: 1 },
        { token_name: 'Site', parameter: 'site' },
      ],
    });
    const f = await makeFolder(admin, 'Clone home');
    await api('/api/move-campaign', { token: admin, body: { campaignId: source, dir: f } });
    const p1 = await makePath(admin, source, { name: 'Path one', share: 70 });
    const p2 = await makePath(admin, source, { name: 'Path two', share: 30 });
    const o1 = await makeOption(admin, source, { name: 'Option one' });
    await makeLanding(admin, source, { name: 'LP one', pathId: p1, share: 60, agents: '2,3' });
    await makeLanding(admin, source, { name: 'LP two', pathId: p2 });
    await makeOffer(admin, source, { name: 'Offer one', pathId: p2, optionId: o1, payout: '12.345678' });
    const dead = await makeLanding(admin, source, { name: 'LP deleted', pathId: p1 });
    await env.DB.prepare('UPDATE landing_pages SET deleted = 1 WHERE id = ?1').bind(dead).run();
    await insertRow('daily_stats', source);

    const res = await api('/api/clone', { token: admin, body: { campaignId: source } });
    expect(res.status).toBe(201);
    expect(res.body.data.message).toBe('Campaign cloned succesfully.');
    const copy = res.body.data.resultt;
    expect(copy.campaignId).not.toBe(source);
    expect(copy).toMatchObject({
      name: 'Original (copy)',
      is_dir: 0,
      dir: f,
      deleted: 0,
      campaignType: 'multiple_path_type',
      trafficSource: 'taboola',
      cpc: 0.125,
    });

    const original = (await api(`/api/campaign?campaignId=${source}`, { token: admin })).body.data;
    const cloned = (await api(`/api/campaign?campaignId=${copy.campaignId}`, { token: admin })).body.data;
    const pathNames = (d: any) => new Map(d.path.map((p: any) => [p.pathId, p.name]));
    expect(cloned.path.map((p: any) => [p.name, p.share])).toEqual([
      ['Path one', 70],
      ['Path two', 30],
    ]);
    expect(cloned.path.map((p: any) => p.pathId)).not.toEqual(original.path.map((p: any) => p.pathId));
    expect(cloned.option.map((o: any) => o.name)).toEqual(['Option one']);
    // Items point at the copies of their paths and options, by name.
    const clonedPaths = pathNames(cloned);
    expect(cloned.landing.map((l: any) => [l.name, clonedPaths.get(l.pathId), l.share, l.agents])).toEqual([
      ['LP one', 'Path one', 60, '2,3'],
      ['LP two', 'Path two', 100, '1'],
    ]);
    expect(cloned.offer).toHaveLength(1);
    expect(cloned.offer[0]).toMatchObject({
      name: 'Offer one',
      payout: 12.345678,
      path: 'Path two',
      option: 'Option one',
    });
    expect(cloned.offer[0].optionId).toBe(cloned.option[0].optionId);
    expect(
      cloned.extratokens.map((t: any) => [
        t.slot,
        t.token_name,
        t.parameter,
        t.url_append,
        t.landing_page_enabled,
      ]),
    ).toEqual([
      [1, 'Ad', 'ad', '{ad_id}', 1],
      [2, 'Site', 'site', '', 0],
    ]);
    // Statistics are not copied.
    const stats = await env.DB.prepare('SELECT count(*) n FROM daily_stats WHERE campaign_id = ?1')
      .bind(copy.campaignId)
      .first<{ n: number }>();
    expect(stats?.n).toBe(0);
  });

  it('the clone is independent: editing it leaves the original alone', async () => {
    const source = await makeCampaign(admin, { name: 'Independent', campaignType: 'landing_page' });
    const lp = await makeLanding(admin, source, { name: 'Shared LP', url: 'https://lp.example/a' });
    const copy = (await api('/api/clone', { token: admin, body: { campaignId: source } })).body.data.resultt;
    const cloned = (await api(`/api/campaign?campaignId=${copy.campaignId}`, { token: admin })).body.data;
    const clonedLp = cloned.landing[0].landingPageId;
    expect(clonedLp).not.toBe(lp);
    const edit = await api('/api/edit-landing', {
      method: 'PUT',
      token: admin,
      body: {
        landingPageId: clonedLp,
        campaignId: copy.campaignId,
        name: 'Changed',
        url: 'https://lp.example/b',
      },
    });
    expect(edit.status).toBe(200);
    const rename = await api('/api/edit-campaign', {
      method: 'PUT',
      token: admin,
      body: { campaignId: copy.campaignId, name: 'Renamed copy' },
    });
    expect(rename.status).toBe(200);
    const original = (await api(`/api/campaign?campaignId=${source}`, { token: admin })).body.data;
    expect(original.name).toBe('Independent');
    expect(original.landing.map((l: any) => [l.landingPageId, l.name, l.url])).toEqual([
      [lp, 'Shared LP', 'https://lp.example/a'],
    ]);
  });

  it('refuses folders, deleted and unknown campaigns', async () => {
    const f = await makeFolder(admin, 'No clone');
    expect((await api('/api/clone', { token: admin, body: { campaignId: f } })).status).toBe(404);
    const c = await makeCampaign(admin);
    await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: c, isPermanent: 0 },
    });
    const deleted = await api('/api/clone', { token: admin, body: { campaignId: c } });
    expect(deleted.status).toBe(404);
    expect(deleted.body.message).toBe('Campaign not found.');
    const none = await api('/api/clone', { token: admin, body: {} });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ campaignId: ['Campaign is required.'] });
  });
});

describe('roles', () => {
  it("a student cannot see or touch an admin's campaigns or folders", async () => {
    const student = await userWithRole(admin, 'student');
    const adminCampaign = await makeCampaign(admin, { name: 'Admin only' });
    const adminFolder = await makeFolder(admin, 'Admin folder');
    const own = await makeCampaign(student.token, { name: 'Mine' });
    const t = student.token;

    expect(ids((await list(t)).result)).not.toContain(adminCampaign);
    expect((await api(`/api/campaign?dir=${adminFolder}`, { token: t })).status).toBe(404);
    const calls: [string, string, Record<string, unknown>][] = [
      ['POST', '/api/move-campaign', { campaignId: adminCampaign, dir: 0 }],
      ['POST', '/api/edit-campaign-folder', { campaignId: adminFolder, name: 'Hacked' }],
      ['DELETE', '/api/delete-campaign', { campaignId: String(adminCampaign), isPermanent: 1 }],
      ['DELETE', '/api/delete-campaign', { campaignId: `${own},${adminCampaign}`, isPermanent: 0 }],
      ['POST', '/api/undo-delete-campaign', { campaignId: String(adminCampaign) }],
      ['POST', '/api/clone', { campaignId: adminCampaign }],
      ['POST', '/api/export-campaign', { campaignId: adminCampaign }],
      ['POST', '/api/export-campaigns', { campaign_ids: [own, adminCampaign] }],
      ['POST', '/api/add-campaign-folder', { name: 'Grab', moveCampaigns: [adminCampaign] }],
      ['POST', '/api/reset-stats', { campaignId: adminCampaign }],
    ];
    for (const [method, path, body] of calls) {
      const res = await api(path, { method, token: t, body });
      expect(res.status, path).toBe(404);
    }
    // Nor can it put its own campaign into the admin's folder.
    const into = await api('/api/move-campaign', { token: t, body: { campaignId: own, dir: adminFolder } });
    expect(into.status).toBe(422);
    expect(into.body.errors).toEqual({ dir: ['Select a valid folder.'] });
    // Nothing changed.
    expect(await row(adminCampaign)).toMatchObject({ deleted: 0, parent_id: null, name: 'Admin only' });
    expect(await row(adminFolder)).toMatchObject({ name: 'Admin folder', deleted: 0 });
    expect((await row(own))?.deleted).toBe(0);
  });

  it("an admin and a coach manage a student's campaigns", async () => {
    const student = await userWithRole(admin, 'student');
    const coach = await userWithRole(admin, 'coach');
    const theirs = await makeCampaign(student.token, { name: 'Student campaign' });
    const cloned = await api('/api/clone', { token: coach.token, body: { campaignId: theirs } });
    expect(cloned.status).toBe(201);
    // The copy belongs to the campaign's owner, so the student sees it next to the original.
    expect((await row(cloned.body.data.resultt.campaignId))?.created_by).toBe(student.id);
    expect(ids((await list(student.token)).result)).toContain(cloned.body.data.resultt.campaignId);
    const del = await api('/api/delete-campaign', {
      method: 'DELETE',
      token: admin,
      body: { campaignId: theirs, isPermanent: 0 },
    });
    expect(del.status).toBe(200);
  });

  it('needs a token', async () => {
    for (const path of [
      '/api/move-campaign',
      '/api/add-campaign-folder',
      '/api/clone',
      '/api/export-campaign',
    ]) {
      expect((await api(path, { body: {} })).status, path).toBe(401);
    }
    expect((await api('/api/delete-campaign', { method: 'DELETE', body: {} })).status).toBe(401);
  });
});

describe('POST /api/reset-stats (used by the list)', () => {
  it('answers status and message and clears the statistics', async () => {
    const c = await makeCampaign(admin);
    await insertRow('daily_stats', c);
    const res = await api('/api/reset-stats', { token: admin, body: { campaignId: c } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: true, message: 'Statistics have been reset.' });
    const n = await env.DB.prepare('SELECT count(*) n FROM daily_stats WHERE campaign_id = ?1')
      .bind(c)
      .first<{ n: number }>();
    expect(n?.n).toBe(0);
  });
});

// ---- helpers -----------------------------------------------------------------------------------

/** Every table with a campaign_id column, read from the schema itself. */
async function campaignTables(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' ORDER BY name",
  ).all<{ name: string }>();
  const out: string[] = [];
  for (const { name } of results) {
    if ((await columns(name)).some((c) => c.name === 'campaign_id')) out.push(name);
  }
  return out;
}

type Column = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number };
const columns = async (table: string) =>
  (await env.DB.prepare(`PRAGMA table_info("${table}")`).all<Column>()).results;

let uniq = 0;
/** A row for `campaignId` in `table`, every required column filled with a plausible value. */
async function insertRow(table: string, campaignId: number) {
  const results = await columns(table);
  const cols: string[] = [];
  const values: unknown[] = [];
  for (const col of results) {
    if (col.name === 'campaign_id') {
      cols.push(col.name);
      values.push(campaignId);
    } else if ((col.notnull === 1 && col.dflt_value === null) || (col.pk > 0 && !/INTEGER/i.test(col.type))) {
      if (col.pk === 1 && /INTEGER/i.test(col.type) && results.filter((r) => r.pk > 0).length === 1) continue;
      uniq += 1;
      cols.push(col.name);
      values.push(/INT|REAL/i.test(col.type) ? uniq : `v${uniq}`);
    } else if (col.name === 'slot') {
      cols.push(col.name);
      values.push(1 + (uniq % 20));
    }
  }
  await env.DB.prepare(
    `INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((_, i) => `?${i + 1}`).join(', ')})`,
  )
    .bind(...values)
    .run();
}
