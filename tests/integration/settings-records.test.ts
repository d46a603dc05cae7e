import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_MESSAGES as M } from '../../schema/settings-api';
import type { TrackEvent } from '../../schema/tracking';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer, makeOption, makePath } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { hit } from '../factories/traffic';
import { CAMPAIGN_TREE_TABLES } from '../support/campaign-tables';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';

// Database find-and-replace (POST /api/db-find, /api/db-replace) and delete-all-records
// (DELETE /api/clean-records) of the settings screen.

let admin: string;
let student: { id: number; username: string; password: string; token: string };

const count = async (table: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

beforeAll(async () => {
  admin = await setupInstallation();
  student = await userWithRole(admin, 'student');
});

describe('POST /api/db-find and /api/db-replace', () => {
  let adminCampaign: number;
  let studentCampaign: number;
  let l1: number;
  let l2: number;
  let l3: number;

  beforeAll(async () => {
    adminCampaign = await makeCampaign(admin, { name: 'Admin summer', campaignType: 'landing_page' });
    studentCampaign = await makeCampaign(student.token, {
      name: 'Student summer',
      campaignType: 'landing_page',
    });
    l1 = await makeLanding(admin, adminCampaign, {
      name: 'Old A',
      url: 'https://old.example/a?x=old.example',
    });
    l2 = await makeLanding(admin, adminCampaign, { name: 'Other', url: 'https://other.example/b' });
    l3 = await makeLanding(student.token, studentCampaign, { name: 'Old S', url: 'https://old.example/s' });
    await makeOffer(admin, adminCampaign, { name: 'Offer old.example', url: 'https://offers.example/o' });
  });

  it('previews every match with the value before and after, landing page URL by default', async () => {
    const res = await api('/api/db-find', {
      token: admin,
      body: { find: 'old.example', replace: 'new.example' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.field).toBe('landingpage.url');
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.results).toEqual([
      {
        id: l1,
        campaignId: adminCampaign,
        campaignName: 'Admin summer',
        name: 'Old A',
        deleted: 0,
        before: 'https://old.example/a?x=old.example',
        after: 'https://new.example/a?x=new.example',
      },
      {
        id: l3,
        campaignId: studentCampaign,
        campaignName: 'Student summer',
        name: 'Old S',
        deleted: 0,
        before: 'https://old.example/s',
        after: 'https://new.example/s',
      },
    ]);
    // Case matters; a field other than the default.
    expect((await api('/api/db-find', { token: admin, body: { find: 'OLD.example' } })).body.data.total).toBe(
      0,
    );
    const offers = await api('/api/db-find', {
      token: admin,
      body: { field: 'offerpage.name', find: 'old' },
    });
    expect(offers.body.data.results.map((r: { before: string }) => r.before)).toEqual(['Offer old.example']);
  });

  it('shows a student only the matches in their own campaigns', async () => {
    const res = await api('/api/db-find', { token: student.token, body: { find: 'old.example' } });
    expect(res.body.data.results.map((r: { id: number }) => r.id)).toEqual([l3]);
    const replaced = await api('/api/db-replace', {
      token: student.token,
      body: { find: 'old.example', replace: 'mine.example' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toEqual({ count: 1, message: '1 record updated.' });
    const rows = await env.DB.prepare('SELECT id, url FROM landing_pages WHERE id IN (?1, ?2) ORDER BY id')
      .bind(l1, l3)
      .all();
    expect(rows.results).toEqual([
      { id: l1, url: 'https://old.example/a?x=old.example' },
      { id: l3, url: 'https://mine.example/s' },
    ]);
  });

  it('replaces in every match and the tracking link follows the new URL', async () => {
    const res = await api('/api/db-replace', {
      token: admin,
      body: { field: 'landingpage.url', find: 'old.example', replace: 'new.example' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ count: 1, message: '1 record updated.' });
    const url = await env.DB.prepare('SELECT url FROM landing_pages WHERE id = ?1').bind(l1).first('url');
    expect(url).toBe('https://new.example/a?x=new.example');
    expect(await env.DB.prepare('SELECT url FROM landing_pages WHERE id = ?1').bind(l2).first('url')).toBe(
      'https://other.example/b',
    );

    // Only l2 is left with 'other': the campaign link now routes there or to the new URL.
    const visit = await hit(`/go/${adminCampaign}?tid=t`);
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toMatch(/^https:\/\/(new|other)\.example\//);

    const names = await api('/api/db-replace', {
      token: admin,
      body: { field: 'campaign.name', find: 'summer', replace: 'winter' },
    });
    expect(names.body.data).toEqual({ count: 2, message: '2 records updated.' });
    const none = await api('/api/db-replace', { token: admin, body: { find: 'nowhere', replace: 'x' } });
    expect(none.body.data).toEqual({ count: 0, message: '0 records updated.' });
  });

  it('changes nothing when a result would be invalid', async () => {
    const badUrl = await api('/api/db-replace', {
      token: admin,
      body: { field: 'landingpage.url', find: 'https://', replace: 'ftp://' },
    });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body.errors).toEqual({ replace: [M.replaceInvalidUrl] });
    const emptyName = await api('/api/db-replace', {
      token: admin,
      body: { field: 'landingpage.name', find: 'Other', replace: '' },
    });
    expect(emptyName.body.errors).toEqual({ replace: [M.replaceEmptyName] });
    const postback = await api('/api/db-replace', {
      token: admin,
      body: { field: 'campaign.custom_url', find: 'x', replace: 'y' },
    });
    expect(postback.body.data.count).toBe(0);
    const urls = await env.DB.prepare('SELECT url FROM landing_pages ORDER BY id').all();
    expect(urls.results.every((r) => String(r.url).startsWith('https://'))).toBe(true);
  });

  it('checks the field and the find text', async () => {
    const field = await api('/api/db-find', {
      token: admin,
      body: { field: 'users.password_hash', find: 'a' },
    });
    expect(field.status).toBe(422);
    expect(field.body.errors).toEqual({ field: [M.findFieldInvalid] });
    const find = await api('/api/db-replace', { token: admin, body: { field: 'landingpage.url', find: '' } });
    expect(find.body.errors).toEqual({ find: [M.findRequired] });
    expect((await api('/api/db-find', { body: { find: 'a' } })).status).toBe(401);
  });
});

describe('DELETE /api/clean-records', () => {
  it('asks for 1234 and is for admins only', async () => {
    for (const confirm of [undefined, '', '123', 12345, 'abcd']) {
      const res = await api('/api/clean-records', { method: 'DELETE', token: admin, body: { confirm } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ confirm: ['Please add correct number in text box.'] });
    }
    const coach = await userWithRole(admin, 'coach');
    for (const token of [student.token, coach.token]) {
      const res = await api('/api/clean-records', { method: 'DELETE', token, body: { confirm: 1234 } });
      expect(res.status).toBe(403);
    }
    expect(await count('campaigns')).toBeGreaterThan(0);
  });

  it('deletes campaigns, items, tokens, statistics and costs; users, settings and devices stay', async () => {
    const campaignId = await makeCampaign(admin, {
      name: 'Doomed',
      campaignType: 'multiple_path_type',
      extratokens: [{ token_name: 'Sub', parameter: 'sub1' }],
    });
    const pathId = await makePath(admin, campaignId);
    const landing = await makeLanding(admin, campaignId, { pathId });
    const offer = await makeOffer(admin, campaignId, { pathId });
    const optCampaign = await makeCampaign(admin, { name: 'Options', campaignType: 'multiple_option_type' });
    await makeOption(admin, optCampaign);
    const at = Date.now();
    const events = [
      visitEvent({ id: 'cv1', c: campaignId, p: pathId, l: landing, at, tgt: 't', cc: '', ua: 'x' }),
      lpClickEvent({ id: 'cv1', c: campaignId, p: pathId, l: landing, o: offer, at }),
      conversionEvent({ id: 'cv1', c: campaignId, p: pathId, l: landing, o: offer, at }),
    ] as TrackEvent[];
    await ingestEvents(env, events);
    const cost = await api('/api/costs', {
      token: admin,
      body: { campaignId, date: '2026-11-10', target: 't', impressions: 10, ad_clicks: 2, spend: '3' },
    });
    expect(cost.status).toBe(200);
    await api('/api/update-setting', {
      token: admin,
      body: (() => {
        const f = new FormData();
        f.append('liAdvertiserId', 'keep_me');
        return f;
      })(),
    });
    const usersBefore = await count('users');
    const settingsBefore = await env.DB.prepare('SELECT key, value FROM settings ORDER BY key').all();
    // What the set-up above filled; the clean-up empties it, and the event, log and job tables too.
    const filled = [
      ...CAMPAIGN_TREE_TABLES,
      'visits',
      'lp_clicks',
      'conversions',
      'daily_stats',
      'target_daily',
      'placement_daily',
      'costs',
    ];
    for (const t of filled) expect(await count(t), t).toBeGreaterThan(0);

    const res = await api('/api/clean-records', {
      method: 'DELETE',
      token: admin,
      body: { confirm: '1234' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ message: 'Records deleted successfully.' });
    const emptied = [
      ...filled,
      'daily_event_stats',
      'target_event_daily',
      'placement_event_daily',
      'postback_log',
      'stats_jobs',
    ];
    for (const t of emptied) expect(await count(t), t).toBe(0);
    expect(await count('users')).toBe(usersBefore);
    expect(await count('agents')).toBe(4);
    expect((await env.DB.prepare('SELECT key, value FROM settings ORDER BY key').all()).results).toEqual(
      settingsBefore.results,
    );
    // The campaign is gone for the tracking link too.
    const visit = await hit(`/go/${campaignId}`);
    expect(visit.headers.get('location') ?? '').not.toMatch(/lp\.example/);
    const list = await api(`/api/campaign?campaignId=${campaignId}`, { token: admin });
    expect(list.status).toBe(404);
  });
});
