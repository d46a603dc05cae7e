// Issue 30, part D1: the generic API layer's own toasts (a server failure's status text and a 2xx
// answer with errors: true, in the warning theme, with the OK action; decision 176), the sign-in
// flows the specs name, and the failure toasts of the campaign editor and settings, each reached by
// making its one call fail in the browser (page.route) and read word for word.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, apiLogin, BASE, createUserViaApi } from './support/api.mjs';
import { browserForFile, openPage, signedInPage, uiLogin } from './support/browser.mjs';
import { expectPath, expectText, expectToast } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const suite = browserForFile();
let admin;
let adminTokenValue;

suite.setUp(async () => {
  // An administrator of its own: what this file saves never meets another file's data.
  admin = await createUserViaApi('admin');
  adminTokenValue = await apiLogin(admin.username, admin.password);
});

const json = (body, status = 200) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

/** The toast's colours and its buttons, as the browser draws them. */
async function looks(toast) {
  return toast.evaluate((el) => {
    const s = getComputedStyle(el);
    return { background: s.backgroundColor, color: s.color, border: s.borderTopColor };
  });
}

test('the API layer: a server failure and a 2xx with errors: true are warning toasts with OK', {
  timeout: 60_000,
}, async () => {
  const { context, page } = await signedInPage(suite.browser, { user: admin });
  await page.goto(`${BASE}/integrations`);
  const save = page.locator('#tiktok-form').getByRole('button', { name: 'Save token' });

  // A 2xx whose body says errors: true failed: its data.message is the toast, and the screen's
  // own failure follows (the save did not happen).
  await page.route('**/api/auth/set-tiktok-token', (route) =>
    route.fulfill(json({ errors: true, data: { message: 'This token belongs to another advertiser.' } })),
  );
  await page.locator('#tiktok-form-api_token').fill('tt-token-1');
  await save.click();
  const refused = await expectToast(page, 'This token belongs to another advertiser.');
  assert.equal(await refused.getAttribute('data-type'), 'warning');
  const failed = await expectToast(page, 'Failed to save token.');
  assert.equal(await failed.getAttribute('data-type'), 'error');
  // Errors in the warning theme (spec 4 §9): the same colours as the warning.
  assert.deepEqual(await looks(failed), await looks(refused));
  // The OK action closes its toast (the newest is in front).
  await failed.getByRole('button', { name: 'OK' }).click();
  await failed.waitFor({ state: 'detached' });
  await refused.getByRole('button', { name: 'OK' }).click();
  await refused.waitFor({ state: 'detached' });
  await page.unroute('**/api/auth/set-tiktok-token');

  // Another status (503): its status text in a warning toast, then the screen's own words.
  await page.route('**/api/auth/set-tiktok-token', (route) =>
    route.fulfill({ status: 503, contentType: 'text/plain', body: 'down' }),
  );
  await save.click();
  const status = await expectToast(page, 'Service Unavailable');
  assert.equal(await status.getAttribute('data-type'), 'warning');
  await expectToast(page, 'Failed to save token.');
  await shot(page, '53-toasts-warning-theme');
  await page.unroute('**/api/auth/set-tiktok-token');

  // Nothing was stored by either attempt.
  const stored = await api('/api/auth/get-tiktok-token', { token: adminTokenValue });
  assert.equal(stored.status, 200, JSON.stringify(stored.body));
  assert.equal(stored.body.data.token, '');
  await context.close();
});

test('signed in, /forgot-password and /reset-password/:email/:token go to /dashboard', {
  timeout: 60_000,
}, async () => {
  const { context, page } = await signedInPage(suite.browser, { user: admin });
  await page.goto(`${BASE}/forgot-password`);
  await expectPath(page, '/dashboard');
  await page.goto(`${BASE}/reset-password/${encodeURIComponent(admin.email)}/any-token-at-all`);
  await expectPath(page, '/dashboard');
  await context.close();
});

test('a second login attempt while the first is in flight sends nothing', { timeout: 60_000 }, async () => {
  const { context, page } = await openPage(suite.browser);
  await page.goto(`${BASE}/login`);
  // The first attempt's answer is held until both second attempts have been made.
  let sent = 0;
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  await page.route('**/api/auth/login', async (route) => {
    sent += 1;
    await held;
    await route.continue();
  });
  await uiLogin(page, admin.username, admin.password);
  await page.locator('button[aria-busy="true"]', { hasText: 'Sign in' }).waitFor();
  assert.equal(sent, 1);
  // A click, Enter again, and the form submitted directly (past the busy button): all ignored.
  await page.locator('button[aria-busy="true"]', { hasText: 'Sign in' }).click({ force: true });
  await page.locator('#login-password').press('Enter');
  await page.locator('form').evaluate((form) => form.requestSubmit());
  release();
  await expectPath(page, '/campaigns');
  assert.equal(sent, 1, `${sent} login requests`);
  await context.close();
});

