// Issue 27 items 1-3 and its two features, in Chromium at 1366 and 390 px: a campaign link is
// never handed out with an empty parameter (editor, link builder, Settings' preview); ratios
// without a value (no ad spend) show "—" with why on statistics, the list and the dashboard;
// the export names its file and writes the chosen table with empty cells for them; and the Live
// switch, used from the keyboard, brings new visits on screen without Search or Refresh.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { addOffer, adminToken, BASE, newCampaign, targetTotals } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { expectText, kpi, until } from './support/expect.mjs';
import { shot } from './support/screen.mjs';
import { navigate, postback, trackingLinks } from './support/tracking.mjs';

const NO_SPEND = 'No value: no ad spend recorded in this range, so there is nothing to divide.';

const suite = browserForFile();
let token;
let campaignId;
let visitUrl;

async function visit(target) {
  const to = await navigate(`${visitUrl}${target}`, {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0',
  });
  return to.searchParams.get('clickid');
}

const visitsCounted = () => targetTotals(token, campaignId);

suite.setUp(async () => {
  token = await adminToken();
  // Source None, no CPC, no costs: the campaign has no ad spend. Its URL token is the one the
  // editor builds from the name "Probe LP" (spec 2 §4).
  campaignId = await newCampaign(token, {
    name: 'Probe LP',
    campaignType: 'direct_link',
    urlAppendToken: 'keyword_PROBE_LP',
  });
  await addOffer(token, { campaignId, payout: '12.50' });
  const { campaignUrl, secret } = await trackingLinks(token, campaignId);
  visitUrl = campaignUrl;
  const first = await visit('ad-1');
  await visit('ad-1');
  await postback(first, secret, '&txid=I27-1');
  await until(
    async () => {
      const t = await visitsCounted();
      return t.visitsTotal === 2 && t.conversionsTotal === 1;
    },
    'the statistics did not count the traffic',
    { timeout: 30_000, every: 300 },
  );
});

async function signedIn() {
  const { context, page } = await signedInPage(suite.browser, { landing: null });
  return { context, page };
}

/** The campaign's statistics screen, once it shows the set-up's two visits. */
async function statisticsScreen() {
  const { context, page } = await signedIn();
  await page.goto(`${BASE}/stats/${campaignId}`);
  await expectText(kpi(page, 'visits'), '2');
  return { context, page };
}

/** Clicks the export button and answers the download it starts. */
async function exportFile(page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('[data-testid="export-csv"]').click(),
  ]);
  return download;
}

test('the campaign link carries a placeholder, never an empty value: editor, link builder, settings', {
  timeout: 90_000,
}, async () => {
  const { context, page } = await signedIn();
  await page.goto(`${BASE}/basic-info/${campaignId}`);
  await page.locator('[data-testid="tab-links"]').click();
  const url = page.locator('#link-campaign-url');
  await url.waitFor();
  const link = await url.inputValue();
  assert.match(link, new RegExp(`/${campaignId}\\?keyword_PROBE_LP=REPLACE_WITH_AD_ID$`));
  await shot(page, '40-editor-links');

  // The link builder with source None gives the same link and says what the parameter carries.
  await page.goto(`${BASE}/tools?tab=link-builder`);
  await page.locator('#lb-campaignId').selectOption(String(campaignId));
  await page.locator('#lb-trafficSource').selectOption('');
  await until(
    async () => (await page.locator('#lb-url').inputValue()) === link,
    'the link builder link differs',
  );
  await expectText(page.locator('.tools-params li').first(), 'keyword_PROBE_LP = REPLACE_WITH_AD_ID target');
  assert.equal(await page.getByText('(empty)').count(), 0);
  await shot(page, '40-link-builder-none');

  // Settings' preview agrees.
  await page.goto(`${BASE}/setting`);
  const example = page.locator('[data-testid="route-example"] code');
  await until(async () => /\?tid=REPLACE_WITH_AD_ID$/.test((await example.textContent()) ?? ''), 'preview');
  await page.locator('[data-testid="route-example"]').scrollIntoViewIfNeeded();
  await shot(page, '40-settings-preview');
  await context.close();
});

