// Issue 30, part D1: the generic API layer's own toasts (a server failure's status text and a 2xx
// answer with errors: true, in the warning theme, with the OK action; decision 176), the sign-in
// flows the specs name, and the failure toasts of the campaign editor and settings, each reached by
// making its one call fail in the browser (page.route) and read word for word.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  api,
  apiLogin,
  BASE,
  browserForFile,
  createUserViaApi,
  expectToast,
  shot,
  signedInPage,
} from './helpers.mjs';

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
