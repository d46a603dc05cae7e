// The operator's master dashboard in Chromium. This server is a student installation on
// http://127.0.0.1:<port> and the operator on http://localhost:<port> (run.mjs sets
// OPERATOR_HOST=localhost). The operator registers itself as "Student One" and a closed port as
// "Student Offline"; a campaign gets real tracked visits, LP clicks and postbacks; both modes,
// the graph modal and an add-data correction must show the numbers the traffic produced.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { adminToken, api, BASE, newCampaign } from './support/api.mjs';
import { browserForFile, openPage, signedInPage } from './support/browser.mjs';
import { expectPath, expectText, expectToast } from './support/expect.mjs';
import { shot } from './support/screen.mjs';
import { navigate, postback, trackingLinks } from './support/tracking.mjs';

const OP_BASE = BASE.replace('127.0.0.1', 'localhost');
const money = (n) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
const pct = (n) => `${n.toFixed(2)}%`;

const suite = browserForFile();
let token;
let credential;
let campaignId;
let today;
let start;
let offlineDomain;
/** The installation's own report over the screen's default range (past 7 days). */
let truth;

async function op(path, body, method) {
  const res = await fetch(new URL(`/api/operator/${path}`, OP_BASE), {
    method: method ?? (body ? 'POST' : 'GET'),
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

function closedPort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const addDays = (day, n) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

suite.setUp(async () => {
  token = await adminToken();
  today = (await api('/api/stats-today', { token })).body.data.today;
  start = addDays(today, -6);

  campaignId = await newCampaign(token, { name: 'MD campaign', campaignType: 'landing_page', cpc: '0.50' });
  for (const [path, body] of [
    ['/api/add-landing', { campaignId, name: 'MD landing', url: 'https://lp.example/md' }],
    ['/api/add-offer', { campaignId, name: 'MD offer', url: 'https://offer.example/md', payout: '25' }],
  ]) {
    const res = await api(path, { token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  // The postback URL the product shows carries the campaign's postback secret.
  const { campaignUrl, clickUrl, secret } = await trackingLinks(token, campaignId);
  // 8 visits at CPC $0.50 ($4 spend), 4 LP clicks, 2 postbacks at the offer's $25 ($50 revenue).
  for (let i = 0; i < 8; i++) {
    const clickId = (await navigate(`${campaignUrl}md-${i}`)).searchParams.get('clickid');
    if (i >= 4) continue;
    await navigate(`${clickUrl}?clickid=${clickId}`);
    if (i >= 2) continue;
    await postback(clickId, secret);
  }

  credential = (await api('/api/masterdashboard-credentials', { token, body: { label: 'operator' } })).body
    .data.credential;
  offlineDomain = `http://127.0.0.1:${await closedPort()}`;
  for (const [name, domain, cred] of [
    ['Student One', BASE, credential],
    ['Student Offline', offlineDomain, 'mdk_offline'],
  ]) {
    const res = await op('installations', { name, domain, server: 'local', credential: cred });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }

  // The ingest queue writes the rollups a moment later: wait for the campaign's numbers.
  const report = async () => {
    const res = await fetch(
      new URL(
        `/api/masterdashboard/campaign-total?campaign_id=${campaignId}&start_date=${start}&end_date=${today}`,
        BASE,
      ),
      {
        headers: { authorization: `Bearer ${credential}`, 'X-Master-Dashboard': 'edge-tracker-operator' },
      },
    );
    return (await res.json()).data.total;
  };
  for (let i = 0; ; i++) {
    const t = await report();
    if (t.visits === 8 && t.conversions === 2 && t.lp_clicks === 4) break;
    assert.ok(i < 100, `the campaign's numbers did not arrive: ${JSON.stringify(t)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.deepEqual(
    { ...(await report()) },
    {
      ad_spend: 4,
      revenue: 50,
      conversions: 2,
      cpa: 2,
      ad_clicks: 0,
      net_profit: 46,
      landing_page_ctr: 50,
      ad_ctr: 0,
      roi: 1150,
      visits: 8,
      lp_clicks: 4,
      impressions: 0,
    },
  );
  // Every campaign of this installation (earlier browser tests add their own) is Student One's total.
  const all = await fetch(
    new URL(`/api/masterdashboard/reports?start_date=${start}&end_date=${today}`, BASE),
    {
      headers: { authorization: `Bearer ${credential}`, 'X-Master-Dashboard': 'edge-tracker-operator' },
    },
  );
  truth = (await all.json()).data.total;
  const refreshed = await op('update-student-data', { domain: BASE, start_date: start, end_date: today });
  assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
  const offline = await op('update-student-data', {
    domain: offlineDomain,
    start_date: start,
    end_date: today,
  });
  assert.equal(offline.status, 502);
});

async function signedIn(viewport) {
  const { context, page } = await signedInPage(suite.browser, { base: OP_BASE, landing: null, viewport });
  await page.goto(`${OP_BASE}/master-dashboard`);
  await page.getByRole('heading', { name: 'Master dashboard' }).waitFor();
  return { context, page };
}

test('on any host but the operator’s, /master-dashboard says what it is and where it lives', async () => {
  const res = await fetch(`${BASE}/master-dashboard`, { redirect: 'manual' });
  assert.equal(res.status, 200);
  const { context, page } = await openPage(suite.browser);
  await page.goto(`${BASE}/master-dashboard`);
  // Not signed in on this origin: the sign-in comes first.
  await expectPath(page, '/login');
  await context.close();
});

test('detailed mode: select students, their totals, and the one that did not answer', async () => {
  const { context, page } = await signedIn({ width: 1366, height: 900 });
  await page.getByRole('button', { name: 'Show students' }).click();
  await expectToast(page, 'Please select at least one student!');
  await page.getByText('No students selected').first().waitFor();

  const picker = page.getByRole('button', { name: /Students/ });
  await picker.click();
  const panel = page.getByTestId('student-panel');
  await panel.getByPlaceholder('Search student...').fill('offline');
  assert.deepEqual(await panel.locator('.md-select-name').allTextContents(), ['Student Offline']);
  await panel.getByPlaceholder('Search student...').fill('');
  await panel.getByRole('button', { name: 'Tick all' }).click();
  await expectText(picker.locator('span').first(), '2 students selected');
  await shot(page, 'master-dashboard-select-1366');
  await page.getByRole('button', { name: 'Show students' }).click();

  const row = page.locator('[data-testid="detailed-table"] tr[data-student="Student One"]');
  await expectText(row.locator('[data-col="ad_spend"]'), money(truth.ad_spend));
  await expectText(row.locator('[data-col="revenue"]'), money(truth.revenue));
  await expectText(row.locator('[data-col="roi"]'), pct(truth.roi));
  await expectText(row.locator('[data-col="net_profit"]'), money(truth.net_profit));
  assert.equal(await page.locator('[data-testid="detailed-table"] tbody tr').count(), 1);
  const alert = page.getByRole('alert').filter({ hasText: 'Not answering' });
  assert.match(await alert.textContent(), /Student Offline \(127\.0\.0\.1:\d+\)/);

  // Tick none empties the selection; Undo all brings back the one last shown.
  await panel.getByRole('button', { name: 'Tick none' }).click();
  await expectText(picker.locator('span').first(), 'No students selected');
  await panel.getByRole('button', { name: 'Undo all' }).click();
  await expectText(picker.locator('span').first(), '2 students selected');
  await picker.click();
  await shot(page, 'master-dashboard-detailed-1366');
  await context.close();
});

test('the graph modal and an add-data correction', async () => {
  const { context, page } = await signedIn({ width: 1366, height: 900 });
  await page.getByRole('button', { name: /Students/ }).click();
  await page
    .getByTestId('student-panel')
    .getByRole('checkbox', { name: /^Student One/ })
    .check();
  await page.getByRole('button', { name: /Students/ }).click();
  await page.getByRole('button', { name: 'Show students' }).click();
  await page.locator('tr[data-student="Student One"]').getByRole('button', { name: 'View Graph' }).click();

  const modal = page.locator('dialog[open]');
  await modal.getByLabel('Campaign').selectOption({ label: 'MD campaign' });
  const totals = modal.getByTestId('graph-totals');
  await expectText(totals.locator('[data-total="ad_spend"] .kpi-value'), '$4.00');
  await expectText(totals.locator('[data-total="revenue"] .kpi-value'), '$50.00');
  await expectText(totals.locator('[data-total="net_profit"] .kpi-value'), '$46.00');
  await expectText(totals.locator('[data-total="roi"] .kpi-value'), '1150.00%');
  assert.equal(await modal.locator('[data-metric="ad_spent"]').getAttribute('aria-selected'), 'true');
  assert.deepEqual(await modal.getByRole('tab').allTextContents(), [
    'Ad spend',
    'Revenue',
    'Net profit',
    'ROI',
    'CPC',
    'CPA',
    'CPLPC',
    'EPC',
    'Ad CTR',
  ]);
  await modal.getByTestId('md-graph').waitFor();
  await modal.getByRole('tab', { name: 'ROI' }).click();
  assert.equal(await modal.locator('[data-metric="roi"]').getAttribute('aria-selected'), 'true');
  await shot(page, 'master-dashboard-graph-1366');

  // Add data: today's ad spend set to $10 on the student's installation.
  await modal.getByRole('button', { name: 'Add data' }).click();
  const add = page.locator('dialog[open]').filter({ hasText: 'Add data for Student One' });
  await add.getByLabel('Metric').selectOption('ad_spend');
  await add.getByLabel('Date').fill(today);
  await add.getByLabel('Ad spend', { exact: true }).fill('abc');
  await add.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Amounts must be numbers of at least 0 with up to 6 decimals.');
  await add.getByLabel('Ad spend', { exact: true }).fill('10');
  await shot(page, 'master-dashboard-add-data-1366');
  await add.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Data updated.');
  await expectText(totals.locator('[data-total="ad_spend"] .kpi-value'), '$10.00');
  await expectText(totals.locator('[data-total="net_profit"] .kpi-value'), '$40.00');

  // The correction is a row of its own on the student's installation, by the signed-in operator.
  const listed = await fetch(
    new URL(
      `/api/masterdashboard/corrections?campaign_id=${campaignId}&start_date=${today}&end_date=${today}`,
      BASE,
    ),
    { headers: { authorization: `Bearer ${credential}`, 'X-Master-Dashboard': 'edge-tracker-operator' } },
  ).then((r) => r.json());
  assert.deepEqual(
    listed.data.corrections.map((c) => [c.verb, c.field, c.value, c.source, c.created_by, c.reverted_at]),
    [['modify-adspend', 'spend', 10_000_000, 'operator', 'operator:owner', null]],
  );
  await context.close();
});

test('general mode from the cache, and both modes at 390 px', async () => {
  const { context, page } = await signedIn({ width: 1366, height: 900 });
  await page.getByRole('tab', { name: 'General' }).click();
  const row = page.locator('[data-testid="general-table"] tr[data-student="Student One"]');
  await expectText(row.locator('.md-domain'), BASE.replace('http://', ''));
  // The cache was refreshed before the correction: the numbers the traffic produced.
  await expectText(row.locator('[data-col="ad_spend"]'), money(truth.ad_spend));
  await expectText(row.locator('[data-col="revenue"]'), money(truth.revenue));
  await expectText(row.locator('[data-col="roi"]'), pct(truth.roi));
  await expectText(row.locator('[data-col="net_profit"]'), money(truth.net_profit));
  const offline = page.locator('[data-testid="general-table"] tr[data-student="Student Offline"]');
  await expectText(offline.locator('[data-col="ad_spend"]'), '$0.00');
  assert.match(await offline.locator('.md-stale').textContent(), /^Not refreshed: /);
  await shot(page, 'master-dashboard-general-1366');
  await context.close();

  const small = await signedIn({ width: 390, height: 844 });
  await small.page.getByRole('tab', { name: 'General' }).click();
  await small.page.locator('[data-testid="general-table"] tr[data-student="Student One"]').waitFor();
  await shot(small.page, 'master-dashboard-general-390');
  await small.page.getByRole('tab', { name: 'Detailed' }).click();
  await small.page.getByRole('button', { name: /Students/ }).click();
  await small.page.getByRole('button', { name: 'Tick all' }).click();
  await small.page.getByRole('button', { name: /Students/ }).click();
  await small.page.getByRole('button', { name: 'Show students' }).click();
  // Student One's report covers every campaign earlier browser tests made: give it time.
  await small.page
    .locator('[data-testid="detailed-table"] tr[data-student="Student One"]')
    .waitFor({ timeout: 25_000 });
  await shot(small.page, 'master-dashboard-detailed-390');
  const overflow = await small.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page overflows by ${overflow} px at 390`);
  await small.context.close();
});

test('the registry: add an installation, then remove it after confirming', async () => {
  const { context, page } = await signedIn({ width: 1366, height: 900 });
  await page.getByRole('button', { name: 'Add installation' }).click();
  const dialog = page.locator('dialog[open]');
  await dialog.getByLabel('Name').fill('Student Temp');
  await dialog.getByLabel('Domain').fill('not a url');
  await dialog.getByLabel('Credential').fill('mdk_temp');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Enter the installation’s address, e.g. https://student.example.com.');
  await dialog.getByLabel('Domain').fill('https://temp.example.com');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Student installation saved.');
  const row = page.locator('tr[data-installation="Student Temp"]');
  await expectText(row.locator('.md-domain'), 'https://temp.example.com');
  await row.getByRole('button', { name: 'Remove Student Temp' }).click();
  await page.locator('dialog[open]').getByRole('button', { name: 'Remove' }).click();
  await expectToast(page, 'Student installation removed.');
  await row.waitFor({ state: 'detached' });
  await context.close();
});
