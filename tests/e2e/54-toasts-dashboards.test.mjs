// Issue 30 (part D2): the master dashboard's failure messages, the aggregator's, the ad forms'
// checks before upload, the ad toggle's confirmation, and the labels and sizes spec 4 gives (month
// labels 'Jan 2024', dates 'MMM DD, YYYY hh:mm a', dialog widths). Each failure comes from making
// that one call fail in the browser (page.route), and each toast is read word for word.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { liCampaignForm, liLineItemForm } from '../support/liveintent-forms.mjs';
import { adminToken, api, BASE, liveIntentAdmin, targetTotals } from './support/api.mjs';
import { browserForFile, openPage, signedInPage } from './support/browser.mjs';
import { dismissToast, expectPath, expectText, expectToast, until } from './support/expect.mjs';
import { shot } from './support/screen.mjs';
import { visitTargets } from './support/tracking.mjs';

const OP_BASE = BASE.replace('127.0.0.1', 'localhost');
const DESK = { width: 1366, height: 900 };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** What the failing call answers: the server's own reason, shown under the spec's words. */
const DOWN = 'Service unavailable (e2e)';
/** A real 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const suite = browserForFile();
let token;
let today;

suite.setUp(async () => {
  token = await adminToken();
  today = (await api('/api/stats-today', { token })).body.data.today;
});

/** Makes every call to `path` (any query) fail with a 500 carrying DOWN, until `off()` is called. */
async function failing(page, path, method) {
  const match = (url) => new URL(url).pathname === path;
  const handler = (route) =>
    method && route.request().method() !== method
      ? route.continue()
      : route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: DOWN, errors: { message: [DOWN] } }),
        });
  await page.route(match, handler);
  return { off: () => page.unroute(match, handler) };
}

/** The toast's title in the spec's words, and the server's reason under it. */
async function expectFailure(page, title, description = DOWN) {
  const toast = await expectToast(page, title);
  await expectText(toast.locator('[data-description]'), description);
  return toast;
}

