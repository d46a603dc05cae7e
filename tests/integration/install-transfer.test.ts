import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_MESSAGES as M } from '../../schema/settings-api';
import type { TrackEvent } from '../../schema/tracking';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { importInstall } from '../../worker/services/transfer/install-import';
import { dataTables } from '../../worker/services/transfer/install-tables';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer, makeOption, makePath } from '../factories/campaigns';
import { waitForCount } from '../factories/db';
import { setupInstallation, userWithRole } from '../factories/install';
import { hit } from '../factories/traffic';
import { CAMPAIGN_TREE_TABLES } from '../support/campaign-tables';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';

// GET /api/export-install and POST /api/import-install: the whole installation out to a ZIP
// in R2 and back. The round trip is checked row by row over every table; bad files are
// refused without touching anything.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const ICO = new Uint8Array([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]);

let admin: string;
let student: { id: number; username: string; password: string; token: string };
let adminId: number;

type Snapshot = Record<string, string[]>;

/** Every row of every exported table (and settings without their timestamps), sorted. */
async function snapshot(): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const table of await dataTables(env)) {
    const rows = await env.DB.prepare(`SELECT * FROM "${table.name}"`).all();
    out[table.name] = rows.results.map((r) => JSON.stringify(r)).sort();
  }
  const settings = await env.DB.prepare('SELECT key, value FROM settings').all();
  out.settings = settings.results.map((r) => JSON.stringify(r)).sort();
  return out;
}

async function exportFile(): Promise<{ bytes: Uint8Array; link: string }> {
  const res = await api('/api/export-install', { token: admin });
  expect(res.status).toBe(200);
  expect(res.body.data.message).toBe('Exported Successfully');
  const link = res.body.data.downloadLink as string;
  const download = await SELF.fetch(`http://tracker.test${link}`);
  expect(download.status).toBe(200);
  return { bytes: new Uint8Array(await download.arrayBuffer()), link };
}

function importForm(bytes: Uint8Array | string, name = 'install.zip') {
  const data = new FormData();
  data.append('file', new File([bytes], name));
  data.append('rand', 'r-123');
  return data;
}

const importFile = (bytes: Uint8Array | string, name?: string, token = admin) =>
  api('/api/import-install', { token, body: importForm(bytes, name) });

/** The export with some entries changed (undefined removes one). */
function tamper(bytes: Uint8Array, change: Record<string, Uint8Array | string | undefined>): Uint8Array {
  const files: Record<string, Uint8Array> = unzipSync(bytes);
  for (const [name, value] of Object.entries(change)) {
    if (value === undefined) delete files[name];
    else files[name] = typeof value === 'string' ? strToU8(value) : value;
  }
  return zipSync(files);
}

const manifestOf = (bytes: Uint8Array) => JSON.parse(strFromU8(unzipSync(bytes)['manifest.json']));

