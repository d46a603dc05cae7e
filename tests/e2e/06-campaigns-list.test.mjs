// /campaigns: folders made by dropping one campaign on another, moving a campaign to the
// parent entry and back into a folder, delete with the spec's confirmation and undo from the
// toast, sort and show-deleted preferences, and screenshots of the finished list.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ADMIN, adminToken, api, BASE } from './support/api.mjs';
import { browserForFile, openPage, signedInPage, storage, uiLogin } from './support/browser.mjs';
import { expectPath, expectText, expectToast } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const suite = browserForFile();
let token;
const ids = {};

async function campaign(name, body = {}) {
  const res = await api('/api/add-campaign', { token, body: { name, ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.campaign.campaignData.campaignId;
}

async function folder(name, moveCampaigns = [], dir = 0) {
  const res = await api('/api/add-campaign-folder', { token, body: { name, dir, moveCampaigns } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.folder.campaignId;
}

async function listOf(dir) {
  const res = await api(`/api/campaign?dir=${dir}&includeDeleted=1`, { token });
  assert.equal(res.status, 200);
  return res.body.data.result;
}

const names = async (dir) => (await listOf(dir)).filter((r) => r.deleted === 0).map((r) => r.name);

suite.setUp(async () => {
  token = await adminToken();
  // A list that looks like a working installation: two folders with campaigns inside, and a
  // mix of campaign types, sources and states at the top level.
  const inside = [
    await campaign('Evergreen — Keto quiz US', { campaignType: 'landing_page', trafficSource: 'taboola' }),
    await campaign('Evergreen — Collagen advertorial', {
      campaignType: 'landing_page',
      trafficSource: 'mediago',
    }),
  ];
  ids.evergreen = await folder('Evergreen offers', inside);
  ids.q3 = await folder('Q3 launches', [
    await campaign('Q3 — Solar savings calculator', { trafficSource: 'liveintent' }),
  ]);
  ids.hearing = await campaign('Hearing aid VSL — Taboola US', {
    campaignType: 'landing_page',
    trafficSource: 'taboola',
  });
  ids.hearingCa = await campaign('Hearing aid VSL — Taboola CA', {
    campaignType: 'landing_page',
    trafficSource: 'taboola',
  });
  ids.rotator = await campaign('Insurance rotator', { campaignType: 'rotator' });
  ids.paths = await campaign('Gut health — split by device', {
    campaignType: 'multiple_path_type',
    trafficSource: 'mediago',
  });
  ids.direct = await campaign('Brand search direct link', { campaignType: 'direct_link', active: 0 });
  ids.options = await campaign('Supplement upsell options', {
    campaignType: 'multiple_option_type',
    trafficSource: 'crane',
  });
});

const row = (page, id) => page.locator(`[data-testid="row-${id}"]`);

test('folders by drag and drop, move to the parent and back, delete and undo', {
  timeout: 90_000,
}, async () => {
  const { page } = await signedInPage(suite.browser, { viewport: { width: 1440, height: 900 } });
  await expectText(page.locator('h1'), 'Campaigns');
  await row(page, ids.hearing).waitFor();

  // Folders first by name, then campaigns by id (the default sort).
  const order = await page
    .locator('tbody tr[data-name]')
    .evaluateAll((rows) => rows.map((r) => r.dataset.name));
  assert.deepEqual(order.slice(0, 2), ['Evergreen offers', 'Q3 launches']);
  assert.equal(order[2], 'Hearing aid VSL — Taboola US');
  await expectText(page.locator('.crumbs-summary'), '2 folders · 6 campaigns');
  await expectText(row(page, ids.direct).locator('.badge'), 'Paused');
  await shot(page, 'campaigns-list');

  // Drop one campaign on another: a folder name is asked, then both go into the new folder.
  await row(page, ids.hearingCa).dragTo(row(page, ids.hearing));
  const nameField = page.locator('#folder-name-name');
  await nameField.waitFor();
  assert.match(await page.locator('dialog[open] .modal-lead').textContent(), /Hearing aid VSL — Taboola US/);
  await page.getByRole('button', { name: 'Create folder' }).click();
  await expectText(page.locator('#folder-name-name-error'), 'Folder name is required.');
  await nameField.fill('Hearing aids');
  await shot(page, 'campaigns-new-folder');
  await nameField.press('Enter');
  await expectToast(page, 'Folder created successfully.');
  const hearingFolder = (await listOf(0)).find((r) => r.name === 'Hearing aids');
  assert.ok(hearingFolder, 'the folder exists at the top level');
  assert.equal(hearingFolder.is_dir, 1);
  assert.deepEqual(await names(hearingFolder.campaignId), [
    'Hearing aid VSL — Taboola US',
    'Hearing aid VSL — Taboola CA',
  ]);
  await row(page, ids.hearing).waitFor({ state: 'detached' });
  await row(page, hearingFolder.campaignId).waitFor();

  // Open the folder: the breadcrumb leads back to the parent, which is also a drop target.
  await page.locator(`[data-testid="open-${hearingFolder.campaignId}"]`).click();
  await expectText(page.locator('.crumb[aria-current="location"]'), 'Hearing aids');
  assert.equal(new URL(page.url()).searchParams.get('dir'), String(hearingFolder.campaignId));
  assert.equal(await storage(page, 'campaignsDir'), String(hearingFolder.campaignId));
  await row(page, ids.hearingCa).waitFor();
  await shot(page, 'campaigns-folder');
  await row(page, ids.hearingCa).dragTo(page.locator('[data-testid="parent-row"]'));
  await expectToast(page, 'Campaign moved successfully.');
  await row(page, ids.hearingCa).waitFor({ state: 'detached' });
  assert.deepEqual(await names(hearingFolder.campaignId), ['Hearing aid VSL — Taboola US']);
  assert.ok((await names(0)).includes('Hearing aid VSL — Taboola CA'));

  // Back at the top level (breadcrumb), drag it into the folder again.
  await page.locator('[data-testid="crumb-0"]').click();
  await expectText(page.locator('.crumb[aria-current="location"]'), 'Campaigns');
  await row(page, ids.hearingCa).dragTo(row(page, hearingFolder.campaignId));
  await expectToast(page, 'Campaign moved successfully.');
  await row(page, ids.hearingCa).waitFor({ state: 'detached' });
  assert.deepEqual(await names(hearingFolder.campaignId), [
    'Hearing aid VSL — Taboola US',
    'Hearing aid VSL — Taboola CA',
  ]);

  // Delete with the spec's confirmation, then undo from the toast.
  await page.locator(`[data-testid="menu-${ids.rotator}"]`).click();
  await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
  await expectText(
    page.locator('dialog[open] .confirm-message'),
    'Are you sure you want to delete the campaign?',
  );
  await shot(page, 'campaigns-delete-confirm');
  await page.locator('dialog[open]').getByRole('button', { name: 'Yes' }).click();
  const deletedToast = await expectToast(page, 'Campaigns Deleted Successfully.');
  await row(page, ids.rotator).waitFor({ state: 'detached' });
  assert.equal((await listOf(0)).find((r) => r.campaignId === ids.rotator)?.deleted, 1);
  await deletedToast.getByRole('button', { name: 'Undo' }).click();
  await expectToast(page, 'Campaigns restored successfully.');
  await row(page, ids.rotator).waitFor();
  assert.equal((await listOf(0)).find((r) => r.campaignId === ids.rotator)?.deleted, 0);

  // A deleted campaign shows with "Show deleted" (remembered) and cannot be opened.
  await page.locator(`[data-testid="menu-${ids.direct}"]`).click();
  await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Yes' }).click();
  await expectToast(page, 'Campaigns Deleted Successfully.');
  await row(page, ids.direct).waitFor({ state: 'detached' });
  await toggleShowDeleted(page, true);
  assert.equal(await storage(page, 'campaignsShowDeleted'), '1');
  await row(page, ids.direct).waitFor();
  await expectText(row(page, ids.direct).locator('.badge'), 'Deleted');
  assert.equal(await page.locator(`[data-testid="open-${ids.direct}"]`).count(), 0, 'no link to open it');

  // Sort by name, remembered as campaignSortBy.
  await page.locator('[data-testid="sort-name"]').click();
  assert.equal(await storage(page, 'campaignSortBy'), 'name');
  const byName = await page
    .locator('tbody tr.is-campaign')
    .evaluateAll((rows) => rows.map((r) => r.dataset.name));
  assert.deepEqual(
    byName,
    [...byName].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })),
  );
  await page.locator('[data-testid="sort-name"]').click();
  assert.equal(await storage(page, 'campaignSortBy'), '-name');
  await page.locator('[data-testid="sort-campaignId"]').click();
  assert.equal(await storage(page, 'campaignSortBy'), 'campaignId');
  await toggleShowDeleted(page, false);
  await row(page, ids.direct).waitFor({ state: 'detached' });

  // Clicking a campaign opens its editor.
  await page.locator(`[data-testid="open-${ids.paths}"]`).click();
  await expectPath(page, `/basic-info/${ids.paths}`);
  await page.goBack();
  await expectPath(page, '/campaigns');
  await row(page, ids.paths).waitFor();
  await shot(page, 'campaigns-list-final');
  assert.deepEqual(page.pageErrors, []);
});

test('CSV upload with the spec hint and progress, export and ZIP import of what was exported', {
  timeout: 60_000,
}, async () => {
  const { page, context } = await openPage(suite.browser, {
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
  });
  await page.goto(`${BASE}/login`);
  await uiLogin(page, ADMIN.username, ADMIN.password);
  await expectPath(page, '/campaigns');
  await page.locator('[data-testid="crumb-0"]').click();
  await row(page, ids.paths).waitFor();

  // CSV: a file of another kind shows the spec's hint, which goes away after 5 seconds.
  await page.getByRole('button', { name: 'Upload CSV' }).first().click();
  const input = page.locator('#campaigns-csv-input');
  await input.setInputFiles({
    name: 'campaigns.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('name\nX\n'),
  });
  await expectText(page.locator('#campaigns-csv-hint'), 'Select Valid Csv file.');
  await shot(page, 'campaigns-upload-hint');
  await page.locator('#campaigns-csv-hint').waitFor({ state: 'detached', timeout: 7000 });
  await page.locator('[data-testid="campaigns-csv-submit"]').click();
  await expectText(page.locator('#campaigns-csv-hint'), 'Select csv file for upload.');

  // A real file, sent slowly enough to see the progress bar move.
  const lines = ['name,campaignType,trafficSource,cpc,custom_url'];
  lines.push(
    'CSV — Knee brace advertorial,landing_page,taboola,0.21,',
    'CSV — Dental implants quiz,landing_page,mediago,0.35,',
  );
  // Long fallback URLs make the file big enough (about 230 KB) to watch it travel.
  const padding = Array.from(
    { length: 150 },
    (_, i) =>
      `CSV bulk ${String(i).padStart(3, '0')},direct_link,,,https://fallback.example/?p=${'x'.repeat(1500)}`,
  );
  const csv = Buffer.from([...lines, ...padding].join('\n'));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 80 * 1024,
  });
  await input.setInputFiles({ name: 'campaigns.csv', mimeType: 'text/csv', buffer: csv });
  await expectText(page.locator('.upload-file-name'), 'campaigns.csv');
  await page.locator('[data-testid="campaigns-csv-submit"]').click();
  await page.locator('#campaigns-csv-progress [role="progressbar"]').waitFor();
  // The slowed upload shows a value between 0 and 100 on the way (checked on every frame).
  const midway = await page.waitForFunction(
    () => {
      const bar = document.querySelector('#campaigns-csv-progress [role="progressbar"]');
      const now = Number(bar?.getAttribute('aria-valuenow'));
      return now > 0 && now < 100 ? now : null;
    },
    null,
    { polling: 'raf', timeout: 10_000 },
  );
  const shown = await midway.jsonValue();
  assert.ok(shown > 0 && shown < 100, `progress between 0 and 100 was shown: ${shown}`);
  await shot(page, 'campaigns-upload-progress');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expectToast(page, 'Campaign has successfully uploaded.');
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
  const top = await listOf(0);
  const knee = top.find((r) => r.name === 'CSV — Knee brace advertorial');
  assert.ok(knee, 'the CSV campaigns are in the list');
  assert.equal(knee.trafficSource, 'taboola');
  assert.equal(top.filter((r) => r.name.startsWith('CSV bulk')).length, 150);

  // Export one campaign: the browser follows the signed link and downloads the ZIP.
  await page.locator('[data-testid="page-length"]').selectOption('25');
  assert.equal(await storage(page, 'tablePageLength'), '25');
  await page.locator('[data-testid="campaign-search"]').fill('gut health');
  await row(page, ids.paths).waitFor();
  assert.equal(await page.locator('tbody tr[data-name]').count(), 1, 'the search leaves one row');
  const downloading = page.waitForEvent('download');
  await page.locator(`[data-testid="menu-${ids.paths}"]`).click();
  await page.getByRole('menuitem', { name: 'Export' }).click();
  await expectToast(page, 'Campaign exported Succesfully.');
  const download = await downloading;
  assert.match(download.suggestedFilename(), /^campaign-\d+-gut-health-split-by-device\.zip$/);
  const zipPath = await download.path();

  // Import it back: a second "Gut health" campaign appears, with a new id.
  await page.getByRole('button', { name: 'Import ZIP' }).click();
  await page.locator('#campaigns-zip-input').setInputFiles({
    name: download.suggestedFilename(),
    mimeType: 'application/zip',
    buffer: readFileSync(zipPath),
  });
  await page.locator('[data-testid="campaigns-zip-submit"]').click();
  await expectToast(page, 'Campaign successfully imported.');
  const copies = (await listOf(0)).filter(
    (r) => r.name === 'Gut health — split by device' && r.deleted === 0,
  );
  assert.equal(copies.length, 2);
  assert.equal(copies[1].campaignType, 'multiple_path_type');
  await expect2Rows(page);
  await page.locator('[data-testid="campaign-search"]').fill('');
  await shot(page, 'campaigns-after-import');
  assert.deepEqual(page.pageErrors, []);
});