async function created(path, body, as = token) {
  const res = await api(path, { token: as, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data;
}

/** A campaign's visits through its tracking link, counted once the ingest has them. */
async function visit(campaignId, times, as = token) {
  await visitTargets(
    as,
    campaignId,
    Array.from({ length: times }, (_, i) => `v${i}`),
  );
  await until(
    async () => (await targetTotals(as, campaignId)).visitsTotal === times,
    `the ${times} visits of campaign ${campaignId} did not arrive`,
    { timeout: 30_000 },
  );
}

/** An installation of this server in the operator's registry (test 15 may have made it already). */
async function studentOfThisServer() {
  const op = (path, body) =>
    fetch(new URL(`/api/operator/${path}`, OP_BASE), {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const listed = await op('students');
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  const known = listed.body.data.students.find((s) => s.domain === BASE);
  if (known) return known.name;
  const credential = (await api('/api/masterdashboard-credentials', { token, body: { label: 'toasts' } }))
    .body.data.credential;
  const res = await op('installations', {
    name: 'Student Toasts',
    domain: BASE,
    server: 'local',
    credential,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return 'Student Toasts';
}

/** The open dialog's width in CSS pixels, to a tenth (layout rounds to 1/64 px). */
const dialogWidth = async (page) =>
  Math.round((await page.locator('dialog[open]').boundingBox()).width * 10) / 10;

test('the master dashboard names each failed call in the spec’s words', async () => {
  const made = await created('/api/add-campaign', { name: 'MD toasts campaign', cpc: '0.40' });
  assert.ok(made.campaign.campaignData.campaignId > 0);
  const name = await studentOfThisServer();
  const { context, page } = await signedInPage(suite.browser, {
    base: OP_BASE,
    landing: null,
    viewport: DESK,
  });

  // The students list.
  let fail = await failing(page, '/api/operator/students');
  await page.goto(`${OP_BASE}/master-dashboard`);
  await page.getByRole('heading', { name: 'Master dashboard' }).waitFor();
  await expectFailure(page, 'Failed to fetch students list');
  await shot(page, '54-md-students-failed');
  await fail.off();
  await page.reload();
  await page.getByRole('heading', { name: 'Master dashboard' }).waitFor();

  // The chosen students' totals.
  const picker = page.getByRole('button', { name: /Students/ });
  await picker.click();
  await page
    .getByTestId('student-panel')
    .getByRole('checkbox', { name: new RegExp(`^${name}`) })
    .check();
  await picker.click();
  fail = await failing(page, '/api/operator/students-data');
  await page.getByRole('button', { name: 'Show students' }).click();
  await dismissToast(page, 'Error fetching students data');
  await fail.off();
  await page.getByRole('button', { name: 'Show students' }).click();
  const row = page.locator(`tr[data-student="${name}"]`);

  // The graph: the student's campaigns, then a campaign's days (a toast and the modal's alert).
  fail = await failing(page, '/api/operator/student-campaigns');
  await row.getByRole('button', { name: 'View Graph' }).click();
  await dismissToast(page, 'Failed to fetch student campaigns');
  await page.locator('dialog[open]').getByRole('button', { name: 'Close' }).click();
  await fail.off();
  fail = await failing(page, '/api/operator/campaign-data');
  await row.getByRole('button', { name: 'View Graph' }).click();
  const modal = page.locator('dialog[open]');
  await modal.getByLabel('Campaign').locator('option', { hasText: 'MD toasts campaign' }).waitFor({
    state: 'attached',
  });
  await expectFailure(page, 'Error fetching campaign data');
  await expectText(modal.getByRole('alert'), 'Failed to fetch campaign data.');
  // A large dialog is 60 % of the window (spec 4 §9).
  assert.equal(await dialogWidth(page), 819.6); // 60 % of 1366
  await shot(page, '54-md-graph-failed');
  await modal.getByRole('button', { name: 'Close' }).click();
  await fail.off();

  // General mode: every student's report.
  fail = await failing(page, '/api/operator/all-students-reports');
  await page.getByRole('tab', { name: 'General' }).click();
  await expectFailure(page, 'Error fetching all student reports!');
  await shot(page, '54-md-general-failed');
  await fail.off();
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('the aggregator says when the landing data could not be had', async () => {
  const id = (
    await created('/api/add-campaign', { name: 'Aggregate toast', campaignType: 'landing_page', cpc: '0.10' })
  ).campaign.campaignData.campaignId;
  await created('/api/add-landing', { campaignId: id, name: 'Agg landing', url: 'https://lp.example/agg' });
  await created('/api/add-offer', { campaignId: id, name: 'Agg offer', url: 'https://offer.example/agg' });
  await visit(id, 2);
  const { context, page } = await signedInPage(suite.browser, { landing: null, viewport: DESK });
  await failing(page, '/api/queue-aggregate');
  await page.goto(`${BASE}/stats/${id}`);
  // The aggregate is asked for once the landing pages' numbers are in.
  await page
    .locator('[data-testid="landing-table"] tbody tr', { hasText: 'Agg landing' })
    .waitFor({ timeout: 30_000 });
  // The spec's browser alert, as a toast of its words alone.
  await expectToast(page, 'Aggregate: Failed to get landing data');
  await shot(page, '54-aggregate-failed');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('ad forms: images checked before upload, the activate confirmation, the created date and sizes', async () => {
  const user = await liveIntentAdmin();
  const own = user.token;
  const id = (await created('/api/add-campaign', { name: 'LI toasts', trafficSource: 'liveintent' }, own))
    .campaign.campaignData.campaignId;
  const li = `/api/manage-liveintent`;
  const liCampaign = (
    await created(`${li}/create-campaign`, liCampaignForm(id, { name: 'Autumn sale' }), own)
  ).liCampaign.li_refid;
  const line = (
    await created(
      `${li}/create-lineitem`,
      liLineItemForm(id, liCampaign, {
        name: 'Evening line',
        ageTarget: [3],
        genderTargetType: 'exclude',
        genderTarget: [8],
      }),
      own,
    )
  ).lineItem.li_refid;
  const ad = (
    await created(
      `${li}/create-ad`,
      {
        campaignId: id,
        lineitem_ref_id: line,
        adName: 'Green banner',
        clickUrl: 'https://shop.example/green',
        mediaUrl: `data:image/png;base64,${PNG.toString('base64')}`,
        width: 1,
        height: 1,
      },
      own,
    )
  ).ad;
  const off = await api(`${li}/toggle-ad-status`, {
    token: own,
    body: { campaignId: id, refId: ad.li_refid, status: false },
  });
  assert.equal(off.status, 200, JSON.stringify(off.body));

  // The browser's clock in UTC, so the test knows the created date's wall time.
  const { context, page } = await signedInPage(suite.browser, {
    user,
    landing: null,
    viewport: DESK,
    timezoneId: 'UTC',
  });

  // A file that is no image and an image of 250,000 bytes: refused in the browser, nothing sent.
  const uploads = [];
  page.on('request', (r) => r.url().endsWith('/manage-liveintent/create-ad') && uploads.push(r.url()));
  await page.goto(`${BASE}/manage-liveintent/campaign/${id}/create-ad`);
  await page.getByLabel('Click URL').fill('https://shop.example/offer');
  const big = Buffer.alloc(250_000);
  PNG.copy(big);
  await page.getByTestId('li-ads-files').setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') },
    { name: 'huge.png', mimeType: 'image/png', buffer: big },
  ]);
  const files = page.getByTestId('li-ads-file');
  await expectText(files.nth(0).locator('.field-error'), 'notes.txt is not an image file');
  await expectText(files.nth(1).locator('.field-error'), 'File size for huge.png must be less than 250kb');
  await page.getByTestId('li-save').click();
  await expectToast(page, 'Remove the files marked in red first.');
  await shot(page, '54-li-ads-refused');
  assert.deepEqual(uploads, []);

  // An image that changed on disk after it was chosen cannot be read: the spec's words, and the
  // file stays listed with them.
  await page.reload();
  await page.getByLabel('Click URL').fill('https://shop.example/offer');
  const dir = mkdtempSync(join(tmpdir(), 'e2e-54-'));
  const picked = join(dir, 'changing.png');
  writeFileSync(picked, PNG);
  await page.getByTestId('li-ads-files').setInputFiles(picked);
  writeFileSync(picked, Buffer.concat([PNG, PNG]));
  await page.getByTestId('li-save').click();
  await expectToast(page, 'Some ads failed to upload');
  await expectText(files.first().locator('.field-error'), 'changing: Error converting image to base64');
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(uploads, []);

  // The ads list: the created date as 'MMM DD, YYYY hh:mm a'.
  await page.goto(`${BASE}/manage-liveintent/campaign/${id}?tab=ads`);
  const at = new Date(ad.created_at);
  const pad = (n) => String(n).padStart(2, '0');
  const hours = at.getUTCHours();
  const expected = `${MONTHS[at.getUTCMonth()]} ${pad(at.getUTCDate())}, ${at.getUTCFullYear()} ${pad(
    hours % 12 || 12,
  )}:${pad(at.getUTCMinutes())} ${hours < 12 ? 'am' : 'pm'}`;
  const adRow = page.locator(`[data-testid="ad-row-${ad.li_refid}"]`);
  await adRow.getByText(expected, { exact: true }).waitFor();

  // Switching the inactive ad on asks first, in a small dialog.
  const sw = page.locator(`[data-testid="ad-switch-${ad.li_refid}"]`);
  assert.equal(await sw.getAttribute('aria-checked'), 'false');
  await sw.click();
  const dialog = page.getByRole('alertdialog');
  await expectText(dialog.locator('.confirm-message'), 'Are you sure you want to activate this ad?');
  // Small is 20 % of the window, never under 380 px (decision 177): 380 px at 1366, 20 % at 1920.
  assert.equal(await dialogWidth(page), 380);
  await page.setViewportSize({ width: 1920, height: 900 });
  assert.equal(await dialogWidth(page), 384); // 20 % of 1920
  await page.setViewportSize(DESK);
  await shot(page, '54-li-activate-confirm');
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await dismissToast(page, 'Ad status changed successfully');
  await until(async () => (await sw.getAttribute('aria-checked')) === 'true', 'the ad shows Active');

  // A platform campaign whose delete fails stays listed, with the spec's words.
  const fail = await failing(page, '/api/manage-liveintent/delete-campaign');
  await page.goto(`${BASE}/manage-liveintent/campaign/${id}?tab=campaigns`);
  await page.getByRole('button', { name: /^Delete Autumn sale/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, delete it!' }).click();
  await expectToast(page, 'Error deleting campaign');
  await page.locator(`[data-testid="campaign-row-${liCampaign}"]`).waitFor();
  await fail.off();
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('a medium dialog is 40 % of the window', async () => {
  const { context, page } = await signedInPage(suite.browser, { viewport: DESK });
  await page.getByRole('button', { name: 'Upload CSV' }).first().click();
  await page.locator('dialog[open]').getByRole('heading', { name: 'Upload campaigns from CSV' }).waitFor();
  assert.equal(await dialogWidth(page), 546.4); // 40 % of 1366
  await context.close();
});

test('the rotator report labels its months like Jan 2024', async () => {
  const id = (
    await created('/api/add-campaign', { name: 'Label rotator', campaignType: 'rotator', cpc: '0.25' })
  ).campaign.campaignData.campaignId;
  const offer = await created('/api/add-offer', {
    campaignId: id,
    name: 'Label offer',
    url: 'https://offer.example/label',
    payout: '10',
    postback: 'clickid',
    rotator_participant_email: 'labels.e2e@example.com',
  });
  const offerId = offer.offer.offerPageId;
  await visit(id, 3);
  const { context, page } = await openPage(suite.browser, { viewport: DESK });
  await page.goto(`${BASE}/rotators/reports/${offerId}#email=labels.e2e%40example.com`);
  const month = page.locator('[data-testid="report-months-table"] tbody tr').first();
  await expectText(month.locator('td').nth(2), '3');
  const [year, mm, dd] = today.split('-').map(Number);
  await expectText(month.locator('td').first(), `${MONTHS[mm - 1]} ${year}`);
  const day = page.locator('[data-testid="report-days-table"] tbody tr', {
    hasText: `${MONTHS[mm - 1]} ${dd}, ${year}`,
  });
  await expectText(day.locator('td').nth(2), '3');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('a balance that cannot be read says so in the spec’s words', async () => {
  const { context, page } = await signedInPage(suite.browser, { landing: null, viewport: DESK });
  await failing(page, '/api/get-balance');
  await page.goto(`${BASE}/funding`);
  await expectToast(page, 'Unable to retrieve Student Balance.');
  await shot(page, '54-funding-balance-failed');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('Manage LiveIntent without a campaign id goes to /campaigns, and to /login without a session', async () => {
  const anonymous = await openPage(suite.browser, { viewport: DESK });
  await anonymous.page.goto(`${BASE}/manage-liveintent/campaign/abc`);
  await expectPath(anonymous.page, '/login');
  await anonymous.context.close();
  const { context, page } = await signedInPage(suite.browser, { viewport: DESK });
  for (const path of ['/manage-liveintent/campaign', '/manage-liveintent/campaign/abc']) {
    await page.goto(`${BASE}${path}`);
    await expectPath(page, '/campaigns');
  }
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});