beforeAll(async () => {
  admin = await setupInstallation();
  adminId = (await api('/api/user', { token: admin })).body.data.user.id;
  student = await userWithRole(admin, 'student');

  // Settings, branding and credentials.
  const settings = new FormData();
  for (const [k, v] of Object.entries({
    baseUrl: 'https://tracker.example.com',
    email: 'owner@example.com',
    title: 'Round Trip Co',
    timeZone: 'America/New_York',
    customDomain: 'go.roundtrip.test',
    route_main: 'r',
    route_click: 'c',
    route_image: 'p.gif',
    route_iframe: 'f',
    route_script: 's.js',
    route_postback: 'pb',
    liAdvertiserId: 'adv_1',
    liAid: 'app_1',
    liFetchEnable: '1',
    liUsername: 'li-user',
    liPassword: 'li-secret',
    retrieveNumDays: '14',
  }))
    settings.append(k, v);
  settings.append('logo', new File([PNG], 'logo.png'));
  settings.append('favicon', new File([ICO], 'favicon.ico'));
  const saved = await api('/api/update-setting', { token: admin, body: settings });
  expect(saved.status).toBe(200);

  // Campaigns of every type, in a folder, with items, tokens and deleted rows.
  const folder = await api('/api/add-campaign-folder', { token: admin, body: { name: 'Folder A' } });
  const folderId =
    folder.status === 201 || folder.status === 200
      ? folder.body.data?.campaign?.campaignData?.campaignId
      : undefined;
  const lp = await makeCampaign(admin, {
    name: 'Landing campaign',
    campaignType: 'landing_page',
    cpc: '0.35',
    postback_enabled: 1,
    postback: 'https://source.example/pb?c={clickid}&p={payout}',
    extratokens: [
      { token_name: 'Sub one', parameter: 'sub1', url_append: '{sub1}', landing_page_enabled: 1 },
      { token_name: 'Sub two', parameter: 'sub2' },
    ],
    ...(folderId ? { dir: folderId } : {}),
  });
  const l1 = await makeLanding(admin, lp, { name: 'LP one', url: 'https://lp.example/1', share: 70 });
  const l2 = await makeLanding(admin, lp, {
    name: 'LP two — ünïcode "quoted"',
    url: 'https://lp.example/2?a=1&b={clickid}',
    share: 30,
  });
  const o1 = await makeOffer(admin, lp, { name: 'Offer one', payout: '12.34' });
  await makeOffer(admin, lp, {
    name: 'Offer two',
    payout: '0.01',
    rotator_participant_email: 'p@example.com',
  });
  const paths = await makeCampaign(admin, { name: 'Paths', campaignType: 'multiple_path_type' });
  const p1 = await makePath(admin, paths, { name: 'Path A', share: 40 });
  await makeLanding(admin, paths, { pathId: p1, url: 'https://lp.example/p' });
  await makeOffer(admin, paths, { pathId: p1 });
  const opts = await makeCampaign(student.token, {
    name: 'Student options',
    campaignType: 'multiple_option_type',
  });
  const opt = await makeOption(student.token, opts, { name: 'Option 1' });
  await makeOffer(student.token, opts, { optionId: opt });
  const gone = await makeLanding(admin, lp, { name: 'Deleted LP' });
  await env.DB.prepare('UPDATE landing_pages SET deleted = 1 WHERE id = ?1').bind(gone).run();

  // Statistics: enough raw rows to span several pages and insert chunks.
  const at = Date.UTC(2026, 10, 10, 15, 0);
  const events: TrackEvent[] = [];
  // Click i, its LP click and its conversion: on landing page 1 but every third one on 2.
  const click = (i: number) => ({ id: `v${i}`, c: lp, l: i % 3 ? l1 : l2 });
  for (let i = 0; i < 2600; i++) {
    events.push(
      visitEvent({
        ...click(i),
        at: at + i,
        tgt: `t${i % 7}`,
        kw: i % 2 ? 'kw' : '',
        ref: 'https://ref.example/',
        ua: 'Mozilla/5.0 test agent string that makes the rows a little longer than they would be',
        f: i % 50 === 0 ? 'bot' : null,
        tok: { 1: `s${i}` },
      }),
    );
  }
  for (let i = 0; i < 400; i++) {
    events.push(lpClickEvent({ ...click(i), o: o1, at: at + 5000 + i }));
  }
  for (let i = 0; i < 40; i++) {
    events.push(conversionEvent({ ...click(i), o: o1, at: at + 9000 + i, tx: `tx${i}`, pay: 12.5 }));
  }
  await ingestEvents(env, events);
  // An orphan conversion (its visit never came).
  await ingestEvents(env, [
    conversionEvent({ id: 'ghost', c: lp, l: l1, o: o1, at, ev: 'lp', src: 'pixel' }),
  ]);
  const cost = await api('/api/costs', {
    token: admin,
    body: {
      campaignId: lp,
      date: '2026-11-10',
      target: 't1',
      impressions: 1000,
      ad_clicks: 25,
      spend: '9.87',
    },
  });
  expect(cost.status).toBe(200);
  await env.DB.prepare(
    "INSERT INTO optimizer_log (campaign_id, landing_id, action, reason) VALUES (?1, ?2, 'paused', 'worse than control')",
  )
    .bind(lp, l2)
    .run();
});

