import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_TABLES } from '../../worker/services/campaigns/campaign-tree';
import { api } from '../factories/api';
import {
  makeCampaign,
  makeFolder,
  makeLanding,
  makeOffer,
  makeOption,
  makePath,
} from '../factories/campaigns';
import { setupInstallation } from '../factories/install';
import { ids, list, row } from '../support/campaign-list';

// The campaigns list's delete call of spec 2 §7 (soft delete with undo, permanent delete), clone,
// and the statistics reset the list offers. Folders, moving, renaming and roles are in
// campaign-list.test.ts.

const admin = await setupInstallation();

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
