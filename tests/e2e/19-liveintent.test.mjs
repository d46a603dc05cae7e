// Issue 13 in Chromium against the LiveIntent fake: the access rule's text, a conversion tracker,
// a platform campaign, a line item, two ads of which one fails and stays in the list, the ad
// toggle (cancel reverts, confirm switches) and the delete confirmation.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { adminToken, api, BASE, liveIntentAdmin, newCampaign } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { dismissToast, expectPath, expectText, expectToast, until } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const suite = browserForFile();
let page;
let campaignId;
let otherId;
let token;

/** A real 1x1 PNG: an image by its bytes (the browser draws it as the ad's thumbnail). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const closeToast = (text) => dismissToast(page, text);

const manage = (id = campaignId, tab = '') =>
  `${BASE}/manage-liveintent/campaign/${id}${tab ? `?tab=${tab}` : ''}`;

/** The installation's day, as GET /api/stats-today says it (its time zone, not this machine's). */
async function installationToday() {
  const res = await api('/api/stats-today', { token });
  assert.equal(res.status, 200);
  return res.body.data.today;
}

/** The day it is now in `timeZone`, 'YYYY-MM-DD'. */
const dayIn = (timeZone) => new Date().toLocaleDateString('en-CA', { timeZone });

suite.setUp(async () => {
  const user = await liveIntentAdmin();
  ({ token } = user);
  campaignId = await newCampaign(token, { name: 'Native push', trafficSource: 'liveintent' });
  otherId = await newCampaign(token, { name: 'Search ads', trafficSource: 'taboola' });
  // The browser's calendar is on another day than the installation's, whatever the hour: these
  // two zones are 25 hours apart, so one of them is. The forms' dates must follow the installation.
  const today = await installationToday();
  const timezoneId = ['Pacific/Pago_Pago', 'Pacific/Kiritimati'].find((zone) => dayIn(zone) !== today);
  ({ page } = await signedInPage(suite.browser, {
    user,
    viewport: { width: 1366, height: 900 },
    timezoneId,
  }));
});

after(async () => {
  assert.deepEqual(page?.pageErrors ?? [], []);
});

test('a campaign whose traffic source is not liveintent shows only the rule', async () => {
  await page.goto(manage(otherId));
  await expectText(
    page.getByTestId('li-denied'),
    'Only Campaign with LiveIntent as Traffic Source can access this page.',
  );
  assert.equal(await page.getByRole('tablist').count(), 0);
  await shot(page, '19-liveintent-denied');
});

test('an installation with its own LiveIntent account shows only that rule', async () => {
  const admin = await adminToken();
  const own = (value) =>
    api('/api/update-setting', {
      token: admin,
      body: {
        pliAdvertiserId: value,
        pliAid: value,
        pliFetchEnable: '0',
        pliUsername: value,
        pliPassword: '',
      },
    });
  assert.equal((await own('own-adv')).status, 200);
  try {
    await page.goto(manage());
    await expectText(
      page.getByTestId('li-denied'),
      'Student with LiveIntent Account is not allowed to access this page.',
    );
    assert.equal(await page.getByRole('tablist').count(), 0);
  } finally {
    assert.equal((await own('')).status, 200);
  }
});

test('a conversion tracker is created and shows as Active', async () => {
  await page.goto(manage());
  await expectText(page.locator('.empty-state-title'), 'No conversion trackers yet');
  await shot(page, '19-liveintent-empty');
  await page.getByTestId('li-create').click();
  await expectPath(page, `/manage-liveintent/campaign/${campaignId}/create-conversion-tracker`);
  await page.getByTestId('li-save').click();
  await expectText(page.locator('#li-tracker-form-segmentName-error'), 'This field is required.');
  await page.getByLabel('Segment name').fill('Buyers');
  await page.getByLabel('Term regex').fill('/thank-you');
  await page.getByTestId('li-save').click();
  await expectText(page.getByTestId('li-success'), 'Conversion Tracker Created!');
  // The dialog lasts 2 seconds, then the manage screen is back.
  await expectPath(page, `/manage-liveintent/campaign/${campaignId}`);
  const status = page.locator('[data-testid^="tracker-status-"]');
  await expectText(status, 'Active');
});

