// Funding: a coach adjusts a student's wallets (log and header follow), a student with
// rotator_is_enabled funds a rotator offer, and the public rotator report opens from a link
// with #email= and shows the offer's real traffic in tables and charts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN, adminToken, api, apiLogin, BASE, createUserViaApi, newCampaign } from './support/api.mjs';
import { browserForFile, openPage, uiLogin } from './support/browser.mjs';
import { expectText, expectToast } from './support/expect.mjs';
import { shot } from './support/screen.mjs';
import { navigate, postback, trackingLinks } from './support/tracking.mjs';

const suite = browserForFile();
let admin;
let coach;
let student;
let rotatorStudent;

suite.setUp(async () => {
  admin = await adminToken();
  coach = await createUserViaApi('coach');
  student = await createUserViaApi('student');
  rotatorStudent = await createUserViaApi('student');
  // A coach adjusts the wallets of their own students only (docs/decisions/124).
  for (const s of [student, rotatorStudent]) {
    const res = await api(`/api/users/${s.id}/coach`, {
      method: 'PUT',
      token: admin,
      body: { coachId: coach.id },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
});

// The server shares two cores with other test runs: navigations wait for the document, and the
// locators below wait for what the test needs. No timeout of its own: a load that stalls is
// started once more by openPage's guard (support/browser.mjs, retryStalledLoads), which an explicit
// timeout would switch off.
const go = (page, path) => page.goto(new URL(path, BASE).toString(), { waitUntil: 'domcontentloaded' });

async function signIn(page, user, path) {
  await go(page, '/login');
  await uiLogin(page, user.username, user.password);
  await page.waitForURL((url) => url.pathname !== '/login');
  await go(page, path);
}

const walletTile = (page, grid, wallet) =>
  page.locator(`[data-testid="${grid}"] [data-wallet="${wallet}"] .wallet-tile-value`);
const headerValue = (page, wallet) =>
  page.locator(`[data-testid="header-balance"] [data-wallet="${wallet}"] .header-balance-value`);

/** A full-page picture from the top, so the sticky header sits where the user sees it. */
async function snap(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, name);
}

/** Charts and tables follow a resize on the next frames (ResizeObserver): wait for them, then check. */
async function noOverflow(page, timeout = 5000) {
  const deadline = Date.now() + timeout;
  let overflow = 0;
  do {
    overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow <= 0) return;
    await page.waitForFunction(() => true, null, { polling: 'raf' });
  } while (Date.now() < deadline);
  assert.ok(overflow <= 0, `horizontal overflow of ${overflow}px`);
}

test('a coach adjusts a student balance: the log and the header follow', async () => {
  const { context, page } = await openPage(suite.browser, { viewport: { width: 1366, height: 900 } });
  await signIn(page, coach, '/funding');
  await page.locator('#balance-user').selectOption(String(student.id));
  await page.getByRole('heading', { name: `Balances of ${student.username}` }).waitFor();
  await expectText(walletTile(page, 'wallet-grid', 'liveintent'), '$0.00');
  await expectText(headerValue(page, 'liveintent'), '$0.00');
  await page.locator('[data-testid="balance-log-table"]').getByText('No balance changes yet').waitFor();

  // A bad amount marks its field and books nothing.
  await page.locator('#funding-update-cpc').fill('12.345');
  await page.getByRole('button', { name: 'Update balance' }).click();
  await expectText(page.locator('#funding-update-cpc-error'), 'The amount can have at most 2 decimals.');
  await page.locator('#funding-update-cpc').fill('');

  await page.locator('#funding-update-liveintent').fill('1500');
  await page.locator('#funding-update-liveintentNote').fill('Initial deposit');
  await page.locator('#funding-update-blaze').fill('-12.50');
  await page.getByRole('button', { name: 'Update balance' }).click();
  await expectText(page.locator('.balance-confirm-title'), 'Proceed with transaction?');
  await snap(page, '11-funding-confirm-1366');
  await page.getByRole('button', { name: 'Yes, proceed' }).click();
  await expectToast(page, 'Balance is successfully updated.');

  await expectText(walletTile(page, 'wallet-grid', 'liveintent'), '$1,500.00');
  await expectText(walletTile(page, 'wallet-grid', 'blaze'), '-$12.50');
  await expectText(headerValue(page, 'liveintent'), '$1,500.00');
  await expectText(headerValue(page, 'blaze'), '-$12.50');
  const rows = page.locator('[data-testid="balance-log-table"] tbody tr');
  await expectText(rows.nth(0).locator('td').nth(1), 'Blaze');
  await expectText(rows.nth(0).locator('td').nth(2), '-$12.50');
  await expectText(rows.nth(1).locator('td').nth(2), '$1,500.00');
  await expectText(rows.nth(1).locator('td').nth(4), 'Initial deposit');
  assert.match((await rows.nth(1).locator('td').nth(5).textContent()) ?? '', /\(coach\)$/);
  await snap(page, '11-funding-coach-1366');

  // The header's update dialog: idle, confirm, processing, done.
  await page.locator('[data-testid="header-balance"]').click();
  const dialog = page.locator('dialog[open]');
  await dialog.getByText(`Balances of ${student.username}`).waitFor();
  await dialog.locator('#header-balance-cpc').fill('20');
  await dialog.getByRole('button', { name: 'Update balance' }).click();
  await dialog.getByText('Proceed with transaction?').waitFor();
  await dialog.getByRole('button', { name: 'Yes, proceed' }).click();
  await expectToast(page, 'Balance is successfully updated.');
  await dialog.locator('.balance-form-done').waitFor();
  await expectText(dialog.locator('[data-wallet="cpc"] .wallet-tile-value'), '$20.00');
  await snap(page, '11-header-balance-dialog-1366');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expectText(headerValue(page, 'cpc'), '$20.00');
  await expectText(walletTile(page, 'wallet-grid', 'cpc'), '$20.00');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('[data-testid="header-balance"] .header-balance-compact').waitFor();
  await noOverflow(page);
  await snap(page, '11-funding-coach-390');

  // The coach's own wallets offer no update form: nobody adjusts their own.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.locator('#balance-user').selectOption('');
  await page.getByRole('heading', { name: 'Your balances' }).waitFor();
  await expectText(
    page.getByTestId('own-wallets-note'),
    'Nobody adjusts their own wallets: pick a student to adjust theirs, or ask another admin to adjust yours.',
  );
  assert.equal(await page.locator('#funding-update-cpc').count(), 0);
  assert.deepEqual(page.pageErrors, []);
  await context.close();

  // The student reads the same numbers, and cannot adjust them.
  const me = await api('/api/get-balance', {
    token: await apiLogin(student.username, student.password),
    body: {},
  });
  assert.equal(me.body.data.balance.liveintentFormatted, '$1,500.00');
  assert.equal(me.body.data.balance.cpcFormatted, '$20.00');
});

test('an admin credit above $10,000 is refused with its message, and nothing is booked', async () => {
  const { context, page } = await openPage(suite.browser, { viewport: { width: 1366, height: 900 } });
  await signIn(page, ADMIN, '/funding');
  await page.locator('#balance-user').selectOption(String(student.id));
  await page.getByRole('heading', { name: `Balances of ${student.username}` }).waitFor();
  await expectText(walletTile(page, 'wallet-grid', 'cpc'), '$20.00');
  await page.locator('#funding-update-cpc').fill('10000.01');
  await page.getByRole('button', { name: 'Update balance' }).click();
  await page.getByRole('button', { name: 'Yes, proceed' }).click();
  const refusal = 'Credits to one user above $10,000.00 within 24 hours are refused.';
  await expectToast(page, refusal);
  await expectText(page.locator('#funding-update-cpc-error'), refusal);
  await expectText(walletTile(page, 'wallet-grid', 'cpc'), '$20.00');
  await snap(page, '11-funding-credit-limit-1366');
  const log = await api('/api/get-balance', { token: admin, body: { userId: student.id } });
  assert.equal(log.body.data.balance.cpcFormatted, '$20.00');
  assert.equal(log.body.data.pagination.total, 3);
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('a student with rotator_is_enabled funds a rotator offer', async () => {
  const set = await api('/api/balance-settings', {
    method: 'PUT',
    token: admin,
    body: { userId: rotatorStudent.id, rotatorEnabled: true },
  });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  const coachToken = await apiLogin(coach.username, coach.password);
  const topUp = await api('/api/update-balance', {
    token: coachToken,
    body: { userId: rotatorStudent.id, liveintent: '500', liveintentNote: 'Rotator budget' },
  });
  assert.equal(topUp.status, 200);
  const token = await apiLogin(rotatorStudent.username, rotatorStudent.password);
  const campaignId = await newCampaign(token, {
    name: 'Summer rotator',
    campaignType: 'rotator',
    cpc: '0.25',
  });
  const offer = await api('/api/add-offer', {
    token,
    body: {
      campaignId,
      name: 'Alice offer',
      url: 'https://offer.example/alice',
      payout: '20',
      postback: 'clickid',
      rotator_participant_email: 'alice.e2e@example.com',
    },
  });
  assert.equal(offer.status, 201, JSON.stringify(offer.body));

  const { context, page } = await openPage(suite.browser, { viewport: { width: 1366, height: 900 } });
  await signIn(page, rotatorStudent, '/funding');
  await expectText(walletTile(page, 'wallet-grid', 'liveintent'), '$500.00');
  const form = page.locator('[data-testid="rotator-funding"]');
  await form.waitFor();
  await page
    .locator('#rotator-campaign option', { hasText: 'Summer rotator' })
    .waitFor({ state: 'attached' });
  await page.locator('#rotator-campaign').selectOption({ label: 'Summer rotator' });
  await page.locator('#rotator-offer option', { hasText: 'Alice offer' }).waitFor({ state: 'attached' });
  await page.locator('#rotator-offer').selectOption({ label: 'Alice offer' });
  await expectText(page.locator('[data-testid="rotator-funding-amount"]'), '$0.00');
  // More than the wallet holds (the drop-down shows $500.00) is refused before any confirmation,
  // in the server's words (issue 27).
  await expectText(page.locator('#rotator-wallet option[value="liveintent"]'), 'LiveIntent ($500.00)');
  await page.locator('#rotator-amount').fill('500.01');
  await page.locator('#rotator-wallet').selectOption('liveintent');
  await form.getByRole('button', { name: 'Fund offer' }).click();
  await expectText(
    page.locator('#rotator-amount-error'),
    'The selected wallet does not have enough balance.',
  );
  await expectToast(page, 'The selected wallet does not have enough balance.');
  assert.equal(await page.locator('dialog[open]').count(), 0);
  await page.locator('#rotator-amount').fill('120.50');
  await form.getByRole('button', { name: 'Fund offer' }).click();
  const confirm = page.locator('dialog[open]');
  await confirm.getByText('$120.50 moves from your LiveIntent wallet').waitFor();
  await confirm.getByRole('button', { name: 'Fund offer' }).click();
  await expectToast(page, 'Rotator funded successfully.');
  await expectText(page.locator('[data-testid="rotator-funding-amount"]'), '$120.50');
  await expectText(walletTile(page, 'wallet-grid', 'liveintent'), '$379.50');
  // The log's Wallet column names the wallet the money left; the kind is under Type (issue 27).
  const first = page.locator('[data-testid="balance-log-table"] tbody tr').first();
  await expectText(first.locator('td').nth(1), 'LiveIntent');
  await expectText(first.locator('td').nth(2), '-$120.50');
  await expectText(first.locator('td').nth(3), 'Rotator funding');
  assert.equal(
    await page
      .locator('[data-testid="balance-log-table"] tbody td:nth-child(2)', { hasText: 'Rotator' })
      .count(),
    0,
  );
  await snap(page, '11-rotator-funding-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await noOverflow(page);
  await snap(page, '11-rotator-funding-390');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('the public report opens from a link with #email= and shows tables and charts', async () => {
  const token = await apiLogin(rotatorStudent.username, rotatorStudent.password);
  const rotators = await api('/api/rotators', { token });
  const campaignId = rotators.body.data.result.find((r) => r.name === 'Summer rotator').campaignId;
  const offers = await api(`/api/rotators/${campaignId}/offers`, { token });
  const offerId = offers.body.data.result[0].offerPageId;

  // Real traffic through the rotator's tracking link: 24 visits, 3 conversions of $20.
  // The postback URL the product shows carries the campaign's postback secret.
  const { campaignUrl, secret } = await trackingLinks(token, campaignId);
  const clickIds = [];
  for (let i = 0; i < 24; i++) {
    const to = await navigate(campaignUrl);
    assert.equal(`${to.origin}${to.pathname}`, 'https://offer.example/alice');
    clickIds.push(to.searchParams.get('clickid'));
  }
  for (const id of clickIds.slice(0, 3)) await postback(id, secret);
  // Wait for ingest through the statistics (the report itself is cached for 60 s once read).
  const deadline = Date.now() + 30_000;
  let totals;
  do {
    const res = await api('/api/statistics', {
      token,
      body: { campaignId, startDate: '', endDate: '', totalOnly: true, force: true },
    });
    for (let i = 0; i < 40 && !totals; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const job = await api('/api/get-target-statistics', { token, body: { uuid: res.body.data.queueId } });
      if (job.body?.data?.done) totals = job.body.data.data.data.targetTotal;
    }
    if (totals?.visitsTotal === 24 && totals?.conversionsTotal === 3) break;
    totals = undefined;
    await new Promise((r) => setTimeout(r, 300));
  } while (Date.now() < deadline);
  assert.equal(totals?.visitsTotal, 24);

  const { context, page } = await openPage(suite.browser, { viewport: { width: 1366, height: 900 } });
  await go(page, `/rotators/reports/${offerId}#email=alice.e2e%40example.com`);
  const months = page.locator('[data-testid="report-months-table"]');
  const monthRow = months.locator('tbody tr').first();
  await monthRow.locator('td').nth(2).waitFor();
  await expectText(monthRow.locator('td').nth(2), '24');
  assert.match((await monthRow.locator('td').first().textContent()) ?? '', /^[A-Z][a-z]{2} \d{4}$/);
  await expectText(monthRow.locator('td').nth(1), '$6.00'); // 24 visits at the rotator's $0.25 CPC
  await expectText(monthRow.locator('td').nth(3), '3');
  await expectText(monthRow.locator('td').nth(4), '$60.00');
  await expectText(monthRow.locator('td').nth(5), '$54.00');
  const dayFooter = page.locator('[data-testid="report-days-footer"]');
  await expectText(dayFooter.locator('td').nth(2), '24');
  await expectText(dayFooter.locator('td').nth(4), '$60.00');
  await expectText(dayFooter.locator('td').nth(7), '900.00%'); // ROI = 54 / 6
  for (const metric of [
    'ad_spend',
    'clicks',
    'sales',
    'revenue',
    'net_profit',
    'conversion_rate',
    'roi',
    'epc',
    'cpa',
    'cpc',
  ]) {
    await page.locator(`[data-testid="report-chart-${metric}"] svg`).first().waitFor();
  }
  const periods = await page.locator('#report-period option').count();
  assert.ok(periods >= 1);
  await snap(page, '11-rotator-report-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await noOverflow(page);
  await snap(page, '11-rotator-report-390');

  // Any other email sees nothing.
  await go(page, `/rotators/reports/${offerId}#email=mallory%40example.com`);
  await page.getByText('This report is not available').waitFor();
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('an admin disables a student wallet and hides the header dashboard', async () => {
  const { context, page } = await openPage(suite.browser, { viewport: { width: 1366, height: 900 } });
  await signIn(page, ADMIN, '/funding');
  await page.locator(`#balance-user option[value="${student.id}"]`).waitFor({ state: 'attached' });
  await page.locator('#balance-user').selectOption(String(student.id));
  await page.getByRole('heading', { name: `Balances of ${student.username}` }).waitFor();
  const settings = page.locator('[data-testid="wallet-settings"]');
  await settings.getByText(student.username).waitFor();
  await page.locator('#ws-disabled-mediago').check();
  await page.locator('#ws-header').uncheck();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expectToast(page, 'Balance settings saved.');
  await page.locator('[data-testid="wallet-grid"] [data-wallet="mediago"] .badge').waitFor();
  await page.locator('[data-testid="header-balance"]').waitFor({ state: 'detached' });
  assert.equal(await page.locator('#funding-update-mediago').isDisabled(), true);
  await snap(page, '11-wallet-settings-admin-1366');
  assert.deepEqual(page.pageErrors, []);
  await context.close();

  // Back on for the files that run after this one.
  const token = await adminToken();
  const res = await api('/api/balance-settings', { method: 'PUT', token, body: { headerBalance: true } });
  assert.equal(res.body.data.headerBalance, true);
});

test('the statistics of a campaign paid from a wallet below the minimum show the insufficient-balance notice', async () => {
  // rotatorStudent's LiveIntent wallet holds $379.50, below the $1,500 minimum.
  const token = await apiLogin(rotatorStudent.username, rotatorStudent.password);
  const id = await newCampaign(token, { name: 'LiveIntent push', trafficSource: 'liveintent' });
  const { context, page } = await openPage(suite.browser, { viewport: { width: 1366, height: 900 } });
  await signIn(page, rotatorStudent, `/stats/${id}`);
  const notice = page.locator('[data-testid="insufficient-balance"]');
  await notice.waitFor();
  assert.match((await notice.textContent()) ?? '', /Insufficient balance\./);
  await snap(page, '11-insufficient-balance-notice-1366');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});
