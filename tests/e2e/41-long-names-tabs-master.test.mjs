// Issue 27 items 4, 5 and 6 in Chromium at 1366 and 390 px:
// - the longest names the server allows (100 characters, no spaces) wrap or truncate on every
//   screen that shows them, and a longer one is refused with the message;
// - the editor's tabs: Options and Banners at once after creating, no Landing pages tab for a
//   direct-link campaign;
// - the master dashboard: a sidebar link on the operator's host (localhost here, run.mjs sets
//   OPERATOR_HOST), an explanation elsewhere, and Settings' operator credential.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminToken, api, BASE } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { expectText, expectToast } from './support/expect.mjs';
import { expectNoSideScroll, PHONE, shot } from './support/screen.mjs';

const OP_BASE = BASE.replace('127.0.0.1', 'localhost');
const stamp = Date.now().toString(36);
// The longest allowed name, without a space to break at.
const long = (prefix) => `${prefix}${stamp}`.padEnd(100, 'W');
const NAME_TOO_LONG = 'The name may not be longer than 100 characters.';

const suite = browserForFile();
let token;
let campaignId;
let rotatorId;
const names = {
  campaign: long('Campaign'),
  folder: long('Folder'),
  landing: long('Landing'),
  offer: long('Offer'),
  path: long('Path'),
  rotator: long('Rotator'),
};
const user = {
  username: `u${stamp}`.padEnd(60, 'x'),
  email: `${`mail${stamp}`.padEnd(90, 'm')}@example.com`,
};

async function created(path, body, key) {
  const res = await api(path, { token, body });
  assert.equal(res.status, 201, `${path}: ${JSON.stringify(res.body)}`);
  return key(res.body.data);
}