test('a platform campaign is created with the defaults and listed', async () => {
  await page.goto(manage(campaignId, 'campaigns'));
  await page.getByTestId('li-create').click();
  await expectPath(page, `/manage-liveintent/campaign/${campaignId}/create-campaign`);
  assert.equal(await page.getByLabel('Strategy').inputValue(), 'deliver_impression');
  // Today in the installation's time zone: the server refuses a start before it.
  const today = await installationToday();
  assert.equal(await page.getByLabel('Start date').inputValue(), today);
  assert.equal(await page.getByLabel('End date').inputValue(), today);
  assert.equal(await page.getByLabel('CPM bid ($)').inputValue(), '1.00');
  assert.equal(await page.getByLabel('Start time').inputValue(), '00:00');
  assert.equal(await page.getByLabel('End time').inputValue(), '23:59');
  await page.getByLabel('Name', { exact: true }).fill('Spring push');
  await page.getByLabel('CPM bid ($)').fill('0');
  await page.getByTestId('li-save').click();
  await expectText(page.locator('#li-campaign-form-bidAmount-error'), 'Must be greater than 0');
  await page.getByLabel('CPM bid ($)').fill('2.50');
  await shot(page, '19-liveintent-campaign-form');
  await page.getByTestId('li-save').click();
  await expectText(page.getByTestId('li-success'), 'Campaign Created!');
  await expectPath(page, `/manage-liveintent/campaign/${campaignId}`);
  const row = page.locator('[data-testid^="campaign-row-"]');
  await row.first().waitFor();
  assert.match((await row.first().textContent()) ?? '', /Spring push.*Deliver Impressions.*\$2\.50/);
});

test('a line item is created under the campaign', async () => {
  await page.goto(`${BASE}/manage-liveintent/campaign/${campaignId}/create-lineitem`);
  await page.getByLabel('Name', { exact: true }).fill('Morning line');
  assert.equal(await page.getByLabel('Status').inputValue(), 'paused');
  await page.getByTestId('li-save').click();
  await expectText(page.locator('#li-lineitem-form-dailyBudget-error'), 'This field is required.');
  await page.getByLabel('Daily budget ($)').fill('20');
  await page.getByLabel('25-34').check();
  await shot(page, '19-liveintent-lineitem-form');
  await page.getByTestId('li-save').click();
  await expectText(page.getByTestId('li-success'), 'Line Item Created!');
  await expectPath(page, `/manage-liveintent/campaign/${campaignId}`);
  const row = page.locator('[data-testid^="lineitem-row-"]');
  await row.first().waitFor();
  assert.match((await row.first().textContent()) ?? '', /Morning line.*paused.*\$20\.00/);
});

