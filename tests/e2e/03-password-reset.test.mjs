// Forgot password -> the reset mail in the dev outbox -> reset -> sign in with the new password.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, BASE, createUserViaApi, MESSAGES } from './support/api.mjs';
import { browserForFile, openPage, storage, uiLogin } from './support/browser.mjs';
import { expectPath, expectText, expectToast, until } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const suite = browserForFile();

async function resetLinkFor(email) {
  const mail = await until(async () => {
    const outbox = await api('/api/dev/outbox');
    assert.equal(outbox.status, 200, 'the dev outbox answers in development');
    return outbox.body.data.result.find((m) => m.to === email);
  }, `no mail to ${email} in the outbox`);
  const link = /https?:\/\/\S+\/reset-password\/\S+/.exec(mail.text)?.[0];
  assert.ok(link, `no reset link in: ${mail.text}`);
  return link;
}

test('forgot password -> outbox -> reset -> login with the new password', { timeout: 60_000 }, async () => {
  const user = await createUserViaApi('student');
  const { context, page } = await openPage(suite.browser);

  await page.goto(`${BASE}/login`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expectPath(page, '/forgot-password');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expectText(page.locator('#forgot-email-error'), 'Email field is required.');
  await page.locator('#forgot-email').fill('someone@nowhere');
  await page.locator('#forgot-email').press('Enter');
  await expectText(page.locator('#forgot-email-error'), 'Please enter valid email address.');
  await shot(page, 'forgot-password');

  await page.locator('#forgot-email').fill(user.email);
  await page.locator('#forgot-email').press('Enter');
  await expectToast(page, MESSAGES.resetLinkSent);
  await expectPath(page, '/login');

  const link = await resetLinkFor(user.email);
  assert.ok(link.startsWith(`${BASE}/reset-password/`), link);
  await page.goto(link);
  await expectText(page.locator('h1'), 'Choose a new password');
  await page.locator('#reset-password').fill('Brand-new-pass-1');
  await page.locator('#reset-password_confirmation').fill('Brand-new-pass-2');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expectText(
    page.locator('#reset-password_confirmation-error'),
    'Confirm Password do not match with Password.',
  );
  await shot(page, 'reset-password');

  await page.locator('#reset-password_confirmation').fill('Brand-new-pass-1');
  await page.locator('#reset-password_confirmation').press('Enter');
  await expectToast(page, MESSAGES.passwordChanged);
  await expectPath(page, '/login');

  // The old password no longer works; the new one does.
  await uiLogin(page, user.username, user.password);
  await expectText(page.locator('#login-error'), MESSAGES.loginFailed);
  await page.locator('#login-password').fill('Brand-new-pass-1');
  await page.locator('#login-password').press('Enter');
  await expectPath(page, '/campaigns');
  assert.equal(await storage(page, 'username'), user.username);
  assert.equal(await storage(page, 'roleType'), 'student');

  // A spent link fails verification on entry and goes silently to /login.
  await page.evaluate(() => localStorage.clear());
  await context.clearCookies();
  await page.goto(link);
  await expectPath(page, '/login');
  assert.equal(await page.locator('[data-sonner-toast]').count(), 0, 'silently');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});
