// Numbers across campaigns and the small things of issue 17 (items 2, 5 and 6 outside the
// statistics screen): three campaigns get real traffic through their tracking links, then the
// campaigns list's metric columns, folder totals, sort, column picker, search across folders and
// filters, and the dashboard's "All campaigns" must show exactly what the traffic produced.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminToken, api, BASE, createUserViaApi, userWithToken } from './support/api.mjs';
import { browserForFile, openPage, signedInPage, uiLogin } from './support/browser.mjs';
import { expectText, expectToast, settled, until } from './support/expect.mjs';
import { PHONE, shot } from './support/screen.mjs';
import { navigate, postback, trackingLinks } from './support/tracking.mjs';

const money = (n) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);

const suite = browserForFile();
let token;
const suffix = Date.now().toString(36);
const ids = {};
/** Per campaign: visits, conversions, revenue and spend (CPC x visits) the traffic produced. */
const truth = {};

async function created(path, body) {
  const res = await api(path, { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data;
}

/** A direct-link campaign with one offer, its CPC and its source. */
async function campaign(key, name, { cpc, payout, trafficSource = '' }) {
  const data = await created('/api/add-campaign', {
    name: `${name} ${suffix}`,
    campaignType: 'direct_link',
    cpc: String(cpc),
    trafficSource,
  });
  const id = data.campaign.campaignData.campaignId;
  await created('/api/add-offer', {
    campaignId: id,
    name: 'Offer',
    url: 'https://offer.example/buy',
    payout: String(payout),
  });
  ids[key] = id;
  truth[key] = { name: `${name} ${suffix}`, visits: 0, conversions: 0, revenue: 0, spend: 0, cpc, payout };
  return id;
}

/** `visits` visits through the campaign link, and a postback for the first `conversions`. */
async function traffic(key, visits, conversions) {
  // The postback URL the product shows carries the campaign's postback secret.
  const { campaignUrl, secret } = await trackingLinks(token, ids[key]);
  for (let i = 0; i < visits; i++) {
    const clickId = (await navigate(campaignUrl)).searchParams.get('clickid');
    assert.ok(clickId);
    truth[key].visits += 1;
    truth[key].spend += truth[key].cpc;
    if (i < conversions) {
      await postback(clickId, secret);
      truth[key].conversions += 1;
      truth[key].revenue += truth[key].payout;
    }
  }
}

suite.setUp(async () => {
  token = await adminToken();
  await campaign('alpha', 'Hearing aid VSL US', { cpc: 0.2, payout: 25, trafficSource: 'taboola' });
  await campaign('beta', 'Hearing aid VSL CA', { cpc: 0.1, payout: 40, trafficSource: 'mediago' });
  await campaign('gamma', 'Solar quiz', { cpc: 0.05, payout: 10, trafficSource: 'taboola' });
  await traffic('alpha', 12, 3);
  await traffic('beta', 5, 1);
  await traffic('gamma', 4, 0);
  // Beta is paused after its traffic (a paused campaign serves no visit).
  const paused = await api('/api/edit-campaign', {
    method: 'PUT',
    token,
    body: {
      campaignId: ids.beta,
      name: truth.beta.name,
      campaignType: 'direct_link',
      cpc: '0.1',
      trafficSource: 'mediago',
      active: 0,
    },
  });
  assert.equal(paused.status, 200, JSON.stringify(paused.body));
  ids.folder = (
    await created('/api/add-campaign-folder', {
      name: `North America ${suffix}`,
      dir: 0,
      moveCampaigns: [ids.alpha, ids.beta],
    })
  ).folder.campaignId;
  ids.canada = (
    await created('/api/add-campaign-folder', {
      name: `Canada ${suffix}`,
      dir: ids.folder,
      moveCampaigns: [ids.beta],
    })
  ).folder.campaignId;
  // The events reach D1 through the ingest queue.
  await until(
    async () => {
      const res = await api('/api/campaign-metrics', { token });
      const rows = res.body?.data?.rows ?? [];
      const v = (id) => rows.find((r) => r.campaignId === id)?.metrics.visits;
      return (
        v(ids.alpha) === 12 &&
        v(ids.beta) === 5 &&
        v(ids.gamma) === 4 &&
        rows.find((r) => r.campaignId === ids.beta).metrics.conversions === 1
      );
    },
    'the traffic did not reach the rollups',
    { timeout: 30_000, every: 300 },
  );
});

async function signedIn(options) {
  const { page } = await signedInPage(suite.browser, { landing: null, ...options });
  return page;
}

const cell = (page, id, metric) => page.locator(`[data-testid="row-${id}"] td[data-metric="${metric}"]`);

test("the campaigns list shows today's numbers per campaign and folder, with totals", async () => {
  const page = await signedIn();
  // Other test files' campaigns and folders share the installation: 100 rows a page, newest first,
  // keep ours on the first page however many ran before.
  await page.evaluate(() => {
    localStorage.setItem('tablePageLength', '100');
    localStorage.setItem('campaignSortBy', '-campaignId');
  });
  await page.goto(`${BASE}/campaigns`);
  const a = truth.alpha;
  const b = truth.beta;
  const g = truth.gamma;
  // Top level: the folder (alpha and, through Canada, beta) and gamma.
  await expectText(cell(page, ids.folder, 'visits'), String(a.visits + b.visits));
  await expectText(cell(page, ids.folder, 'revenue'), money(a.revenue + b.revenue));
  await expectText(cell(page, ids.gamma, 'visits'), '4');
  await expectText(cell(page, ids.gamma, 'profit'), money(-g.spend));
  // Totals: every campaign of the installation today (other test files' campaigns too), so
  // compared with the server's own totals and, for ours, with the traffic.
  const all = (await api('/api/campaign-metrics', { token })).body.data;
  const totals = page.locator('[data-testid="list-totals"]');
  await expectText(totals.locator('td[data-metric="visits"]'), all.totals.visits.toLocaleString('en-US'));
  await expectText(totals.locator('td[data-metric="revenue"]'), money(all.totals.revenue));
  assert.ok(all.totals.visits >= a.visits + b.visits + g.visits);
  await shot(page, '22-campaigns-metrics');

  // Into the folder: alpha's own numbers, Canada's (beta's), and the folder's totals.
  await page.getByTestId(`open-${ids.folder}`).click();
  await expectText(cell(page, ids.alpha, 'visits'), '12');
  await expectText(cell(page, ids.alpha, 'conversions'), '3');
  await expectText(cell(page, ids.alpha, 'revenue'), money(a.revenue));
  await expectText(cell(page, ids.alpha, 'roi'), `${(((a.revenue - a.spend) / a.spend) * 100).toFixed(2)}%`);
  await expectText(cell(page, ids.canada, 'visits'), '5');
  await expectText(totals.locator('td[data-metric="visits"]'), '17');
  await expectText(
    totals.locator('td[data-metric="profit"]'),
    money(a.revenue + b.revenue - a.spend - b.spend),
  );

  // Sort by visits: the biggest first (folders first, then campaigns).
  await page.getByTestId('sort-visits').click();
  await expectText(page.locator('tbody tr.is-campaign').first().locator('td[data-metric="visits"]'), '12');
  await page.getByTestId('sort-visits').click();
  assert.equal(await page.getByTestId('sort-visits').locator('..').getAttribute('aria-sort'), 'ascending');

  // The column picker adds EPC and CR, and the choice is remembered.
  await page.getByTestId('column-picker').click();
  await page.getByTestId('column-epc').check();
  await page.getByTestId('column-cr').check();
  await page.getByTestId('column-spend').check();
  await page.getByTestId('column-roi').uncheck();
  await page.keyboard.press('Escape');
  await expectText(cell(page, ids.alpha, 'epc'), money(a.revenue / a.visits));
  await expectText(cell(page, ids.alpha, 'cr'), `${((3 / 12) * 100).toFixed(2)}%`);
  await expectText(cell(page, ids.alpha, 'spend'), money(a.spend));
  assert.equal(await cell(page, ids.alpha, 'roi').count(), 0);
  await page.reload();
  await expectText(cell(page, ids.alpha, 'epc'), money(a.revenue / a.visits));
  await page.close();
});

test("search looks in every folder and shows each hit's folder; filters by type, source, status", async () => {
  const page = await signedIn();
  await page.goto(`${BASE}/campaigns`);
  await page.getByTestId('campaign-search').fill(`hearing aid vsl`);
  // Both hits, from two folders deep, each with its folder path.
  await expectText(page.getByTestId(`hit-folder-${ids.alpha}`), `North America ${suffix}`);
  await expectText(page.getByTestId(`hit-folder-${ids.beta}`), `North America ${suffix} / Canada ${suffix}`);
  await expectText(cell(page, ids.beta, 'visits'), '5');
  await shot(page, '22-campaigns-search');
  // The folder link opens the hit's folder.
  await page.getByTestId(`hit-folder-${ids.beta}`).click();
  await page.waitForURL((u) => u.searchParams.get('dir') === String(ids.canada));
  await page.getByTestId(`open-${ids.beta}`).waitFor();

  await page.getByTestId('crumb-0').click();
  await page.getByTestId('filter-source').selectOption('taboola');
  await page.getByTestId('campaign-search').fill(suffix);
  await page.getByTestId(`row-${ids.gamma}`).waitFor();
  await page.getByTestId(`row-${ids.alpha}`).waitFor();
  assert.equal(await page.getByTestId(`row-${ids.beta}`).count(), 0);
  await page.getByTestId('filter-status').selectOption('paused');
  await page.getByTestId('filter-source').selectOption('');
  await page.getByTestId(`row-${ids.beta}`).waitFor();
  assert.equal(await page.locator('tbody tr.is-campaign').count(), 1);
  await page.getByTestId('filter-type').selectOption('rotator');
  await page.getByText('No campaigns match').first().waitFor();
  await page.close();
});

test('the dashboard opens on all campaigns, sums every campaign, and says where ad clicks come from', async () => {
  const page = await signedIn();
  await page.goto(`${BASE}/dashboard`);
  assert.equal(await page.locator('#dash-campaign').inputValue(), 'all');
  // Every campaign of the installation today, ours among them: the sum of the per-campaign reports.
  const all = (await api('/api/campaign-metrics', { token })).body.data;
  const campaigns = all.rows.filter((r) => r.is_dir === 0);
  let visits = 0;
  let revenueCents = 0;
  let spendCents = 0;
  let conversions = 0;
  let adClicks = 0;
  for (const c of campaigns) {
    const q = (
      await api('/api/quick-stats-v2', {
        token,
        body: { campaignId: c.campaignId, start_date: all.start, end_date: all.end },
      })
    ).body.data;
    for (const v of q.visitors) {
      visits += v.visitors;
      revenueCents += Math.round(v.revenue * 100);
    }
    for (const r of q.liveintent.reports) {
      spendCents += Math.round(r.advertiserSpent * 100);
      adClicks += r.clicks;
    }
    for (const k of q.conversions) conversions += k.conversions;
  }
  const ours = truth.alpha.visits + truth.beta.visits + truth.gamma.visits;
  assert.ok(visits >= ours);
  const total = (key) => page.locator(`[data-total="${key}"] .total-value`);
  await expectText(total('visitors'), visits.toLocaleString('en-US'));
  await expectText(total('conversions'), String(conversions));
  await expectText(total('revenue'), money(revenueCents / 100));
  await expectText(total('ad_spend'), money(spendCents / 100));
  await page.locator('[data-testid="bar-chart"] .visx-bar').first().waitFor();
  // Clicks come only from imported ad data (other test files import some, e.g. 19's force sync):
  // the sum of what was imported, 0 without it, and the hint says why.
  await expectText(total('clicks'), adClicks.toLocaleString('en-US'));
  const hint = page.getByRole('button', { name: 'Why Ad clicks may be 0' });
  await hint.focus();
  const tip = page.locator('#hint-clicks');
  await tip.waitFor({ state: 'visible' });
  assert.match(await tip.textContent(), /shows 0 until ad data is imported/);
  await page.getByRole('button', { name: 'Why Ad CTR may be 0' }).waitFor();
  await shot(page, '22-dashboard-all');
  // One campaign still works, and the choice is remembered.
  await page.locator('#dash-campaign').selectOption(String(ids.alpha));
  await expectText(total('visitors'), '12');
  await expectText(total('revenue'), money(truth.alpha.revenue));
  await page.reload();
  await expectText(total('visitors'), '12');
  await page.locator('#dash-campaign').selectOption('all');
  await expectText(total('visitors'), visits.toLocaleString('en-US'));
  assert.deepEqual(page.pageErrors, []);
});

test('/register says registration is closed before asking for anything', async () => {
  const { page } = await openPage(suite.browser);
  await page.goto(`${BASE}/register`);
  await expectText(page.locator('h1'), 'Registration is closed');
  await expectText(
    page.getByTestId('registration-closed'),
    'Registration is closed on this installation. Ask an administrator to create an account for you.',
  );
  assert.equal(await page.locator('input').count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Create account' }).count(), 0);
  await shot(page, '22-register-closed');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/login');
});

test('toasts: the same message is one toast, and a success replaces the error before it', async () => {
  const page = await signedIn();
  const student = await createUserViaApi('student');
  const other = await createUserViaApi('student');
  await page.goto(`${BASE}/registeruser`);
  await page.getByTestId(`user-row-${student.username}`).waitFor();
  // The same failure twice (a login link for a user deleted meanwhile): one toast, not two.
  await api(`/api/users/${student.id}`, { method: 'DELETE', token });
  const copy = page.getByRole('button', { name: `Copy login link for ${student.username}` });
  await copy.click();
  await expectToast(page, 'User not found.');
  // The second answer, then the screen settled: one error toast (toasts last 6 s, so both would show).
  const second = page.waitForResponse((r) => r.url().includes('/api/auth/login-token'));
  await copy.click();
  await second;
  await settled(page);
  assert.equal(await page.locator('[data-sonner-toast][data-type="error"]').count(), 1);
  // A success that follows removes the error.
  await page.getByTestId(`status-${other.username}`).click();
  await expectToast(page, 'User disabled. They can no longer sign in.');
  // At once, not when the error's 6 s run out.
  await until(
    async () => (await page.locator('[data-sonner-toast][data-type="error"]').count()) === 0,
    'the error stayed',
    { timeout: 2000, every: 100 },
  );
});

test('an admin disables, enables and deletes a user; a disabled user is signed out and cannot sign in', async () => {
  const page = await signedIn();
  const student = await userWithToken('student');
  const kept = await created('/api/add-campaign', { name: `Kept after delete ${suffix}` });
  void kept;
  await page.goto(`${BASE}/registeruser`);
  const row = page.getByTestId(`user-row-${student.username}`);
  await row.getByTestId(`status-${student.username}`).click();
  await expectToast(page, 'User disabled. They can no longer sign in.');
  await expectText(row.locator('.badge', { hasText: 'Disabled' }), 'Disabled');
  assert.equal((await api('/api/user', { token: student.token })).status, 401);
  const refused = await api('/api/auth/login', {
    body: { username: student.username, password: student.password, loginToken: '', hash: '' },
  });
  assert.equal(refused.status, 403);
  // In the browser: the sign-in form says why.
  const { page: other } = await openPage(suite.browser);
  await other.goto(`${BASE}/login`);
  await uiLogin(other, student.username, student.password);
  await other.getByText('This account is disabled. Ask an administrator to enable it.').first().waitFor();
  await shot(page, '22-users');
  await row.getByTestId(`status-${student.username}`).click();
  await expectToast(page, 'User enabled. They can sign in again.');

  // Delete asks first; Cancel keeps the user.
  await row.getByTestId(`delete-${student.username}`).click();
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expectText(dialog.locator('h2').first(), `Delete ${student.username}?`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(
    (await api('/api/users', { token })).body.data.result.some((u) => u.id === student.id),
    true,
  );
  await row.getByTestId(`delete-${student.username}`).click();
  await dialog.getByRole('button', { name: 'Delete user' }).click();
  await expectToast(page, 'User deleted.');
  await row.waitFor({ state: 'detached' });
  assert.equal(
    (await api('/api/users', { token })).body.data.result.some((u) => u.id === student.id),
    false,
  );
});

/** Whether the element is wholly inside the 390 x 844 window as it is scrolled now. */
async function inView(locator) {
  await locator.waitFor({ state: 'visible' });
  const box = await locator.boundingBox();
  return (
    Boolean(box) && box.x >= 0 && box.y >= 0 && box.x + box.width <= 390.5 && box.y + box.height <= 844.5
  );
}

test('at 390 x 844 each screen shows its primary action, and long forms keep Save on screen', async () => {
  const page = await signedIn({ viewport: PHONE });
  const screens = [
    { path: '/campaigns', primary: page.getByTestId('new-campaign') },
    { path: '/dashboard', primary: page.locator('#dash-campaign') },
    { path: '/basic-info', primary: page.getByTestId('campaign-save') },
    { path: `/basic-info/${ids.alpha}`, primary: page.getByTestId('campaign-save'), form: 'Save changes' },
    { path: '/setting', primary: page.getByRole('button', { name: 'Save settings' }), form: 'Save settings' },
    { path: '/registeruser', primary: page.getByRole('button', { name: 'New user' }) },
    { path: '/tools', primary: page.locator('.btn-primary').first() },
    // An admin's own wallets take no update (decision 124): the first action is picking whose.
    { path: '/funding', primary: page.locator('#balance-user') },
  ];
  const problems = [];
  for (const s of screens) {
    await page.goto(`${BASE}${s.path}`);
    if (!(await inView(s.primary))) problems.push(`${s.path}: the primary action is off screen on arrival`);
    if (s.form) {
      // Half-way down the form and at its end, its Save button is still on screen.
      for (const where of [0.5, 1]) {
        await page.evaluate(
          ({ name, f }) => {
            const button = [...document.querySelectorAll('form button[type="submit"]')].find(
              (b) => b.textContent.trim() === name,
            );
            const rect = button.closest('form').getBoundingClientRect();
            const top = window.scrollY + rect.top + rect.height * f - window.innerHeight;
            window.scrollTo(0, Math.max(0, top));
          },
          { name: s.form, f: where },
        );
        await settled(page);
        const save = page.locator('form button[type="submit"]', { hasText: s.form });
        if (!(await inView(save)))
          problems.push(`${s.path}: '${s.form}' is off screen at ${where * 100}% scroll`);
      }
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) problems.push(`${s.path}: the page is ${width} px wide`);
  }
  assert.deepEqual(problems, []);
  // The editor at the bottom of its form, with the save bar kept in view.
  await page.goto(`${BASE}/basic-info/${ids.alpha}`);
  await page.getByRole('button', { name: 'Save changes' }).waitFor();
  await page.setViewportSize({ width: 1366, height: 840 });
  await shot(page, '22-editor-savebar');
});