test('register: sign-up open, the success toast and the way to sign in', { timeout: 60_000 }, async () => {
  // Sign-up is an installation setting of the Worker (REGISTRATION_ENABLED), off for this server;
  // the server's success answer is tested with it on in tests/integration/accounts.test.ts, and
  // its words are answered here so the screen's success path runs.
  const { context, page } = await openPage(suite.browser);
  await page.route('**/api/registration', (route) => route.fulfill(json({ data: { open: true } })));
  let sentBody = null;
  await page.route('**/api/auth/register', (route) => {
    sentBody = route.request().postDataJSON();
    return route.fulfill(
      json(
        {
          data: {
            message: 'Successfully registered.',
            user: { id: 999, username: 'Jane', email: 'jane-d1@example.com' },
          },
        },
        201,
      ),
    );
  });
  await page.goto(`${BASE}/register`);
  await expectText(page.locator('h1'), 'Create an account');
  await page.locator('#register-name').fill('Jane');
  await page.locator('#register-email').fill('jane-d1@example.com');
  await page.locator('#register-password').fill('Jane-pass-12');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expectToast(page, 'Successfully registered.');
  await expectPath(page, '/login');
  assert.deepEqual(sentBody, { name: 'Jane', email: 'jane-d1@example.com', password: 'Jane-pass-12' });
  await context.close();
});

test("the dashboard says 'Please select a campaign' to a user with none", { timeout: 60_000 }, async () => {
  const student = await createUserViaApi('student');
  const { context, page } = await signedInPage(suite.browser, { user: student, landing: null });
  await page.goto(`${BASE}/dashboard`);
  await expectText(page.locator('.empty-state-title'), 'Please select a campaign');
  await expectText(page.getByRole('link', { name: 'Create a campaign' }), 'Create a campaign');
  await context.close();
});

/** Answers every request to `glob` with a 500 until `unroute`. */
const fail = (page, glob) =>
  page.route(glob, (route) => route.fulfill(json({ message: 'Server Error' }, 500)));

/** A campaign of this file's administrator, by the API; answers its id. */
async function campaign(body) {
  const created = await api('/api/add-campaign', { token: adminTokenValue, body });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.data.campaign.campaignData.campaignId;
}

/** The editor of a new campaign, signed in, on the tab `key`. */
async function editorOn(body, key) {
  const id = await campaign(body);
  const { context, page } = await signedInPage(suite.browser, { user: admin });
  await page.goto(`${BASE}/basic-info/${id}`);
  await page.locator(`[data-testid="tab-${key}"]`).click();
  await page.locator(`[data-testid="tab-${key}"][aria-selected="true"]`).waitFor();
  return { id, context, page };
}

test('settings: the failure toasts of the balance, the license and deleting all records', {
  timeout: 90_000,
}, async () => {
  const id = await campaign({ name: 'D1 kept campaign' });
  const { context, page } = await signedInPage(suite.browser, { user: admin });

  // The header's balance cannot be read.
  await fail(page, '**/api/get-balance');
  await page.goto(`${BASE}/setting`);
  await expectToast(page, 'Unable to retrieve Student Balance.');
  await page.unroute('**/api/get-balance');

  // Deactivating the license fails: the toast, and the license stays active.
  await fail(page, '**/api/license/deactivate');
  await page.getByRole('button', { name: 'Deactivate license' }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Deactivate' }).click();
  await expectToast(page, 'Error in deactivate license');
  await expectPath(page, '/setting');
  assert.equal((await api('/api/license')).body.data.status, 'active');
  await page.unroute('**/api/license/deactivate');

  // Deleting all records fails: the toast, and the campaigns are still there.
  await fail(page, '**/api/clean-records');
  await page.locator('#delete-confirm').fill('1234');
  await page.getByRole('button', { name: 'Delete all records' }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Delete everything' }).click();
  await expectToast(page, 'Please try again to delete records.');
  await page.unroute('**/api/clean-records');
  assert.equal((await api(`/api/campaign?campaignId=${id}`, { token: adminTokenValue })).status, 200);
  await context.close();
});

test('editor: token templates that fail to apply or remove, and a copy that fails', {
  timeout: 90_000,
}, async () => {
  const id = await campaign({ name: 'D1 tokens' });
  const { context, page } = await signedInPage(suite.browser, { user: admin });
  // The clipboard refuses to be written, as a browser without the permission does.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: {
        writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
      },
    });
  });
  await page.goto(`${BASE}/basic-info/${id}`);
  await page.locator('#token-template').selectOption('taboola');

  await fail(page, '**/api/apply-token-template');
  await page.getByRole('button', { name: 'Apply template' }).click();
  await expectToast(page, 'Failed to apply token templates! Try again.');
  await page.unroute('**/api/apply-token-template');
  await expectText(page.locator('.ce-token-count'), '0 / 20');

  await fail(page, '**/api/remove-token-template');
  await page.getByRole('button', { name: 'Remove template tokens' }).click();
  await expectToast(page, 'Failed to remove tokens! Try again.');
  await page.unroute('**/api/remove-token-template');

  await page.locator('[data-testid="tab-links"]').click();
  await page.locator('[data-testid="link-campaign-url-copy"]').click();
  await expectToast(page, 'Error Occured.');
  await context.close();
});

