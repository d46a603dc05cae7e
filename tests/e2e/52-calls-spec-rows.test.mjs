// Issue 30 part C, the flows of the spec rows still open, each shot at 1366 and 390 px with axe:
// Manage LiveIntent without an id goes to /campaigns (spec 4 §2); the LiveIntent settings save
// says 'LiveIntent connected successfully.' (spec 2 §8); a failed campaign import says
// 'Encountered error, please try again.' (spec 2 §8); the new campaign's draft under 'CAMPAIGN' +
// a timestamp (spec 1 §3, §9); the LiveIntent campaign list's two messages (spec 2 §5).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminToken, api, BASE } from './support/api.mjs';
import { browserForFile, openPage, signedInPage } from './support/browser.mjs';
import { expectPath, expectText, expectToast } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const suite = browserForFile();
let token;

suite.setUp(async () => {
  token = await adminToken();
});

const draftKeys = (page) =>
  page.evaluate(() =>
    Object.keys(window.localStorage)
      .filter((k) => k.startsWith('CAMPAIGN'))
      .map((k) => ({ key: k, value: window.localStorage.getItem(k) })),
  );

test('Manage LiveIntent without a campaign id goes to /campaigns once signed in, else to /login', async () => {
  const out = await openPage(suite.browser);
  await out.page.goto(`${BASE}/manage-liveintent/campaign/abc`);
  await expectPath(out.page, '/login');
  await out.context.close();

  const { context, page } = await signedInPage(suite.browser);
  for (const path of [
    '/manage-liveintent',
    '/manage-liveintent/campaign',
    '/manage-liveintent/campaign/abc',
  ]) {
    await page.goto(`${BASE}${path}`);
    await expectPath(page, '/campaigns');
  }
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test("the LiveIntent settings save says 'LiveIntent connected successfully.'", async () => {
  const { context, page } = await signedInPage(suite.browser);
  await page.goto(`${BASE}/setting#liveintent`);
  await page.locator('#li-own-liAdvertiserId').fill('e2e-adv-52');
  await page.locator('#li-own-liAid').fill('e2e-aid-52');
  await page.locator('#li-own-liUsername').fill('li-client-52');
  await page.locator('#li-own-liPassword').fill('li-secret-52');
  await page.getByRole('button', { name: 'Save own account' }).click();
  await expectToast(page, 'LiveIntent connected successfully.');
  const settings = await api('/api/settings', { token });
  assert.equal(settings.body.data.liUsername, 'li-client-52');
  assert.equal(settings.body.data.liPasswordSet, true);
  await page.locator('#li-own').scrollIntoViewIfNeeded();
  await shot(page, 'settings-liveintent-connected');
  // A failed save keeps the spec's words of the answer, not the success toast.
  await page.route('**/api/update-setting', (route) =>
    route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'x', errors: { liAid: ['Advertiser app ID is not valid.'] } }),
    }),
  );
  await page.getByRole('button', { name: 'Save own account' }).click();
  await expectText(page.locator('#li-own-liAid-error'), 'Advertiser app ID is not valid.');
  await context.close();
});

/** Import ZIP with the import call answered by `status` and `body` (the server is never reached). */
async function failedImport(page, status, body) {
  await page.unroute('**/api/import-campaigns');
  await page.route('**/api/import-campaigns', (route) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }),
  );
  await page.locator('#campaigns-zip-input').setInputFiles({
    name: 'campaigns.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from('PK\u0005\u0006'.padEnd(22, '\u0000')),
  });
  await page.locator('[data-testid="campaigns-zip-submit"]').click();
}

test("a campaign import that fails without a message says 'Encountered error, please try again.'", async () => {
  const { context, page } = await signedInPage(suite.browser);
  await page.getByRole('button', { name: 'Import ZIP' }).click();
  await failedImport(page, 500, { message: '' });
  await expectToast(page, 'Encountered error, please try again.');
  await expectText(page.locator('#campaigns-zip-hint'), 'Encountered error, please try again.');
  await shot(page, 'campaigns-import-error');

  // A message of the server's own (errors.message[0]) is shown as it is.
  const own = 'The zip has no manifest.';
  await failedImport(page, 422, { message: own, errors: { message: [own] } });
  await expectToast(page, own);
  await context.close();
});

