// /registeruser: an admin creates a user with a role, changes it, and copies a one-time login
// link; opening the link signs that user in. Non-admins see no user management. An admin gives a
// student a coach and clears it again (docs/decisions/124).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN, adminToken, api, BASE, createUserViaApi } from './support/api.mjs';
import { browserForFile, openPage, signedInPage, storage } from './support/browser.mjs';
import { expectPath, expectText, expectToast } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const suite = browserForFile();

test('admin creates a user, changes the role and copies a login link that signs it in', {
  timeout: 60_000,
}, async () => {
  const { context, page } = await signedInPage(suite.browser);
  await page.locator('.nav-link', { hasText: 'Users' }).click();
  await expectPath(page, '/registeruser');
  await expectText(page.locator('h1'), 'Users');
  await page.locator(`[data-testid="user-row-${ADMIN.username}"]`).waitFor();

  await page.getByRole('button', { name: 'New user' }).click();
  await page.locator('#new-user-username').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'new-user-username');
  await page.getByRole('button', { name: 'Create user' }).click();
  // An empty username is "required", not "not valid"; "Admin" says it is reserved (issue 27).
  await expectText(page.locator('#new-user-username-error'), 'Username field is required.');
  await expectText(page.locator('#new-user-email-error'), 'Email field is required.');
  await expectText(page.locator('#new-user-password-error'), 'Password field is required.');
  await shot(page, 'register-user-errors');
  await page.locator('#new-user-username').fill('Admin');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expectText(
    page.locator('#new-user-username-error'),
    'The username "Admin" is reserved. Choose another username.',
  );
  await page.locator('#new-user-username').fill('no spaces allowed');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expectText(page.locator('#new-user-username-error'), 'Username field is not valid.');

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
  await expectText(row.locator('.user-email'), `${username}@example.com`);
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
  const other = await openPage(suite.browser);
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

test("admin sets and clears a student's coach with the keyboard; the list shows it after a reload", {
  timeout: 90_000,
}, async () => {
  const token = await adminToken();
  const student = await createUserViaApi('student');
  // A long coach name (usernames have no spaces, at most 60 characters) must wrap on a phone.
  const coachName = `coach.${Date.now().toString(36)}.with.a.rather.long.username.for.phones`.slice(0, 60);
  const made = await api('/api/registeruser', {
    token,
    body: {
      username: coachName,
      email: `${Date.now().toString(36)}@example.com`,
      password: 'Coach-pass-123',
      password_confirmation: 'Coach-pass-123',
      role: 'coach',
    },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const coach = made.body.data.user;
  const other = await createUserViaApi('coach');
  const coachOf = async () =>
    (await api('/api/users', { token })).body.data.result.find((u) => u.id === student.id).coach_id;

  const { context, page } = await signedInPage(suite.browser);
  await page.goto(`${BASE}/registeruser`);
  const row = page.getByTestId(`user-row-${student.username}`);
  await expectText(row.getByTestId(`coach-${student.username}`), 'No coach');
  // Only a student has a coach: no button on the admin's or a coach's row.
  assert.equal(await page.getByTestId(`set-coach-${ADMIN.username}`).count(), 0);
  assert.equal(await page.getByTestId(`set-coach-${coachName}`).count(), 0);

  // Keyboard only: the row's button opens the dialog on the select; Tab reaches Save.
  await row.getByRole('button', { name: `Change the coach of ${student.username}` }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Coach' });
  await dialog.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'user-coach-coachId');
  const select = page.locator('#user-coach-coachId');
  assert.equal(await select.inputValue(), '', 'no coach yet');
  const labels = await select.locator('option').allTextContents();
  assert.equal(labels[0], 'No coach');
  assert.ok(labels.includes(coachName) && labels.includes(other.username), labels.join(', '));
  assert.ok(!labels.includes(student.username) && !labels.includes(ADMIN.username), 'only coaches');
  await select.selectOption(String(coach.id));
  await shot(page, 'register-user-coach-dialog');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Save');
  await page.keyboard.press('Enter');
  await expectToast(page, 'Coach saved.');
  await dialog.waitFor({ state: 'hidden' });
  await expectText(row.getByTestId(`coach-${student.username}`), coachName);
  assert.equal(await coachOf(), coach.id);

  // After a reload the list still shows it, and the dialog opens on it.
  await page.reload();
  await expectText(row.getByTestId(`coach-${student.username}`), coachName);
  await shot(page, 'register-user-coach');
  await row.getByTestId(`set-coach-${student.username}`).click();
  await dialog.waitFor();
  assert.equal(await select.inputValue(), String(coach.id));

  // A refusal: the other coach stops being a coach while the dialog is open.
  await select.selectOption(String(other.id));
  const demoted = await api(`/api/users/${other.id}/role`, {
    method: 'PUT',
    token,
    body: { role: 'student' },
  });
  assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Select a coach.');
  await expectText(page.locator('#user-coach-coachId-error'), 'Select a coach.');
  assert.equal(await coachOf(), coach.id, 'nothing changed');

  // Clearing it: "No coach", Save.
  await select.selectOption('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Coach saved.');
  await dialog.waitFor({ state: 'hidden' });
  await expectText(row.getByTestId(`coach-${student.username}`), 'No coach');
  assert.equal(await coachOf(), null);

  // Cancel keeps what is saved.
  await row.getByTestId(`set-coach-${student.username}`).click();
  await dialog.waitFor();
  await select.selectOption(String(coach.id));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.reload();
  await expectText(row.getByTestId(`coach-${student.username}`), 'No coach');
  assert.equal(await coachOf(), null);
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});
