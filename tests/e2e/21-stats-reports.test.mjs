// Issue 17 on the statistics screen, in Chromium over real traffic: fresh numbers with "Updated …
// ago" and Refresh, a reload after a postback shows it without Search, a failing job is retried
// once and then explained with a Retry button, filtered traffic, breakdowns with a second level
// and the period comparison, export headers as titles, and the screen at 390 px.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { addOffer, adminToken, BASE, newCampaign, targetTotals } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { expectText, kpi, until } from './support/expect.mjs';
import { expectNoSideScroll, PHONE, shot } from './support/screen.mjs';
import { navigate, postback, trackingLinks, UA } from './support/tracking.mjs';

const BOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';

const suite = browserForFile();
let token;
let campaignId;
let campaignUrl;
let secret;
const clickIds = [];

/** A tracking request as a browser navigation from `country`, not following the redirect. */
async function visit(target, userAgent, country, extra = {}) {
  const to = await navigate(`${campaignUrl}${target}`, {
    userAgent,
    headers: { 'cf-ipcountry': country, ...extra },
  });
  return to.searchParams.get('clickid');
}

const totals = () => targetTotals(token, campaignId);

suite.setUp(async () => {
  token = await adminToken();
  campaignId = await newCampaign(token, {
    name: `Reports ${Date.now().toString(36)}`,
    campaignType: 'direct_link',
    cpc: '0.40',
  });
  await addOffer(token, { campaignId, payout: '25' });
  ({ campaignUrl, secret } = await trackingLinks(token, campaignId));

  // 6 counted visits (3 US desktop, 3 DE iPhone), 2 bots, 1 prefetch; one conversion (US).
  for (let i = 0; i < 3; i++) clickIds.push(await visit('ad-us', UA.chromeWindows, 'US'));
  for (let i = 0; i < 3; i++) clickIds.push(await visit('ad-de', UA.iphone, 'DE'));
  await visit('ad-us', BOT, 'US');
  await visit('ad-us', BOT, 'US');
  await visit('ad-us', UA.chromeWindows, 'US', { 'sec-purpose': 'prefetch' });
  await postback(clickIds[0], secret, '&txid=E2E-1');
  await until(
    async () => {
      const t = await totals();
      return t.visitsTotal === 6 && t.conversionsTotal === 1;
    },
    'the statistics did not count the traffic',
    { timeout: 30_000, every: 300 },
  );
});

/** Waits until `locator`'s text matches `pattern`, else fails with what it showed. */
async function expectMatch(locator, pattern, timeout = 10_000) {
  const shows = async () =>
    (await locator.textContent({ timeout: 1000 }).catch(() => null))?.replace(/\s+/g, ' ').trim() ?? '';
  await until(async () => pattern.test(await shows()), '', { timeout, every: 100 }).catch(() => {});
  assert.match(await shows(), pattern);
}

test('fresh statistics: updated … ago, a reload shows a new conversion, a failure says so with Retry', {
  timeout: 90_000,
}, async () => {
  const { context, page } = await signedInPage(suite.browser, { landing: null });

  await page.goto(`${BASE}/stats/${campaignId}`);
  await expectText(kpi(page, 'visits'), '6');
  await expectText(kpi(page, 'conversions'), '1');
  await expectMatch(
    page.getByTestId('stats-freshness'),
    /Updated (just now|\d+ s ago) · includes events up to/,
  );
  await shot(page, '21-stats-fresh');

  // A second conversion arrives; a plain reload (no Search) shows it.
  await postback(clickIds[3], secret, '&txid=E2E-2');
  await until(async () => (await totals()).conversionsTotal === 2, 'the postback was not ingested', {
    timeout: 20_000,
  });
  await page.reload();
  await expectText(kpi(page, 'conversions'), '2');
  await expectText(kpi(page, 'revenue'), '$50.00');

  // The target job fails twice (503): one silent retry, then a sentence and a Retry button.
  let failures = 0;
  await page.route('**/api/get-target-statistics', async (route) => {
    failures += 1;
    await route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' });
  });
  await page.getByRole('button', { name: 'Refresh' }).click();
  const failure = page.getByTestId('stats-failure');
  await expectMatch(failure, /The statistics could not be loaded because the server did not answer in time/);
  assert.ok(failures >= 2, `the client asked ${failures} times`);
  assert.equal(await page.getByText('Service Unavailable').count(), 0);
  await shot(page, '21-stats-failure');
  await page.unroute('**/api/get-target-statistics');
  await failure.getByRole('button', { name: 'Retry' }).click();
  await expectMatch(page.getByTestId('stats-freshness'), /Updated/);
  await expectText(kpi(page, 'conversions'), '2');
  await context.close();
});

