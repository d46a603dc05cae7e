// License page messages, the inactive-license login path and activation; sign-up (off by
// default) answering that registration is disabled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN, adminToken, api, BASE, mintLicense } from './support/api.mjs';
import { browserForFile, openPage, storage, uiLogin } from './support/browser.mjs';
import { expectPath, expectText, expectToast } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const suite = browserForFile();

test('license page: messages at the fields and the server refusal', { timeout: 30_000 }, async () => {
  const { context, page } = await openPage(suite.browser);
  await page.goto(`${BASE}/license`);
  await expectText(page.locator('h1'), 'Activate your license');
  await expectText(page.locator('[data-testid="license-status"] .badge'), 'Active');
  await page.getByRole('button', { name: 'Activate license' }).click();
  await expectText(page.locator('#license-email-error'), 'Email field is required.');
  await expectText(page.locator('#license-licenseKey-error'), 'License field is required.');
  await page.locator('#license-email').fill('owner@example');
  await page.locator('#license-licenseKey').fill('not-a-key');
  await page.locator('#license-email').press('Enter');
  await expectText(page.locator('#license-email-error'), 'Enter valid email address.');
  assert.equal(await page.locator('#license-licenseKey-error').count(), 0);
  await shot(page, 'license');

  await page.locator('#license-email').fill(ADMIN.email);
  await page.locator('#license-email').press('Enter');
  await expectText(page.locator('.alert-error'), 'Invalid email or licenseKey');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('inactive license: login goes to /license; activation goes to /login', { timeout: 60_000 }, async () => {
  const token = await adminToken();
  const off = await api('/api/license/deactivate', { token, body: {} });
  assert.equal(off.status, 200);
  const { context, page } = await openPage(suite.browser);
  try {
    await page.goto(`${BASE}/login`);
    await uiLogin(page, ADMIN.username, ADMIN.password);
    await expectPath(page, '/license');
    assert.equal(await storage(page, 'token'), null, 'no session without a license');
    await expectText(page.locator('[data-testid="license-status"] .badge'), 'Inactive');

    await page.locator('#license-email').fill(ADMIN.email);
    await page.locator('#license-licenseKey').fill(await mintLicense(ADMIN.email));
    await page.getByRole('button', { name: 'Activate license' }).click();
    await expectToast(page, 'License activated.');
    await expectPath(page, '/login');
    await uiLogin(page, ADMIN.username, ADMIN.password);
    await expectPath(page, '/campaigns');
  } finally {
    // Leave the installation licensed whatever happened above.
    const status = await api('/api/license');
    if (status.body.data.status !== 'active') {
      await api('/api/license/activate', {
        body: { email: ADMIN.email, licenseKey: await mintLicense(ADMIN.email) },
      });
    }
    await context.close();
  }
});

test('register: checks at the fields, then the server says sign-up is off', { timeout: 30_000 }, async () => {
  const { context, page } = await openPage(suite.browser);
  // Sign-up is off here, so /register would say so at once (test 22); the form's checks and the
  // server's own refusal are reached by answering the screen's question with "open".
  await page.route('**/api/registration', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"data":{"open":true}}' }),
  );
  await page.goto(`${BASE}/register`);
  await expectText(page.locator('h1'), 'Create an account');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expectText(page.locator('#register-name-error'), 'Name field is required.');
  await expectText(page.locator('#register-email-error'), 'Email field is required.');
  await expectText(page.locator('#register-password-error'), 'Password field is required.');
  await page.locator('#register-name').fill('Jane Doe');
  await page.locator('#register-email').fill('jane@example.com');
  await page.locator('#register-password').fill('Jane-pass-1');
  await page.locator('#register-password').press('Enter');
  await expectText(page.locator('.alert-error'), 'Registration is disabled on this installation.');
  await expectPath(page, '/register');
  await shot(page, 'register');
  await context.close();
});