test('no spend: ROI and CPA read "—" with why on statistics and the list; the export leaves them empty', {
  timeout: 120_000,
}, async () => {
  const { context, page } = await statisticsScreen();
  await expectText(kpi(page, 'revenue'), '$12.50');
  await expectText(kpi(page, 'roi'), `—${NO_SPEND}`);
  assert.equal(await kpi(page, 'roi').locator('.no-value').getAttribute('title'), NO_SPEND);
  assert.equal(await kpi(page, 'cpa').locator('.no-value').getAttribute('title'), NO_SPEND);
  // CR has visits: a value.
  await expectText(kpi(page, 'cr'), '50.00%');
  const row = page.locator('[data-testid="target-table"] tbody tr[data-row]').first();
  await row.waitFor();
  assert.equal(await row.locator('td[data-col="cpa"] .no-value').getAttribute('title'), NO_SPEND);
  // The money column header reads like the others.
  assert.equal((await page.locator('[data-testid="target-table"] th[data-col="net"]').count()) > 0, true);
  await expectText(page.locator('[data-testid="target-table"] th[data-col="net"]').first(), 'Net Profit');
  await shot(page, '40-stats-no-value');

  // The export of the one table chosen: a named file, ROI and CPA empty, money 12.50.
  await page.locator('#export-tables').selectOption('targets');
  const download = await exportFile(page);
  assert.match(
    download.suggestedFilename(),
    /^Campaign_Probe-LP_(all_time|\d{4}-\d{2}-\d{2}_to_\d{4}-\d{2}-\d{2})_[\w-]+\.csv$/,
  );
  const csv = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
  assert.equal(csv[0], 'Targets');
  const header = csv[1].split(',');
  const line = csv[2].split(',');
  const at = (title) => line[header.indexOf(title)];
  assert.equal(csv.length, 3, csv.join('\n'));
  assert.equal(at('Target'), 'ad-1');
  assert.equal(at('Revenue'), '12.50');
  assert.equal(at('CPA'), '');
  assert.ok(!csv.includes('Landing pages') && !csv.includes('Filtered traffic'));

  // The same table as an Excel workbook (decision 144): the button says the format.
  await page.locator('#export-format').selectOption('xlsx');
  await expectText(page.locator('[data-testid="export-csv"]'), 'Export XLSX');
  const book = await exportFile(page);
  assert.match(
    book.suggestedFilename(),
    /^Campaign_Probe-LP_(all_time|\d{4}-\d{2}-\d{2}_to_\d{4}-\d{2}-\d{2})_[\w-]+\.xlsx$/,
  );
  const bytes = await readFile(await book.path());
  // A workbook is a zip archive whose parts name the sheet.
  assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK');
  assert.ok(bytes.includes(Buffer.from('xl/worksheets/sheet1.xml')));
  await shot(page, '40-stats-export-xlsx');

  // The breakdown is exported as the card groups it.
  await page.locator('#breakdown-by').selectOption('device');
  await page.locator('#export-format').selectOption('csv');
  await page.locator('#export-tables').selectOption('breakdown');
  const grouped = await exportFile(page);
  const lines = (await readFile(await grouped.path(), 'utf8')).trim().split(/\r?\n/);
  assert.deepEqual(lines.slice(0, 2), [
    'Breakdown',
    'Device type,Visits,LP Clicks,LP CTR,Conversions,CR,Revenue,Ad Spend,Net Profit,ROI,EPC,CPA',
  ]);
  assert.match(lines.at(-1), /^Total,2,/);

  // The campaigns list: ROI over no spend is "—" with why, not 0.00 %.
  await page.evaluate(() => {
    localStorage.setItem('tablePageLength', '100');
    localStorage.setItem('campaignSortBy', '-campaignId');
  });
  await page.goto(`${BASE}/campaigns`);
  const roi = page.locator(`[data-testid="row-${campaignId}"] td[data-metric="roi"]`);
  await until(async () => (await roi.locator('.no-value').count()) === 1, 'the list ROI is not "—"');
  assert.equal(await roi.locator('.no-value').getAttribute('title'), NO_SPEND);
  await shot(page, '40-list-no-value');
  await context.close();
});

test('Live: switched on from the keyboard, statistics and the dashboard show new visits on their own', {
  timeout: 150_000,
}, async () => {
  const { context, page } = await statisticsScreen();
  const live = page.getByRole('switch', { name: /Live/ });
  assert.equal(await live.getAttribute('aria-checked'), 'false');
  await live.focus();
  await page.keyboard.press('Space');
  assert.equal(await live.getAttribute('aria-checked'), 'true');
  await shot(page, '40-stats-live');

  await visit('ad-2');
  // No Search, no Refresh: the next live tick (every 10 s) finds the new visit.
  await expectText(kpi(page, 'visits'), '3', 40_000);

  // The dashboard of this campaign: CPA and Ad CTR have no value (no spend, no impressions).
  await page.evaluate((id) => localStorage.setItem('dashboardCampaignId', String(id)), campaignId);
  await page.goto(`${BASE}/dashboard`);
  await page.locator('#dash-campaign').selectOption(String(campaignId));
  const tile = (key) => page.locator(`[data-total="${key}"] .kpi-value`);
  await expectText(tile('visitors'), '3');
  assert.equal(await tile('cpa').locator('.no-value').getAttribute('title'), NO_SPEND);
  assert.equal(
    await tile('ad_ctr').locator('.no-value').getAttribute('title'),
    'No value: the ad platform reported no impressions in this range.',
  );
  const dashLive = page.getByRole('switch', { name: /Live/ });
  await dashLive.focus();
  await page.keyboard.press('Enter');
  assert.equal(await dashLive.getAttribute('aria-checked'), 'true');
  await shot(page, '40-dashboard-live');
  await visit('ad-3');
  await expectText(tile('visitors'), '4', 40_000);
  await context.close();
});