async function expect2Rows(page) {
  const rows = page.locator('tbody tr[data-name]');
  await rows.nth(1).waitFor();
  await rows.nth(2).waitFor({ state: 'detached' });
  assert.equal(await rows.count(), 2);
}

test('keyboard Move to…, new and renamed folder, empty folder, clone, reset statistics, bulk delete', {
  timeout: 60_000,
}, async () => {
  const { page } = await signedInPage(suite.browser, { viewport: { width: 1440, height: 900 } });
  await page.locator('[data-testid="crumb-0"]').click();
  await row(page, ids.options).waitFor();

  // A new folder from the header button, renamed from its menu; an empty name is ignored.
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.locator('#folder-name-name').fill('Archive 2026');
  await page.locator('#folder-name-name').press('Enter');
  await expectToast(page, 'Folder created successfully.');
  const archive = (await listOf(0)).find((r) => r.name === 'Archive 2026');
  assert.ok(archive);
  await page.locator(`[data-testid="menu-${archive.campaignId}"]`).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.locator('#folder-name-name').fill('   ');
  await page.locator('#folder-name-name').press('Enter');
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
  assert.equal((await listOf(0)).find((r) => r.campaignId === archive.campaignId)?.name, 'Archive 2026');
  await page.locator(`[data-testid="menu-${archive.campaignId}"]`).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.locator('#folder-name-name').fill('Archive');
  await page.locator('#folder-name-name').press('Enter');
  await expectToast(page, 'Folder renamed successfully.');
  await expectText(page.locator(`[data-testid="open-${archive.campaignId}"]`), 'Archive');

  // The empty folder says what to do next.
  await page.locator(`[data-testid="open-${archive.campaignId}"]`).click();
  await expectText(page.locator('.empty-state-title'), 'This folder is empty');
  await shot(page, 'campaigns-empty-folder');
  await page.getByRole('button', { name: 'Back to Campaigns' }).first().click();
  await row(page, ids.options).waitFor();

  // Move to… with the keyboard alone: menu button, arrow keys, Enter, folder picker.
  const menuButton = page.locator(`[data-testid="menu-${ids.options}"]`);
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Edit' }).waitFor();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Move to…');
  await page.keyboard.press('Enter');
  const picker = page.locator('dialog[open]');
  await picker.getByRole('button', { name: 'Archive' }).focus();
  await page.keyboard.press('Enter');
  await picker.locator('.cl-picker-trail').getByText('Archive').waitFor();
  await shot(page, 'campaigns-move-to');
  await picker.locator('[data-testid="move-here"]').focus();
  await page.keyboard.press('Enter');
  await expectToast(page, 'Campaign moved successfully.');
  await row(page, ids.options).waitFor({ state: 'detached' });
  assert.deepEqual(await names(archive.campaignId), ['Supplement upsell options']);

  // Clone and reset statistics from a row's menu.
  await page.locator('[data-testid="campaign-search"]').fill('gut health');
  await page.locator(`[data-testid="menu-${ids.paths}"]`).click();
  await page.getByRole('menuitem', { name: 'Clone' }).click();
  await expectToast(page, 'Campaign cloned succesfully.');
  await page.locator('tbody tr[data-name="Gut health — split by device (copy)"]').waitFor();
  await page.locator(`[data-testid="menu-${ids.paths}"]`).click();
  await page.getByRole('menuitem', { name: 'Reset statistics' }).click();
  await expectText(
    page.locator('dialog[open] .confirm-message'),
    'Are you sure you want to reset statistics? This operation cannot be undone.',
  );
  await page.locator('dialog[open]').getByRole('button', { name: 'Yes' }).click();
  await expectToast(page, 'Statistics have been reset.');

  // Bulk: select two campaigns, delete them together, and undo both.
  await page.locator('[data-testid="campaign-search"]').fill('CSV —');
  await page.locator('tbody tr[data-name="CSV — Dental implants quiz"]').waitFor();
  const two = (await listOf(0)).filter((r) => r.name.startsWith('CSV —')).map((r) => r.campaignId);
  assert.equal(two.length, 2);
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expectText(page.locator('.bulk-count'), '2 selected');
  await shot(page, 'campaigns-bulk');
  await page.locator('[data-testid="bulk-delete"]').click();
  await expectText(
    page.locator('dialog[open] .confirm-message'),
    'Are you sure you want to delete the campaign?',
  );
  await page.locator('dialog[open]').getByRole('button', { name: 'Yes' }).click();
  const toast = await expectToast(page, 'Campaigns Deleted Successfully.');
  const after = await listOf(0);
  assert.deepEqual(
    two.map((id) => after.find((r) => r.campaignId === id)?.deleted),
    [1, 1],
  );
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expectToast(page, 'Campaigns restored successfully.');
  const restored = await listOf(0);
  assert.deepEqual(
    two.map((id) => restored.find((r) => r.campaignId === id)?.deleted),
    [0, 0],
  );
  assert.deepEqual(page.pageErrors, []);
});

/**
 * Flips the Show deleted switch through its visible label. The pointer leaves the toasts first:
 * hovered, sonner keeps its stack expanded and its timers paused, over the switch. A plain click
 * then waits until nothing covers the switch (a forced click on the 1-px input landed on a toast),
 * and the input's state is checked.
 */
async function toggleShowDeleted(page, on) {
  await page.mouse.move(0, 0);
  await page.locator('.cl-switch', { hasText: 'Show deleted' }).click();
  await page.locator(`[data-testid="show-deleted"][aria-checked="${on}"]`).waitFor({ state: 'attached' });
}
