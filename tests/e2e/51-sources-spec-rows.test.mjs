// Issue 30 part B, in the browser: the traffic sources spec 3 names (apple-news-feed, cdsp,
// jeeng) on the statistics screen with their number set, sort and metrics; the metainfo fields
// of spec 2 §3 in the editor; the editor's source effects of spec 2 §4 (rotator, liveintent,
// crane, mediago), each asserted on the form and on what was saved; and the CPC display sizes of
// spec 2 §9.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, apiLogin, BASE, createUserViaApi, targetTotals } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { dismissToast, expectToast, until } from './support/expect.mjs';
import { shot } from './support/screen.mjs';
import { emptyTarget } from './support/tracking.mjs';

const suite = browserForFile();
const DESK = { width: 1366, height: 900 };
let user;
let token;
let page;

suite.setUp(async () => {
  user = await createUserViaApi('student');
  token = await apiLogin(user.username, user.password);
  ({ page } = await signedInPage(suite.browser, { user, landing: null, viewport: DESK }));
});

const detail = async (id) => (await api(`/api/campaign?campaignId=${id}`, { token })).body.data;

async function campaign(name, trafficSource, body = {}) {
  const res = await api('/api/add-campaign', { token, body: { name, trafficSource, ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.campaign.campaignData.campaignId;
}

/** Visits to the campaign's link for each target, counted by the ingest before it answers. */
async function visits(id, targets) {
  const offer = await api('/api/add-offer', {
    token,
    body: { campaignId: id, name: 'Offer', url: 'https://offer.example/buy', payout: '10' },
  });
  assert.equal(offer.status, 201, JSON.stringify(offer.body));
  const u = new URL(emptyTarget((await detail(id)).linkpixel.campaignURL));
  const link = new URL(`${u.pathname}${u.search}`, BASE).toString();
  for (const target of targets) {
    const res = await fetch(`${link}${target}`, {
      headers: {
        'user-agent': 'Mozilla/5.0 Chrome/124.0',
        'sec-fetch-mode': 'navigate',
        accept: 'text/html',
      },
      redirect: 'manual',
    });
    await res.arrayBuffer();
    assert.equal(res.status, 302);
  }
  await until(
    async () => (await targetTotals(token, id)).visitsTotal >= targets.length,
    'visits not counted',
    {
      timeout: 30_000,
      every: 500,
    },
  );
}

/** Opens /stats/:id; answers the first statistics request's body and the target table's headers. */
async function openStats(id) {
  const sent = page.waitForRequest(
    (r) => new URL(r.url()).pathname === '/api/statistics' && r.method() === 'POST',
  );
  await page.goto(`${BASE}/stats/${id}`);
  const body = (await sent).postDataJSON();
  const table = page.getByTestId('target-table');
  await table.locator('tbody tr').first().waitFor();
  await until(async () => !(await table.getAttribute('aria-busy')), 'the target table stayed busy');
  const headers = (await table.locator('thead th').allTextContents()).map((t) => t.trim());
  const sorted = (await table.locator('thead th[aria-sort]').allTextContents()).map((t) => t.trim());
  return { body, headers, sorted };
}

const numberSet = (body) => [body.showLiveIntentNumbers, body.showBlazeNumbers, body.showCPCNumbers];
const has = (headers, label) => headers.some((h) => h.startsWith(label));

test('apple-news-feed, cdsp and jeeng campaigns open with their number set, sort and metrics; trrcpc with its CPC numbers', {
  timeout: 180_000,
}, async () => {
  const ids = {};
  for (const source of ['apple-news-feed', 'cdsp', 'jeeng', 'trrcpc']) {
    ids[source] = await campaign(`Stats ${source} ${Date.now().toString(36)}`, source);
    await visits(ids[source], ['feed-a', 'feed-a', 'feed-b']);
  }

  const apple = await openStats(ids['apple-news-feed']);
  assert.deepEqual(numberSet(apple.body), [false, false, false]);
  assert.equal(apple.body.sortKey, 'conversions');
  assert.equal(apple.body.sortOrder, 'desc');
  assert.equal(apple.sorted.length, 1);
  assert.match(apple.sorted[0], /^Purchase Event/);
  assert.equal(
    await page.getByTestId('target-table').locator('thead th[aria-sort]').getAttribute('aria-sort'),
    'descending',
  );
  assert.ok(!has(apple.headers, 'Impressions'), 'no ad numbers without a number set');
  await shot(page, '51-stats-apple-news-feed');

  const cdsp = await openStats(ids.cdsp);
  assert.deepEqual(numberSet(cdsp.body), [false, false, false]);
  assert.equal(cdsp.body.sortKey, 'ctr');
  for (const label of ['LP Clicks', 'LP CTR', 'CPA', 'CR', 'Ad Spend', 'Revenue', 'Net Profit'])
    assert.ok(has(cdsp.headers, label), `cdsp shows ${label}: ${cdsp.headers.join(' | ')}`);
  assert.ok(!has(cdsp.headers, 'LP Event Clicks'), 'cdsp leaves out the LP event metrics');

  const jeeng = await openStats(ids.jeeng);
  assert.deepEqual(numberSet(jeeng.body), [false, false, false]);
  assert.ok(has(jeeng.headers, 'LP Event Clicks'), 'jeeng has the other-promotion metrics');
  assert.ok(!has(jeeng.headers, 'LP Clicks'));

  const cpc = await openStats(ids.trrcpc);
  assert.deepEqual(numberSet(cpc.body), [false, false, true]);
  assert.ok(has(cpc.headers, 'Impressions'), 'the CPC number set shows the ad numbers');
});

// ---- the editor ---------------------------------------------------------------------------

async function newCampaign(name) {
  await page.goto(`${BASE}/basic-info`);
  await page.locator('#basic-name').fill(name);
}

/** Saves the new campaign; answers its id from the URL the editor moves to. */
async function saveNew() {
  await page.locator('[data-testid="campaign-save"]').click();
  await dismissToast(page, 'Campaign Added Successfully.');
  await page.waitForURL(/\/basic-info\/\d+/);
  return Number(new URL(page.url()).pathname.split('/').pop());
}

const value = (field) => page.locator(`#basic-${field}`).inputValue();

test('choosing rotator clears the traffic source, and the campaign is saved without one', async () => {
  await newCampaign(`Rotator effect ${Date.now().toString(36)}`);
  await page.locator('#basic-trafficSource').selectOption('liveintent');
  await page.locator('#basic-campaignType').selectOption('rotator');
  assert.equal(await value('trafficSource'), '');
  assert.ok(await page.locator('#basic-trafficSource').isDisabled());
  const id = await saveNew();
  const saved = await detail(id);
  assert.equal(saved.campaignType, 'rotator');
  assert.equal(saved.trafficSource, '');
});

test('liveintent turns the affiliate-mentorship promotion into other', async () => {
  await newCampaign(`LiveIntent effect ${Date.now().toString(36)}`);
  await page.locator('#basic-offerPromotion').selectOption('affiliate-mentorship');
  await page.locator('#mentorship-note').waitFor();
  await page.locator('#basic-trafficSource').selectOption('liveintent');
  assert.equal(await value('offerPromotion'), 'other');
  assert.equal(await page.locator('#mentorship-note').count(), 0);
  const id = await saveNew();
  const saved = await detail(id);
  assert.equal(saved.trafficSource, 'liveintent');
  assert.equal(saved.offerPromotion, 'other');
});

test('mediago sets the campaign-id token for a new campaign only', async () => {
  await newCampaign(`MediaGo effect ${Date.now().toString(36)}`);
  await page.locator('#basic-trafficSource').selectOption('mediago');
  assert.equal(await value('urlAppendToken'), 'campaign_id');
  // The token is the source's now: a rename no longer rebuilds it from the name.
  await page.locator('#basic-name').fill(`MediaGo renamed ${Date.now().toString(36)}`);
  assert.equal(await value('urlAppendToken'), 'campaign_id');
  const id = await saveNew();
  assert.equal((await detail(id)).urlAppendToken, 'campaign_id');

  // An existing campaign keeps its token: its ads already carry it.
  const existing = await campaign(`MediaGo later ${Date.now().toString(36)}`, '', { urlAppendToken: 'sub1' });
  await page.goto(`${BASE}/basic-info/${existing}`);
  await page.locator('#basic-trafficSource').selectOption('mediago');
  assert.equal(await value('urlAppendToken'), 'sub1');
  await page.locator('[data-testid="campaign-save"]').click();
  await dismissToast(page, 'Campaign Updated Successfully.');
  const saved = await detail(existing);
  assert.equal(saved.trafficSource, 'mediago');
  assert.equal(saved.urlAppendToken, 'sub1');
});

/** The ad size boxes of the traffic tab (only the checked ones with `checked`), by size. */
const sizes = (checked = false) =>
  page
    .locator('[id^="traffic-size-"]')
    .evaluateAll(
      (boxes, only) => boxes.filter((b) => !only || b.checked).map((b) => b.id.replace('traffic-size-', '')),
      checked,
    );
const checkedSizes = () => sizes(true);

test('crane sets traffic Apple News, ad type Display and the first apple size; the sizes are the spec list', {
  timeout: 60_000,
}, async () => {
  await newCampaign(`Crane effect ${Date.now().toString(36)}`);
  await page.locator('#basic-trafficSource').selectOption('crane');
  const id = await saveNew();
  await page.locator('[data-testid="tab-traffic"]').click();
  await page.locator('#traffic-offer').waitFor();
  assert.equal(await page.locator('#traffic-traffic').inputValue(), 'Apple News');
  assert.equal(await page.locator('#traffic-ad-type').inputValue(), 'Display');
  assert.deepEqual(await sizes(), ['970x250', '900x750', '1242x699', '1536x864']);
  assert.deepEqual(await checkedSizes(), ['970x250']);
  await shot(page, '51-editor-crane-traffic');

  // Email display and native sizes (spec 2 §9); then back to Apple News, saved.
  await page.locator('#traffic-traffic').selectOption('Email');
  assert.deepEqual(await sizes(), ['300x250', '970x250', '970x550']);
  assert.deepEqual(await checkedSizes(), ['300x250']);
  await page.locator('#traffic-ad-type').selectOption('Native');
  assert.deepEqual(await sizes(), ['300x250']);
  await page.locator('#traffic-traffic').selectOption('Apple News');
  assert.equal(await page.locator('#traffic-ad-type').inputValue(), 'Display');
  assert.deepEqual(await checkedSizes(), ['970x250']);

  await page.locator('#traffic-offer').selectOption('Keto Burn');
  await page.getByRole('button', { name: 'Save traffic info' }).click();
  await expectToast(page, 'Traffic info saved successfully');
  const saved = (await detail(id)).jeeng_campaign;
  assert.equal(saved.traffic, 'Apple News');
  assert.equal(saved.ad_type, 'Display');
  assert.equal(saved.ad_size, '970x250');
});

test('the metainfo fields of Facebook, Blaze and Jeeng are edited in the source section and saved', {
  timeout: 60_000,
}, async () => {
  const id = await campaign(`Blaze meta ${Date.now().toString(36)}`, 'blaze');
  await page.goto(`${BASE}/basic-info/${id}`);
  await page.locator('#basic-metainfo\\.blaze\\.current_placement_type').selectOption('DEDICATED_PLACEMENT');
  await page.locator('#basic-metainfo\\.blaze\\.placement_direct_url').fill('ftp://blaze.example/p');
  await page.locator('#basic-metainfo\\.blaze\\.campaign_id').fill('BLZ-51');
  await page.locator('[data-testid="campaign-save"]').click();
  await dismissToast(page, 'Enter a valid http or https URL.');
  await page.getByText('Enter a valid http or https URL.').first().waitFor();
  await page.locator('#basic-metainfo\\.blaze\\.placement_direct_url').fill('https://blaze.example/p/51');
  await page.locator('[data-testid="campaign-save"]').click();
  await dismissToast(page, 'Campaign Updated Successfully.');
  assert.deepEqual((await detail(id)).metainfo.blaze, {
    current_placement_type: 'DEDICATED_PLACEMENT',
    placement_direct_url: 'https://blaze.example/p/51',
    campaign_id: 'BLZ-51',
  });
  await shot(page, '51-editor-blaze-meta');

  await page.locator('#basic-trafficSource').selectOption('jeeng');
  await page.locator('#basic-metainfo\\.jeeng\\.campaign_id').fill('J-51');
  await page.locator('[data-testid="campaign-save"]').click();
  await dismissToast(page, 'Campaign Updated Successfully.');
  const saved = (await detail(id)).metainfo;
  assert.equal(saved.jeeng.campaign_id, 'J-51');
  assert.equal(saved.blaze.campaign_id, 'BLZ-51');

  // Facebook: the dataset id and event name sit under the campaign id's verification.
  await page.locator('#basic-trafficSource').selectOption('facebook');
  await page.getByRole('button', { name: 'Keep mine' }).click();
  await page.locator('#basic-metainfo\\.dataset_id').fill('123456789');
  await page.locator('#basic-metainfo\\.event_name').fill('Lead');
  const send = page.getByRole('button', { name: 'Send a test event' });
  assert.ok(await send.isDisabled(), 'a test event needs the test event code');
  await page.locator('#basic-facebook-test-code').fill('TEST51');
  const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/facebook/test-conversion');
  await send.click();
  assert.deepEqual((await request).postDataJSON(), {
    dataset_id: '123456789',
    test_event_code: 'TEST51',
    event_name: 'Lead',
  });
  // This student has no Facebook account connected: the server says so.
  await dismissToast(page, 'Connect Facebook first.');
  await shot(page, '51-editor-facebook-meta');
});

test('the statistics screen writes its days in the date format chosen, dd-MM-yyyy by default, and remembers it', {
  timeout: 60_000,
}, async () => {
  const id = await campaign(`Date formats ${Date.now().toString(36)}`, 'cdsp');
  const today = (await api('/api/stats-today', { token })).body.data.today;
  const start = new Date(`${today}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() - 6);
  const [sy, sm, sd] = start.toISOString().slice(0, 10).split('-');
  const [ty, tm, td] = today.split('-');
  const description = page.locator('.page-description');
  const expectRange = async (text) => {
    await until(
      async () => (await description.textContent()) === `${text} · cdsp`,
      `the range reads ${text}`,
    );
  };

  await page.goto(`${BASE}/stats/${id}`);
  assert.equal(await page.locator('#stats-date-format').inputValue(), 'dd-MM-yyyy');
  await expectRange(`${sd}-${sm}-${sy} – ${td}-${tm}-${ty}`);
  await page.locator('#stats-date-format').selectOption('yyyy/MM/dd');
  await expectRange(`${sy}/${sm}/${sd} – ${ty}/${tm}/${td}`);
  await shot(page, '51-stats-date-format');

  await page.reload();
  assert.equal(await page.locator('#stats-date-format').inputValue(), 'yyyy/MM/dd');
  await expectRange(`${sy}/${sm}/${sd} – ${ty}/${tm}/${td}`);
  await page.locator('#stats-date-format').selectOption('dd.MM.yyyy');
  await expectRange(`${sd}.${sm}.${sy} – ${td}.${tm}.${ty}`);
  await page.locator('#stats-date-format').selectOption('shortDate');
  const short = (y, m, d) => `${Number(m)}/${Number(d)}/${y.slice(2)}`;
  await expectRange(`${short(sy, sm, sd)} – ${short(ty, tm, td)}`);
  await page.locator('#stats-date-format').selectOption('dd-MM-yyyy');
});