test("a new campaign's draft is kept under 'CAMPAIGN' + a timestamp, offered back, and cleared on create", async () => {
  const { context, page } = await signedInPage(suite.browser);
  await page.goto(`${BASE}/basic-info`);
  const before = Date.now();
  await page.locator('#basic-name').fill('Draft of a quiz funnel');
  await page.waitForFunction(() => Object.keys(window.localStorage).some((k) => k.startsWith('CAMPAIGN')));
  const drafts = await draftKeys(page);
  assert.equal(drafts.length, 1);
  assert.match(drafts[0].key, /^CAMPAIGN\d{13}$/);
  const started = Number(drafts[0].key.slice('CAMPAIGN'.length));
  assert.ok(started >= before - 60_000 && started <= Date.now(), 'the key carries when the draft began');
  assert.equal(JSON.parse(drafts[0].value).name, 'Draft of a quiz funnel');

  // A reload (no unsaved-changes dialog) keeps it; the new form offers it back.
  await page.reload();
  const notice = page.locator('[data-testid="campaign-draft"]');
  await notice.waitFor();
  assert.match(await notice.innerText(), /An unsaved new campaign from .+ is kept on this device\./);
  assert.notEqual(await page.locator('#basic-name').inputValue(), 'Draft of a quiz funnel');
  await shot(page, 'campaign-draft-offered');
  await page.getByRole('button', { name: 'Restore draft' }).click();
  assert.equal(await page.locator('#basic-name').inputValue(), 'Draft of a quiz funnel');
  await notice.waitFor({ state: 'detached' });

  await page.getByTestId('campaign-save').click();
  await page.waitForURL((url) => /^\/basic-info\/\d+$/.test(url.pathname));
  assert.deepEqual(await draftKeys(page), [], 'creating the campaign clears the draft');

  // Discard forgets a draft as well.
  await page.goto(`${BASE}/basic-info`);
  await page.locator('#basic-name').fill('Thrown away');
  await page.reload();
  await page.getByRole('button', { name: 'Discard' }).click();
  await page.locator('[data-testid="campaign-draft"]').waitFor({ state: 'detached' });
  assert.deepEqual(await draftKeys(page), []);
  await context.close();
});

test('the LiveIntent campaign list names a missing and a repeated Campaign ID', async () => {
  const created = await api('/api/add-campaign', {
    token,
    body: { name: 'Native list checks', trafficSource: 'liveintent' },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.campaign.campaignData.campaignId;
  const { context, page } = await signedInPage(suite.browser);
  await page.goto(`${BASE}/basic-info/${id}`);
  await page.getByTestId('li-add-campaign').click();
  await page.getByTestId('campaign-save').click();
  await expectText(page.locator('[id="basic-liCampaigns.0.liCampaignId-error"]'), 'Campaign ID is required.');
  await expectToast(page, 'Campaign ID is required.');
  const ids = page.locator('[data-testid="li-campaign-entry"] input[inputmode="numeric"]');
  await ids.nth(0).fill('7001');
  await page.getByTestId('li-add-campaign').click();
  await ids.nth(1).fill('7001');
  await page.getByTestId('campaign-save').click();
  await expectText(
    page.locator('[id="basic-liCampaigns.1.liCampaignId-error"]'),
    'Campaign ID already exist in the LiveIntent Campaign List.',
  );
  await page.getByTestId('li-lists').scrollIntoViewIfNeeded();
  await shot(page, 'campaign-li-list-duplicate');
  // Nothing was saved while the list was wrong.
  const detail = await api(`/api/campaign?campaignId=${id}`, { token });
  assert.deepEqual(detail.body.data.liCampaigns, []);
  await context.close();
});

test('the sidebar reads the served version: the same one says nothing more, a newer one offers a reload', async () => {
  const same = await fetch(`${BASE}/version.json`, { cache: 'no-store' });
  assert.equal(same.status, 200);
  const { version } = await same.json();
  assert.match(version, /^\d+\.\d+\.\d+$/);

  const { context, page } = await signedInPage(suite.browser);
  const checked = page.waitForResponse((r) => r.url().endsWith('/version.json'));
  await page.reload();
  assert.equal((await (await checked).json()).version, version);
  await expectText(page.locator('.sidebar-brand-version'), `Version ${version}`);
  assert.equal(await page.getByTestId('upgrade-available').count(), 0);
  await context.close();

  const later = await signedInPage(suite.browser, { landing: null });
  await later.page.route('**/version.json', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ version: '99.0.0' }),
    }),
  );
  await later.page.goto(`${BASE}/campaigns`);
  await expectText(later.page.getByTestId('upgrade-available'), 'Version 99.0.0 is out: reload');
  await shot(later.page, 'sidebar-upgrade-available');
  await later.context.close();
});