describe('export and import of the whole installation', () => {
  it('round trip: export, delete all records, import; every table holds the same rows', async () => {
    const before = await snapshot();
    expect(before.visits.length).toBe(2600);
    expect(before.conversions.length).toBe(41);
    expect(before.campaigns.length).toBeGreaterThanOrEqual(3);
    expect(before.costs.length).toBe(1);
    expect(before.optimizer_log.length).toBe(1);

    const { bytes, link } = await exportFile();
    expect(link).toMatch(/^\/files\/download\?/);
    expect(new URL(`http://x${link}`).searchParams.get('name')).toMatch(
      /^install-export-\d{4}-\d{2}-\d{2}\.zip$/,
    );
    const files = unzipSync(bytes);
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    expect(manifest).toMatchObject({ format: 'edge-tracker-install', version: 1 });
    const tables = manifest.tables.map((t: { name: string }) => t.name);
    for (const t of [
      ...CAMPAIGN_TREE_TABLES,
      'agents',
      'visits',
      'lp_clicks',
      'conversions',
      'daily_stats',
      'daily_event_stats',
      'target_daily',
      'placement_daily',
      'costs',
      'postback_log',
      'optimizer_log',
    ]) {
      expect(tables, t).toContain(t);
    }
    for (const t of ['users', 'login_tokens', 'password_resets', 'mail_outbox', 'stats_jobs', 'settings']) {
      expect(tables, t).not.toContain(t);
    }
    const exportedSettings = JSON.parse(strFromU8(files['settings.json']));
    expect(exportedSettings).toMatchObject({
      title: 'Round Trip Co',
      route_main: 'r',
      li_advertiser_id: 'adv_1',
    });
    // Machine settings and credentials encrypted with this machine's key stay behind.
    for (const key of [
      'setup_done',
      'license_key',
      'license_email',
      'base_url',
      'custom_domain',
      'li_password',
      'li_username',
    ]) {
      expect(exportedSettings, key).not.toHaveProperty(key);
    }
    expect(strFromU8(files['settings.json'])).not.toContain('enc:');
    expect(Object.keys(files).filter((n) => n.startsWith('files/'))).toHaveLength(2);

    const clean = await api('/api/clean-records', {
      method: 'DELETE',
      token: admin,
      body: { confirm: 1234 },
    });
    expect(clean.status).toBe(200);
    expect((await snapshot()).visits).toEqual([]);
    // As on another machine: the branding files are not in this bucket.
    for (const key of (await env.BUCKET.list({ prefix: 'public/branding/' })).objects)
      await env.BUCKET.delete(key.key);

    const res = await importFile(bytes);
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Install Imported Successfully');
    expect(res.body.data.rand).toBe('r-123');
    expect(res.body.data.rows).toBe(
      Object.values(manifest.tables).reduce((n: number, t: any) => n + t.rows, 0),
    );
    const after = await snapshot();
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);

    // The logo is served again, and the routes work: the campaign link redirects.
    const logo = (await api('/api/logo')).body.data.logo;
    expect((await api(logo)).status).toBe(200);
    const lp = (await env.DB.prepare("SELECT id FROM campaigns WHERE name = 'Landing campaign'").first(
      'id',
    )) as number;
    const visit = await hit(`/r/${lp}?tid=x`);
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toMatch(/^https:\/\/lp\.example\//);
    // Its visit reaches the tables through the queue; wait, so later snapshots hold still.
    await waitForCount("SELECT count(*) AS n FROM visits WHERE target = 'x'", [], 1);
    // The stored credential survived (this machine's key).
    expect((await api('/api/settings', { token: admin })).body.data.liPasswordSet).toBe(true);
  });

  it('imports a large installation in several transactions, in order, with the same result', async () => {
    const before = await snapshot();
    const { bytes } = await exportFile();
    await api('/api/clean-records', { method: 'DELETE', token: admin, body: { confirm: 1234 } });
    const user = {
      id: adminId,
      username: 'owner',
      email: '',
      role: 'admin' as const,
      rotatorIsEnabled: false,
      tokenVersion: 0,
    };
    // Batches of about 600 KB: the 2,600 visits alone take several.
    let batches = 0;
    const db = env.DB;
    const counting = Object.create(db, {
      batch: {
        value: (statements: D1PreparedStatement[]) => {
          batches += 1;
          return db.batch(statements);
        },
      },
    });
    const result = await importInstall({ ...env, DB: counting }, user, new File([bytes], 'install.zip'), {
      batchBytes: 600 * 1024,
    });
    expect(batches).toBeGreaterThan(2);
    expect(result.rows).toBeGreaterThan(2600);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps this machine’s settings and matches owners by username', async () => {
    const { bytes } = await exportFile();
    await env.DB.prepare(
      "UPDATE settings SET value = 'https://other-machine.example' WHERE key = 'base_url'",
    ).run();
    await env.DB.prepare("UPDATE settings SET value = 'Changed title' WHERE key = 'title'").run();
    const oldName = student.username;
    // On the other installation the student has another name: their campaigns go to the importer.
    await env.DB.prepare('UPDATE users SET username = ?1 WHERE id = ?2')
      .bind(`${oldName}-x`, student.id)
      .run();
    const res = await importFile(bytes);
    expect(res.status).toBe(200);
    const s = (await api('/api/settings', { token: admin })).body.data;
    expect(s.baseUrl).toBe('https://other-machine.example');
    expect(s.title).toBe('Round Trip Co');
    const owner = await env.DB.prepare(
      "SELECT created_by FROM campaigns WHERE name = 'Student options'",
    ).first('created_by');
    expect(owner).toBe(adminId);
    const admins = await env.DB.prepare(
      "SELECT count(*) AS n FROM campaigns WHERE name = 'Landing campaign' AND created_by = ?1",
    )
      .bind(adminId)
      .first('n');
    expect(admins).toBe(1);
    await env.DB.prepare('UPDATE users SET username = ?1 WHERE id = ?2').bind(oldName, student.id).run();
    await importFile(bytes);
    const back = await env.DB.prepare(
      "SELECT created_by FROM campaigns WHERE name = 'Student options'",
    ).first('created_by');
    expect(back).toBe(student.id);
  });
});