/** A 1×1 PNG: an image the server accepts as an asset or a banner. */
const PIXEL = (name) => ({
  name,
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
});

test('editor, traffic: saving the info, updating lines and deleting an asset fail with their toasts', {
  timeout: 90_000,
}, async () => {
  const { context, page } = await editorOn({ name: 'D1 traffic', trafficSource: 'trrcpc' }, 'traffic');
  await page.locator('#traffic-offer').selectOption('Keto Burn');

  await fail(page, '**/api/cpc/save-info');
  await page.getByRole('button', { name: 'Save traffic info' }).click();
  await expectToast(page, 'Failed to save traffic info');
  await page.unroute('**/api/cpc/save-info');

  await page.getByRole('button', { name: 'Add line' }).click();
  await page.locator('#line-id-0').fill('L-200');
  await page.locator('#line-cpm-0').fill('1.50');
  await fail(page, '**/api/cpc/update-lines');
  await page.getByRole('button', { name: 'Update lines' }).click();
  await expectToast(page, 'Failed to update lines');
  await page.unroute('**/api/cpc/update-lines');

  // One asset uploaded for real, then its deletion fails: it is still listed.
  await page.locator('#traffic-assets-input').setInputFiles([PIXEL('d1-asset.png')]);
  await expectToast(page, 'Asset(s) saved successfully');
  await expectText(page.getByTestId('asset-counter'), '1 of 200 assets');
  await fail(page, '**/api/cpc/delete-asset/**');
  await page.locator('[data-testid="asset"] input[type="checkbox"]').check();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Failed to delete asset(s)');
  await page.unroute('**/api/cpc/delete-asset/**');
  assert.equal(await page.getByTestId('asset').count(), 1);
  await context.close();
});

test('editor, banners: updating and deleting a banner fail with their toasts', {
  timeout: 90_000,
}, async () => {
  const { id, context, page } = await editorOn({ name: 'D1 banners', trafficSource: 'blaze' }, 'banners');
  await page.getByRole('button', { name: 'Add banners' }).click();
  await page.locator('#banner-name').fill('D1 banner');
  await page.locator('#banner-url').fill('https://offer.example/d1');
  await page.locator('#banner-images').setInputFiles([PIXEL('d1-banner.png')]);
  await page.getByRole('button', { name: 'Upload banners' }).click();
  await expectToast(page, 'Banner(s) saved successfully');
  await expectText(page.getByTestId('banner-count'), '1 banner');

  await page.getByRole('checkbox', { name: 'Select D1 banner (d1-banner.png)' }).check();
  await fail(page, '**/api/blaze/save-banner');
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await expectToast(page, 'Failed to update banner');
  await page.unroute('**/api/blaze/save-banner');

  await fail(page, '**/api/blaze/delete-banners');
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Failed to delete banner(s)');
  await page.unroute('**/api/blaze/delete-banners');
  await expectText(page.getByTestId('banner-count'), '1 banner · 1 selected');
  const detail = await api(`/api/campaign?campaignId=${id}`, { token: adminTokenValue });
  assert.equal(detail.body.data.banners.length, 1);
  assert.equal(detail.body.data.banners[0].active, 1);
  await context.close();
});
