import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeCampaign, makeFolder } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { ids, list, row } from '../support/campaign-list';

// The campaigns list of spec 1 §4/§7: folders, moving, renaming, and who may do what. The delete
// call of spec 2 §7, undo, clone and the statistics reset are in campaign-list-delete.test.ts.

const admin = await setupInstallation();

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