test('two ads upload one after another; the failed one stays listed with its message', async () => {
  await page.goto(`${BASE}/manage-liveintent/campaign/${campaignId}/create-ad`);
  // The form shows once the route's entry check has read the campaign: a page load, which has
  // taken over 10 s on a busy 2-core machine (the navigation timeout of support/browser.mjs).
  await page.getByLabel('Click URL').waitFor({ timeout: 30_000 });
  await page.getByLabel('Click URL').fill('https://shop.example/offer');
  await page.getByTestId('li-ads-files').setInputFiles([
    { name: 'blue-banner.png', mimeType: 'image/png', buffer: PNG },
    // Says it is a PNG; its bytes say otherwise, and the server reads the bytes.
    {
      name: 'fake-banner.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    },
  ]);
  assert.equal(await page.getByLabel('Ad name for blue-banner.png').inputValue(), 'blue-banner');
  await page.getByTestId('li-save').click();
  await expectToast(page, 'Some ads failed to upload');
  const left = page.getByTestId('li-ads-file');
  await until(async () => (await left.count()) === 1, 'only the failed upload stays in the list');
  await expectText(left.locator('.field-error'), 'fake-banner: Must be an image file');
  await shot(page, '19-liveintent-ads-failed');
  await closeToast('Some ads failed to upload');
});

test('an ad toggles with a confirmation (cancel reverts) and deletes after "Are you sure?"', async () => {
  await page.goto(manage(campaignId, 'ads'));
  const sw = page.locator('[data-testid^="ad-switch-"]');
  await sw.first().waitFor();
  assert.equal(await sw.getAttribute('aria-checked'), 'true');
  await shot(page, '19-liveintent-ads');

  await sw.click();
  const dialog = page.getByRole('alertdialog');
  await expectText(dialog.locator('.confirm-message'), 'Are you sure you want to deactivate this ad?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await until(
    async () => (await sw.getAttribute('aria-checked')) === 'true',
    'a cancelled toggle reverts to Active',
  );

  await sw.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
  await closeToast('Ad status changed successfully');
  await until(
    async () => (await sw.getAttribute('aria-checked')) === 'false',
    'the confirmed toggle shows Inactive',
  );

  await page.getByRole('button', { name: /^Delete blue-banner/ }).click();
  const confirm = page.getByRole('alertdialog');
  await expectText(confirm.locator('.modal-title'), 'Are you sure?');
  await expectText(confirm.locator('.confirm-message'), "You won't be able to revert this!");
  await shot(page, '19-liveintent-delete-confirm');
  await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
  await closeToast('Ad deleted successfully');
  await expectText(page.locator('.empty-state-title'), 'No ads yet');
});

test('a force sync runs to done on the statistics screen and its spend shows in the costs', async () => {
  await page.goto(`${BASE}/stats/${campaignId}`);
  const start = page.getByTestId('force-sync-start');
  await start.waitFor();
  await start.click();
  await page.getByTestId('force-sync-stop').waitFor();
  const completed = page.getByTestId('force-sync-completed');
  await completed.waitFor({ timeout: 45_000 });
  assert.match(
    (await completed.textContent()) ?? '',
    /LiveIntent costs were synced from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\./,
  );
  await expectText(page.getByTestId('force-sync-message'), 'Force sync completed.');
  const logs = page.getByTestId('force-sync-logs').locator('li');
  assert.equal(await logs.count(), 7);
  const today = (await logs.nth(6).textContent()) ?? '';
  const spend = /\$(\d+\.\d{2}) spend$/.exec(today)?.[1];
  assert.ok(spend, `a spend in "${today}"`);
  // The costs table is read again after the sync: 7 days of 3 LiveIntent ads each.
  const costRows = page.locator('#costs tbody tr', { hasText: 'liveintent' });
  await costRows.first().waitFor({ timeout: 15_000 });
  await until(async () => (await costRows.count()) === 21, '21 LiveIntent cost rows in the costs table');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, '19-liveintent-force-sync');
  await page.getByRole('button', { name: 'Dismiss the completed message' }).click();
  await completed.waitFor({ state: 'detached' });
});

test("the editor's LiveIntent lists check their rows and save with the campaign", async () => {
  await page.goto(`${BASE}/basic-info/${campaignId}`);
  const lists = page.getByTestId('li-lists');
  await lists.waitFor();
  await page.getByTestId('li-add-campaign').click();
  await page.locator('[id="basic-liCampaigns.0.liCampaignId"]').fill('12a');
  await page.getByTestId('campaign-save').click();
  await expectText(
    page.locator('[id="basic-liCampaigns.0.liCampaignId-error"]'),
    'Campaign ID should be numeric.',
  );
  await page.locator('[id="basic-liCampaigns.0.liCampaignId"]').fill('5001');
  await page.locator('[id="basic-liCampaigns.0.liCampaignName"]').fill('Spring push');
  await page.getByTestId('li-add-lineitem').click();
  await page.locator('[id="basic-liLineItems.0.liLineItemId"]').fill('9001');
  await page.locator('[id="basic-liLineItems.0.liDailyBudget"]').fill('0.50');
  await page.getByTestId('campaign-save').click();
  await expectText(
    page.locator('[id="basic-liLineItems.0.liDailyBudget-error"]'),
    'Daily budget must be at least $1.00.',
  );
  await page.locator('[id="basic-liLineItems.0.liDailyBudget"]').fill('12.50');
  await lists.scrollIntoViewIfNeeded();
  await shot(page, '19-liveintent-editor-lists');
  await page.getByTestId('campaign-save').click();
  await closeToast('Campaign Updated Successfully.');
  await page.reload();
  await lists.waitFor();
  assert.equal(await page.locator('[id="basic-liLineItems.0.liDailyBudget"]').inputValue(), '12.50');
  assert.equal(await page.locator('[id="basic-liLineItems.0.liCampaignId"]').inputValue(), '5001');
});