describe('import-install refuses bad files and changes nothing', () => {
  let good: Uint8Array;
  let before: Snapshot;

  beforeAll(async () => {
    good = (await exportFile()).bytes;
    before = await snapshot();
  });

  async function refused(bytes: Uint8Array | string, message: string, name = 'install.zip') {
    const res = await importFile(bytes, name);
    expect(res.status, message).toBe(422);
    expect(res.body.errors).toEqual({ file: [message] });
    expect(res.body.message).toBe(message);
  }

  it('checks presence, extension, magic bytes, size and a damaged archive', async () => {
    const none = await api('/api/import-install', {
      token: admin,
      body: (() => {
        const f = new FormData();
        f.append('rand', '1');
        return f;
      })(),
    });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ file: [M.importFileRequired] });
    await refused(good, M.importFileInvalid, 'install.json');
    await refused('just some text', M.importFileInvalid);
    await refused(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9]), M.importFileCorrupt);
    // A real export cut short loses its central directory.
    await refused(good.slice(0, Math.floor(good.length / 2)), M.importFileCorrupt);
    const big = new Uint8Array(32 * 1024 * 1024 + 10);
    big.set([0x50, 0x4b, 0x03, 0x04]);
    await refused(big, M.importFileTooLarge);
  });

  it('checks entry names (no path traversal), sizes and the manifest', async () => {
    await refused(tamper(good, { '../evil.json': '{}' }), M.importUnexpectedEntry);
    await refused(tamper(good, { '/etc/passwd': 'x' }), M.importUnexpectedEntry);
    await refused(tamper(good, { 'tables\\..\\x.ndjson': 'x' }), M.importUnexpectedEntry);
    await refused(tamper(good, { 'files/public/branding/../../x.png': PNG }), M.importUnexpectedEntry);
    await refused(tamper(good, { 'tables/visits/99999.ndjson': '[]\n' }), M.importUnexpectedEntry);
    // An entry that unpacks to more than 16 MB (a few KB packed): refused before unpacking.
    await refused(
      tamper(good, { 'tables/visits/99998.ndjson': new Uint8Array(17 * 1024 * 1024) }),
      M.importTooBig,
    );
    await refused(tamper(good, { 'manifest.json': undefined }), M.importNotAnExport);
    await refused(tamper(good, { 'manifest.json': 'not json' }), M.importNotAnExport);
    const manifest = manifestOf(good);
    await refused(
      tamper(good, { 'manifest.json': JSON.stringify({ ...manifest, format: 'other' }) }),
      M.importNotAnExport,
    );
    await refused(
      tamper(good, { 'manifest.json': JSON.stringify({ ...manifest, version: 2 }) }),
      M.importNewerVersion,
    );
    const alien = {
      ...manifest,
      tables: [...manifest.tables, { name: 'aliens', columns: ['id'], rows: 0, parts: [] }],
    };
    await refused(tamper(good, { 'manifest.json': JSON.stringify(alien) }), M.importNewerVersion);
    const extraColumn = {
      ...manifest,
      tables: manifest.tables.map((t: any) =>
        t.name === 'agents' ? { ...t, columns: [...t.columns, 'colour'] } : t,
      ),
    };
    await refused(tamper(good, { 'manifest.json': JSON.stringify(extraColumn) }), M.importNewerVersion);
  });

  it('checks every row before writing any', async () => {
    const manifest = manifestOf(good);
    const visits = manifest.tables.find((t: any) => t.name === 'visits');
    const part = visits.parts[0] as string;
    const text = strFromU8(unzipSync(good)[part]);
    const lines = text.trimEnd().split('\n');
    // The last row of the last part is broken: the first parts are fine, nothing may be written.
    const width = JSON.parse(lines[0]).length;
    await refused(tamper(good, { [part]: `${lines.slice(0, -1).join('\n')}\n[1,2,3]\n` }), M.importBadRows);
    await refused(tamper(good, { [part]: `${lines.join('\n')}\n{"a":1}\n` }), M.importBadRows);
    await refused(
      tamper(good, { [part]: `${lines.join('\n')}\n${JSON.stringify(Array(width).fill({}))}\n` }),
      M.importBadRows,
    );
    // Duplicate primary key (same row count), and a row count that does not match the manifest.
    await refused(
      tamper(good, { [part]: `${[...lines.slice(0, -1), lines[0]].join('\n')}\n` }),
      M.importBadRows,
    );
    await refused(tamper(good, { [part]: `${lines.slice(1).join('\n')}\n` }), M.importBadRows);
    // Settings: a route the application owns, an unknown time zone.
    const settings = JSON.parse(strFromU8(unzipSync(good)['settings.json']));
    await refused(
      tamper(good, { 'settings.json': JSON.stringify({ ...settings, route_main: 'api' }) }),
      M.importBadRows,
    );
    await refused(
      tamper(good, { 'settings.json': JSON.stringify({ ...settings, time_zone: 'Mars/Base' }) }),
      M.importBadRows,
    );
    // A logo whose bytes are not an image.
    const logo = Object.keys(unzipSync(good)).find((n) => n.startsWith('files/') && n.endsWith('.png'))!;
    await refused(tamper(good, { [logo]: '<script>alert(1)</script>' }), M.importBadRows);

    expect(await snapshot()).toEqual(before);
  });

  it('is for admins only', async () => {
    const coach = await userWithRole(admin, 'coach');
    for (const token of [student.token, coach.token]) {
      expect((await api('/api/export-install', { token })).status).toBe(403);
      expect((await importFile(good, 'install.zip', token)).status).toBe(403);
    }
    expect((await api('/api/export-install')).status).toBe(401);
    expect((await api('/api/import-install', { body: importForm(good) })).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });
});
