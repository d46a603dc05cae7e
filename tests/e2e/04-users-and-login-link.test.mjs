// /registeruser: an admin creates a user with a role, changes it, and copies a one-time login
// link; opening the link signs that user in. Non-admins see no user management.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  ADMIN,
  api,
  BASE,
  ensureInstalled,
  expectPath,
  expectText,
  expectToast,
  launchBrowser,
  openPage,
  shot,
  storage,
  uiLogin,
} from './helpers.mjs';

let browser;
before(async () => {
  await ensureInstalled();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

test('admin creates a user, changes the role and copies a login link that signs it in', {
  timeout: 60_000,
}, async () => {
  const { context, page } = await openPage(browser);
  await page.goto(`${BASE}/login`);
  await uiLogin(page, ADMIN.username, ADMIN.password);
  await expectPath(page, '/campaigns');
  await page.locator('.nav-link', { hasText: 'Users' }).click();
  await expectPath(page, '/registeruser');
  await expectText(page.locator('h1'), 'Users');
  await page.locator(`[data-testid="user-row-${ADMIN.username}"]`).waitFor();

  await page.getByRole('button', { name: 'New user' }).click();
  await page.locator('#new-user-username').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'new-user-username');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expectText(page.locator('#new-user-username-error'), 'Username field is not valid.');
  await expectText(page.locator('#new-user-email-error'), 'Email field is required.');
  await expectText(page.locator('#new-user-password-error'), 'Password field is required.');
  await shot(page, 'register-user-errors');

  const username = `coachee${Date.now().toString(36)}`;
  await page.locator('#new-user-username').fill(username);
  await page.locator('#new-user-email').fill(`${username}@example.com`);
  await page.locator('#new-user-password').fill('Student-pass-1');
  await page.locator('#new-user-password_confirmation').fill('Student-pass-1');
  await page.locator('#new-user-role').selectOption('student');
  await page.locator('#new-user-password_confirmation').press('Enter');
  await expectToast(page, 'User created successfully.');
  const row = page.locator(`[data-testid="user-row-${username}"]`);
  await row.waitFor();
  await expectText(row.locator('td').nth(2), `${username}@example.com`);
  assert.equal(await page.locator('#new-user-username').count(), 0, 'the dialog closed');

  // The same username again: the server's message at the field.
  await page.getByRole('button', { name: 'New user' }).click();
  assert.equal(await page.locator('#new-user-username').inputValue(), '', 'the form starts empty');
  await page.locator('#new-user-username').fill(username);
  await page.locator('#new-user-email').fill(`${username}2@example.com`);
  await page.locator('#new-user-password').fill('Student-pass-1');
  await page.locator('#new-user-password_confirmation').fill('Student-pass-1');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expectText(page.locator('#new-user-username-error'), 'This username is already taken.');
  await page.keyboard.press('Escape');
  await page.locator('#new-user-username').waitFor({ state: 'detached' });

  await shot(page, 'register-user');
  await page.locator(`[data-testid="role-${username}"]`).selectOption('coach');
  await expectToast(page, 'Role updated.');
  const token = await storage(page, 'token');
  const users = await api('/api/users', { token });
  assert.equal(users.body.data.result.find((u) => u.username === username).role, 'coach|Coach');

  await row.getByRole('button', { name: `Copy login link for ${username}` }).click();
  const linkInput = page.locator('#login-link-url');
  await linkInput.waitFor();
  const url = await linkInput.inputValue();
  assert.match(url, new RegExp(`^${BASE}/login#loginToken=[^&]+&hash=.+`));
  await shot(page, 'register-user-link');
  await page.getByRole('button', { name: 'Close' }).first().click();

  // Another browser opens the link and is signed in as that user.
  const other = await openPage(browser);
  await other.page.goto(url);
  await expectPath(other.page, '/campaigns');
  assert.equal(await storage(other.page, 'username'), username);
  assert.equal(await storage(other.page, 'roleType'), 'coach');
  assert.equal(await storage(other.page, 'roleName'), 'Coach');
  await expectText(other.page.locator('.user-chip-name'), username);
  // No Users link for a coach, and the screen says so.
  assert.equal(await other.page.locator('.nav-link[data-nav-id="9"]').count(), 0);
  await other.page.goto(`${BASE}/registeruser`);
  await expectText(other.page.locator('.empty-state-title'), 'You do not have access');
  await shot(other.page, 'register-user-no-access');

  // The link was single use.
  await other.page.evaluate(() => localStorage.clear());
  await other.context.clearCookies();
  await other.page.goto(url);
  await expectText(other.page.locator('#login-error'), 'This login link is invalid or has expired.');
  assert.equal(new URL(other.page.url()).hash, '', 'the secret left the address bar');
  assert.deepEqual(other.page.pageErrors, []);
  await other.context.close();
  await context.close();
});