test('filtered traffic, breakdowns with a second level and the comparison, export titles, 390 px', {
  timeout: 90_000,
}, async () => {
  const { context, page } = await signedInPage(suite.browser, { landing: null });
  await page.goto(`${BASE}/stats/${campaignId}`);
  await expectText(kpi(page, 'visits'), '6');

  // Filtered traffic: 2 bots and 1 prefetch, on today's row and the total.
  const filtered = page.getByTestId('filtered-table');
  const filteredRow = filtered.locator('tbody tr').first();
  await expectText(filteredRow.locator('td[data-col="clicks"]'), '3');
  await expectText(filteredRow.locator('td[data-col="bot"]'), '2');
  await expectText(filteredRow.locator('td[data-col="prefetch"]'), '1');

  // Breakdown by country: US 3 visits 1... DE 3; totals equal the KPI strip.
  const breakdown = page.getByTestId('breakdown-table');
  const row = (value) => breakdown.locator('tbody tr', { hasText: value }).first();
  await expectText(row('US').locator('td[data-col="visits"]'), '3');
  await expectText(row('DE').locator('td[data-col="visits"]'), '3');
  await expectText(row('DE').locator('td[data-col="conversions"]'), '1');
  await expectText(breakdown.locator('tfoot td[data-col="visits"]'), '6');
  await expectText(breakdown.locator('tfoot td[data-col="revenue"]'), '$50.00');

  // Second level: country → device type.
  await page.getByLabel('Then by').selectOption('device');
  await expectMatch(breakdown.locator('tbody tr.bd-child-row', { hasText: 'mobile' }).first(), /mobile\s*3/);
  // Group by OS, compare with the previous period (7 days before: no traffic, so "new").
  await page.getByLabel('Group by').selectOption('os');
  await page.getByLabel('Then by').selectOption('');
  await page.getByLabel('Compare with the previous period').check();
  await expectMatch(page.locator('.bd-period'), /Changes against \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\./);
  await expectMatch(row('iOS').locator('td[data-col="visits"]'), /3\s*new/);
  await expectMatch(row('Windows').locator('td[data-col="visits"]'), /3\s*new/);
  await page.locator('#breakdown').scrollIntoViewIfNeeded();
  await shot(page, '21-stats-breakdown');

  // Export: the headers are the titles the screen shows; the filtered table follows.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('[data-testid="export-csv"]').click(),
  ]);
  const csv = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
  assert.equal(csv[0], 'Targets');
  assert.deepEqual(csv[1].split(',').slice(0, 3), ['Target', 'Visits', 'Purchase Event']);
  assert.ok(
    csv.includes(
      'Day,Filtered clicks,Bot user agent,Prefetch or HEAD,Duplicate click,Other rule,Conversions on filtered clicks,Revenue on filtered clicks',
    ),
    csv.join('\n'),
  );

  // Phone width: Search is on screen, the tables scroll inside their cards.
  await page.setViewportSize(PHONE);
  await page.evaluate(() => window.scrollTo(0, 0));
  const search = page.getByRole('button', { name: 'Search' });
  const box = await search.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, `Search is at ${JSON.stringify(box)}`);
  await expectNoSideScroll(page);
  await page.setViewportSize({ width: 1366, height: 840 });
  await context.close();
});