suite.setUp(async () => {
  token = await adminToken();
  campaignId = await created(
    '/api/add-campaign',
    { name: names.campaign, campaignType: 'multiple_path_type', cpc: '0.40' },
    (d) => d.campaign.campaignData.campaignId,
  );
  rotatorId = await created(
    '/api/add-campaign',
    { name: names.rotator, campaignType: 'rotator' },
    (d) => d.campaign.campaignData.campaignId,
  );
  assert.ok(rotatorId > 0);
  await created('/api/add-campaign-folder', { name: names.folder }, (d) => d);
  const pathId = await created(
    '/api/add-path',
    { campaignId, name: names.path },
    (d) => d.pathId ?? d.path?.pathId,
  );
  await created(
    '/api/add-landing',
    { campaignId, pathId, name: names.landing, url: 'https://lp.example/a' },
    (d) => d,
  );
  await created(
    '/api/add-offer',
    { campaignId, pathId, name: names.offer, url: 'https://offer.example/o', payout: '5' },
    (d) => d,
  );
  const reg = await api('/api/registeruser', {
    token,
    body: { ...user, password: 'Pass-word-123', password_confirmation: 'Pass-word-123', role: 'student' },
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
});

async function signedIn(base = BASE, viewport = { width: 1366, height: 840 }) {
  const { context, page } = await signedInPage(suite.browser, { base, landing: null, viewport });
  return { context, page };
}

/** The screen at 1366 (picture, axe) and 390 px (picture, axe, no sideways scroll). */
async function bothWidths(page, name) {
  await shot(page, name);
  await page.setViewportSize(PHONE);
  try {
    await expectNoSideScroll(page);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(widths[0] <= widths[1], `${name}: ${widths[0]} px wide at ${widths[1]}`);
  } finally {
    await page.setViewportSize({ width: 1366, height: 840 });
  }
}

/** A call of this installation's master-dashboard API as the operator's service makes it. */
const asOperator = (credential) =>
  fetch(new URL('/api/masterdashboard/campaigns', BASE), {
    headers: {
      authorization: `Bearer ${credential}`,
      'x-master-dashboard': 'edge-tracker-operator',
      accept: 'application/json',
    },
  });

test('a name over 100 characters is refused with the message', async () => {
  const res = await api('/api/add-campaign', { token, body: { name: `${names.campaign}X` } });
  assert.equal(res.status, 422);
  assert.equal(res.body.message, NAME_TOO_LONG);
  const folder = await api('/api/add-campaign-folder', { token, body: { name: `${names.folder}X` } });
  assert.equal(folder.status, 422);
  assert.equal(folder.body.message, NAME_TOO_LONG);
});

test('the longest names wrap or truncate on every screen, at 1366 and 390 px', {
  timeout: 180_000,
}, async () => {
  const { context, page } = await signedIn();

  // After the other browser tests the list holds many campaigns: newest first, all on one page.
  await page.evaluate(() => {
    localStorage.setItem('tablePageLength', '100');
    localStorage.setItem('campaignSortBy', '-campaignId');
  });
  await page.goto(`${BASE}/campaigns`);
  await page.getByText(names.campaign, { exact: true }).first().waitFor();
  await page.getByText(names.folder, { exact: true }).first().waitFor();
  // Truncated in the table, the full name in its title.
  assert.equal(
    await page.locator(`[data-testid="open-${campaignId}"]`).getAttribute('title'),
    names.campaign,
  );
  await bothWidths(page, 'long-names-campaigns');

  await page.goto(`${BASE}/basic-info/${campaignId}`);
  await expectText(page.locator('[data-testid="campaign-title"]'), names.campaign);
  assert.equal(await page.locator('#basic-name').getAttribute('maxlength'), '100');
  await bothWidths(page, 'long-names-editor-basic');
  for (const [tab, name] of [
    ['paths', names.path],
    ['landing', names.landing],
    ['offer', names.offer],
  ]) {
    await page.locator(`[data-testid="tab-${tab}"]`).click();
    await page.getByText(name, { exact: true }).first().waitFor();
    await bothWidths(page, `long-names-editor-${tab}`);
  }

  await page.goto(`${BASE}/stats/${campaignId}`);
  await page.getByText(names.campaign).first().waitFor();
  await bothWidths(page, 'long-names-stats');

  await page.goto(`${BASE}/dashboard`);
  await page.getByRole('heading', { name: 'Dashboard' }).first().waitFor();
  await bothWidths(page, 'long-names-dashboard');

  await page.goto(`${BASE}/funding`);
  await page.getByRole('heading', { name: 'Funding' }).first().waitFor();
  await bothWidths(page, 'long-names-funding');

  await page.goto(`${BASE}/registeruser`);
  await page.getByText(user.username, { exact: true }).first().waitFor();
  await bothWidths(page, 'long-names-users');
  await context.close();
});

test('editor tabs: Options and Banners at once, no Landing pages tab for a direct link', {
  timeout: 90_000,
}, async () => {
  const { context, page } = await signedIn();
  await page.goto(`${BASE}/basic-info`);
  await page.locator('#basic-name').fill(`Options ${stamp}`);
  // The form's default type is a direct link: no Landing pages tab.
  assert.equal(await page.locator('#basic-campaignType').inputValue(), 'direct_link');
  assert.equal(await page.locator('[data-testid="tab-landing"]').count(), 0);
  await page.locator('#basic-campaignType').selectOption('multiple_option_type');
  await page.locator('#basic-trafficSource').selectOption('blaze');
  // Both tabs the moment the form says so.
  assert.equal(await page.locator('[data-testid="tab-options"]').count(), 1);
  assert.equal(await page.locator('[data-testid="tab-banners"]').count(), 1);
  assert.equal(await page.locator('[data-testid="tab-landing"]').count(), 1);
  await page.locator('[data-testid="campaign-save"]').click();
  await expectToast(page, 'Campaign Added Successfully.');
  await page.waitForURL(/\/basic-info\/\d+$/);
  // Right after creating, without a reload.
  assert.equal(await page.locator('[data-testid="tab-options"]').count(), 1, 'Options tab after creating');
  assert.equal(await page.locator('[data-testid="tab-banners"]').count(), 1, 'Banners tab after creating');
  await page.locator('[data-testid="tab-options"]').click();
  await page.locator('[data-testid="tab-options"][aria-selected="true"]').waitFor();
  await bothWidths(page, 'tabs-options-after-create');
  // Still there once the campaign's detail has been fetched again.
  await page.locator('[data-testid="tab-banners"]').click();
  await page.locator('[data-testid="tab-banners"][aria-selected="true"]').waitFor();

  // A direct-link campaign, opened from the server: no Landing pages tab.
  const direct = await created(
    '/api/add-campaign',
    { name: `Direct ${stamp}`, campaignType: 'direct_link' },
    (d) => d.campaign.campaignData.campaignId,
  );
  await page.goto(`${BASE}/basic-info/${direct}`);
  await page.locator('[data-testid="tab-offer"]').waitFor();
  assert.equal(await page.locator('[data-testid="tab-landing"]').count(), 0);
  await page.goto(`${BASE}/basic-info/${direct}?tab=landing`);
  await page.locator('[data-testid="tab-basic"][aria-selected="true"]').waitFor();
  await bothWidths(page, 'tabs-direct-link');
  await context.close();
});

test('master dashboard: explained off the operator host, a credential made in Settings', {
  timeout: 90_000,
}, async () => {
  const { context, page } = await signedIn();
  // This host is a student installation: no sidebar link, and the screen says why.
  await page.goto(`${BASE}/dashboard`);
  await page.getByRole('link', { name: 'Dashboard' }).first().waitFor();
  assert.equal(await page.getByRole('link', { name: 'Master dashboard' }).count(), 0);
  await page.goto(`${BASE}/master-dashboard`);
  await expectText(
    page.getByRole('heading', { name: 'The master dashboard is not on this installation' }),
    'The master dashboard is not on this installation',
  );
  assert.equal(new URL(page.url()).pathname, '/master-dashboard');
  await page.locator('[data-testid="md-not-here"]').waitFor();
  await bothWidths(page, 'master-dashboard-not-here');

  await page.getByRole('link', { name: 'Make an operator credential' }).click();
  await page.locator('#operator-credential').waitFor();
  const before = (await api('/api/masterdashboard-credentials', { token })).body.data.credentials.filter(
    (c) => c.revoked_at === null,
  ).length;
  await page.locator('#operator-credential-label').fill(`coach ${stamp}`);
  await page.locator('[data-testid="operator-credential-create"]').click();
  await expectToast(page, 'Credential created. Copy it now: it is shown only once.');
  const credential = await page.locator('#operator-credential-value').inputValue();
  assert.match(credential, /^mdk_[A-Za-z0-9_-]{43}$/);
  // The credential opens this installation's master-dashboard API.
  assert.notEqual((await asOperator(credential)).status, 401);
  const listed = (await api('/api/masterdashboard-credentials', { token })).body.data.credentials;
  assert.equal(listed.filter((c) => c.revoked_at === null).length, before + 1);
  const row = page.locator('[data-testid="operator-credential-row"]', { hasText: `coach ${stamp}` });
  await row.waitFor();
  await page.locator('#operator-credential').scrollIntoViewIfNeeded();
  await bothWidths(page, 'settings-operator-credential');
  // Rotating ends with revoking the old one.
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('button', { name: 'Revoke' }).last().click();
  await expectToast(page, 'Credential revoked.');
  await row.waitFor({ state: 'detached' });
  assert.equal((await asOperator(credential)).status, 401);
  await context.close();
});

test('master dashboard: a sidebar link on the operator host', { timeout: 60_000 }, async () => {
  for (const viewport of [{ width: 1366, height: 840 }, PHONE]) {
    const { context, page } = await signedIn(OP_BASE, viewport);
    await page.goto(`${OP_BASE}/dashboard`);
    const link = page.getByRole('link', { name: 'Master dashboard' });
    await link.waitFor({ state: 'attached' });
    if (!(await link.isVisible())) await page.getByRole('button', { name: 'Expand menu' }).click();
    await link.click();
    await page.waitForURL((u) => u.pathname === '/master-dashboard');
    await page.getByRole('heading', { name: 'Master dashboard' }).first().waitFor();
    await expectNoSideScroll(page);
    await context.close();
  }
});
