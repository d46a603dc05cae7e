// /setting: an admin changes the title and a tracking route and uploads a logo; the header
// shows the new logo (served from R2 under /files/public/) and the sidebar the new title; the
// new route carries a campaign link. Find-and-replace previews its matches before replacing.
// A student sees only their password and their own find-and-replace.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { ADMIN, adminToken, api, apiLogin, BASE, createUserViaApi, mintLicense } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { expectPath, expectText, expectToast } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const NEW_TITLE = 'Northwind Media';
const SHOTS = new URL('screenshots/', import.meta.url);

/** A picture of one part of the page at full resolution (the full-page shots are scaled). */
async function part(locator, name) {
  await locator.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname });
}
const UPDATED = 'Setting has been successfully Updated.';

// ---- a real PNG (the browser must be able to draw it) ------------------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
/** A 180 × 32 logo: a teal block and three bars, on transparent. */
function logoPng() {
  const w = 180;
  const h = 32;
  const raw = Buffer.alloc((w * 4 + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (w * 4 + 1)] = 0;
    for (let x = 0; x < w; x++) {
      const i = y * (w * 4 + 1) + 1 + x * 4;
      const block = x < 32;
      const bar = x >= 44 && y % 11 < 6 && x < 44 + (y < 11 ? 130 : y < 22 ? 96 : 60);
      if (block || bar) {
        raw[i] = block ? 13 : 15;
        raw[i + 1] = block ? 148 : 23;
        raw[i + 2] = block ? 136 : 42;
        raw[i + 3] = 255;
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const suite = browserForFile();
let admin;
suite.setUp(async () => {
  admin = await adminToken();
});
after(async () => {
  // Later files expect the default route, title and logo.
  const token = await adminToken();
  const current = (await api('/api/settings', { token })).body.data;
  await api('/api/update-setting', {
    token,
    body: { ...pick(current), title: 'Edge Tracker', route_main: 'go', resetLogo: '1', resetFavicon: '1' },
  });
});

function pick(s) {
  const keys = ['baseUrl', 'email', 'title', 'timeZone', 'customDomain'];
  const routes = [
    'route_main',
    'route_click',
    'route_image',
    'route_iframe',
    'route_script',
    'route_postback',
  ];
  return Object.fromEntries([...keys, ...routes].map((k) => [k, s[k]]));
}

test('admin changes the title and a route, uploads a logo and sees it in the header', {
  timeout: 60_000,
}, async () => {
  const { context, page } = await signedInPage(suite.browser);
  await page.locator('.nav-link', { hasText: 'Settings' }).click();
  await expectPath(page, '/setting');
  await expectText(page.locator('h1'), 'Settings');
  await page.locator('#settings-title').waitFor();
  // The sidebar: help panel, and the built-in mark with the title and version.
  await page.locator('.help-panel').waitFor();
  await expectText(page.locator('.sidebar-brand-title'), 'Edge Tracker');
  assert.match((await page.locator('.sidebar-brand-version').textContent()) ?? '', /^Version \d+\.\d+\.\d+$/);
  await shot(page, 'settings');

  // A blank title is refused with the spec's message under the field, nothing is sent.
  await page.locator('#settings-title').fill('');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expectText(page.locator('#settings-title-error'), 'Title field is required.');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'settings-title');

  await page.locator('#settings-title').fill(NEW_TITLE);
  await page.locator('#settings-route_main').fill('visit');
  await expectText(
    page.locator('[data-testid="route-example"] code'),
    `${BASE}/visit/123?tid=REPLACE_WITH_AD_ID`,
  );
  await page.locator('[data-testid="settings-logo-input"]').setInputFiles({
    name: 'northwind.png',
    mimeType: 'image/png',
    buffer: logoPng(),
  });
  const preview = page.locator('[data-testid="settings-logo-preview"] img');
  await preview.waitFor();
  assert.match((await preview.getAttribute('src')) ?? '', /^blob:/);
  // A logo of the wrong type is refused before anything is sent.
  await page.locator('[data-testid="settings-favicon-input"]').setInputFiles({
    name: 'icon.gif',
    mimeType: 'image/gif',
    buffer: Buffer.from('GIF89a'),
  });
  await expectText(page.locator('#settings-favicon-error'), 'Favicon must be a png or ico file.');
  await page.locator('[data-testid="settings-favicon-input"]').setInputFiles([]);

  await page.locator('#settings-title').press('Enter');
  await expectText(page.locator('#settings-favicon-error'), 'Favicon must be a png or ico file.');
  // The refused favicon blocks the save; the picker clears once a good file or none is chosen.
  await page.locator('[data-testid="settings-favicon-input"]').setInputFiles({
    name: 'icon.png',
    mimeType: 'image/png',
    buffer: logoPng(),
  });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expectToast(page, UPDATED);

  // The header's logo is the uploaded file, served from R2; the sidebar shows the new title.
  const headerLogo = page.locator('.app-header .app-logo img');
  await headerLogo.waitFor();
  const src = (await headerLogo.getAttribute('src')) ?? '';
  assert.match(src, /^\/files\/public\/branding\/logo-[\w-]+\.png$/);
  assert.equal(await headerLogo.getAttribute('alt'), NEW_TITLE);
  await page.waitForFunction(() => {
    const img = document.querySelector('.app-header .app-logo img');
    return img instanceof HTMLImageElement && img.complete && img.naturalWidth === 180;
  });
  await expectText(page.locator('.sidebar-brand-title'), NEW_TITLE);
  assert.match(
    (await page.locator('.sidebar-brand-logo').getAttribute('src')) ?? '',
    /\/files\/public\/branding\/favicon-/,
  );
  const served = await fetch(new URL(src, BASE));
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('content-type'), 'image/png');
  // The tab shows the uploaded favicon.
  await page.waitForFunction(() =>
    /\/files\/public\/branding\/favicon-/.test(
      document.querySelector('link[rel="icon"]')?.getAttribute('href') ?? '',
    ),
  );

  // The new route carries the campaign link.
  const made = await api('/api/add-campaign', {
    token: admin,
    body: { name: 'Route e2e', campaignType: 'landing_page' },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const campaignId = made.body.data.campaign.campaignData.campaignId;
  const lp = await api('/api/add-landing', {
    token: admin,
    body: { campaignId, name: 'LP', url: 'https://old-domain.example/lp' },
  });
  assert.equal(lp.status, 201, JSON.stringify(lp.body));
  const visit = await fetch(`${BASE}/visit/${campaignId}?tid=e2e`, {
    redirect: 'manual',
    headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' },
  });
  assert.equal(visit.status, 302);
  assert.match(visit.headers.get('location') ?? '', /^https:\/\/old-domain\.example\/lp/);

  // After a reload the saved values are what the form shows.
  await page.reload();
  await page.locator('#settings-title').waitFor();
  assert.equal(await page.locator('#settings-title').inputValue(), NEW_TITLE);
  assert.equal(await page.locator('#settings-route_main').inputValue(), 'visit');
  await page.locator('.app-header .app-logo img').waitFor();
  await shot(page, 'settings-saved');
  await part(page.locator('#branding'), 'settings-part-branding');
  await part(page.locator('.app-header'), 'settings-part-header');
  await part(page.locator('.sidebar'), 'settings-part-sidebar');

  // Find and replace: the preview lists the match with before and after, then it is replaced.
  await page.locator('.settings-index-link', { hasText: 'Find and replace' }).click();
  await page.locator('#dbfind-find').fill('old-domain.example');
  await page.locator('#dbfind-replace').fill('new-domain.example');
  await page.locator('#dbfind-replace').press('Enter');
  const results = page.locator('[data-testid="find-results"]');
  await results.waitFor();
  const row = results.locator('tbody tr', { hasText: 'Route e2e' });
  await expectText(row.locator('td').nth(2), 'https://old-domain.example/lp');
  await expectText(row.locator('td').nth(3), 'https://new-domain.example/lp');
  await row.scrollIntoViewIfNeeded();
  await shot(page, 'settings-find-replace');
  await part(page.locator('#find-replace'), 'settings-part-find');
  await part(page.locator('#liveintent'), 'settings-part-liveintent');
  await results.getByRole('button', { name: /^Replace in 1 record$/ }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Replace' }).click();
  await expectToast(page, '1 record updated.');
  await expectText(page.locator('.find-results-count'), 'No matches.');

  // Export, then import the downloaded file: a confirmation, progress, the success toast.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expectToast(page, 'Exported Successfully');
  const download = await downloading;
  assert.match(download.suggestedFilename(), /^install-export-\d{4}-\d{2}-\d{2}\.zip$/);
  // The download is stored under a random name; the picker is given the suggested one.
  await page.locator('[data-testid="import-file-input"]').setInputFiles({
    name: download.suggestedFilename(),
    mimeType: 'application/zip',
    buffer: readFileSync(await download.path()),
  });
  await expectText(page.locator('.import-box .upload-file-name'), download.suggestedFilename());
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Import' }).click();
  await expectToast(page, 'Install Imported Successfully');
  // A file that is not an export: the failure toast and the server's reason under the control.
  await page.locator('[data-testid="import-file-input"]').setInputFiles({
    name: 'broken.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from('this is not a zip archive'),
  });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Import' }).click();
  await expectToast(page, 'Import Install Failed.');
  await expectText(page.locator('#import-hint'), 'Select valid zip file.');
  await part(page.locator('#data'), 'settings-part-data');

  // Delete all records needs the code.
  await page.locator('#delete-confirm').fill('12');
  await page.getByRole('button', { name: 'Delete all records' }).click();
  await expectText(page.locator('#delete-confirm-error'), 'Please add correct number in text box.');

  // License deactivation asks first, then goes to /license; the license is put back after.
  await page.getByRole('button', { name: 'Deactivate license' }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Deactivate' }).click();
  await expectPath(page, '/license');
  assert.equal((await api('/api/license')).body.data.status, 'inactive');
  const again = await api('/api/license/activate', {
    body: { email: ADMIN.email, licenseKey: await mintLicense(ADMIN.email) },
  });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('admin sees the postback secret pane, rotates it, and the campaign URLs follow', {
  timeout: 40_000,
}, async () => {
  const token = await adminToken();
  const created = await api('/api/add-campaign', {
    token,
    body: { name: 'Secret rotation' },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.campaign.campaignData.campaignId;
  const secretOf = async () =>
    new URL(
      (await api(`/api/campaign?campaignId=${id}`, { token })).body.data.linkpixel.postback,
    ).searchParams.get('secret');
  const before = await secretOf();
  const installation = (await api('/api/postback-secret', { token })).body.data.secret;
  assert.notEqual(before, installation, 'a campaign URL carries its own secret, not the installation one');

  const { context, page } = await signedInPage(suite.browser);
  await page.goto(`${BASE}/setting#postback-secret`);
  await page.locator('#postback-secret').waitFor();
  // A new installation has no grace period: nothing to end.
  await expectText(
    page.getByTestId('postback-grace-state'),
    'Off: only each campaign’s own secret converts it.',
  );
  assert.equal(await page.getByRole('button', { name: 'End grace period' }).count(), 0);
  await expectText(page.getByTestId('postback-installation-secret'), `••••${installation.slice(-4)}`);
  await page.locator('#postback-secret').getByRole('button', { name: 'Show' }).click();
  await expectText(page.getByTestId('postback-installation-secret'), installation);

  // Rotation asks first; cancelled, nothing changes.
  await page.locator('#postback-secret').getByRole('button', { name: 'Rotate' }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await secretOf(), before);
  await page.locator('#postback-secret').getByRole('button', { name: 'Rotate' }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Rotate' }).click();
  await expectToast(page, 'Postback secret rotated. Update the postback URLs at your networks.');
  const after = await secretOf();
  assert.notEqual(after, before, 'the derived campaign secret rotates with the installation one');
  await part(page.locator('#postback-secret'), 'settings-part-postback-secret');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('a student sees only the password and their own find-and-replace', { timeout: 30_000 }, async () => {
  const student = await createUserViaApi('student');
  const { context, page } = await signedInPage(suite.browser, { user: student });
  await page.goto(`${BASE}/setting`);
  await page.locator('#password-oldPassword').waitFor();
  assert.equal(await page.locator('#settings-title').count(), 0);
  assert.equal(await page.locator('#data').count(), 0);
  assert.equal(await page.locator('#license').count(), 0);
  assert.deepEqual(await page.locator('.settings-index-link').allTextContents(), [
    'Password',
    'Find and replace',
  ]);

  await page.locator('#password-oldPassword').fill('wrong-pass');
  await page.locator('#password-newPassword').fill('Next pass 1');
  assert.equal(await page.locator('#password-newPassword').inputValue(), 'Nextpass1', 'spaces are stripped');
  await page.locator('#password-confirmPassword').fill('Nextpass1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expectText(page.locator('#password-oldPassword-error'), 'Old password is incorrect.');
  await page.locator('#password-oldPassword').fill(student.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expectToast(page, UPDATED);
  // The session carries on with its new token; the new password signs in.
  await page.reload();
  await page.locator('#password-oldPassword').waitFor();
  await expectPath(page, '/setting');
  await apiLogin(student.username, 'Nextpass1');
  await shot(page, 'settings-student');
  // Collapsed, the side menu keeps a help link and the mark; the text comes back on expand.
  await page.getByRole('button', { name: 'Collapse menu' }).click();
  await page.locator('.help-toggle').waitFor();
  assert.equal(await page.locator('.help-panel').isVisible(), false);
  await part(page.locator('.sidebar'), 'settings-part-sidebar-collapsed');
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await page.locator('.help-panel').waitFor();
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});
