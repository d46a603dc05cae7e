// The statistics screen grouped by several extra tokens at once (targets and landing pages), the
// rows without token values hidden, and the aggregator's elements classified from the content
// of their landing pages: the pages are served here, on 127.0.0.1, and read by the Worker.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import { adminToken, api, BASE, targetTotals } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { expectPath, expectText, until } from './support/expect.mjs';
import { shot } from './support/screen.mjs';
import { navigate, postback, trackingLinks } from './support/tracking.mjs';

// The two landing pages, as a page builder would mark their elements.
const PAGES = {
  '/a': `<!doctype html><html><body>
    <h1 data-element="headlineA">Big savings on shoes</h1>
    <img data-element="hero1" src="/hero.png" alt="Red shoes">
  </body></html>`,
  '/b': `<!doctype html><html><body>
    <h1 data-element="headlineB">Free shipping <em>today</em></h1>
    <div data-element="hero1">
      <img src="/hero.png" alt="Red shoes">
    </div>
  </body></html>`,
};

const suite = browserForFile();
let token;
let campaignId;
let lpServer;
let lpBase;

async function created(path, body) {
  const res = await api(path, { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data;
}

suite.setUp(async () => {
  lpServer = createServer((req, res) => {
    const html = PAGES[new URL(req.url, 'http://x').pathname];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html' });
    res.end(html ?? 'not found');
  });
  await new Promise((resolve) => lpServer.listen(0, '127.0.0.1', resolve));
  lpBase = `http://127.0.0.1:${lpServer.address().port}`;

  token = await adminToken();
  const campaign = await created('/api/add-campaign', {
    name: `Tokens ${Date.now().toString(36)}`,
    campaignType: 'landing_page',
    cpc: '0.10',
    extratokens: [
      { token_name: 'Sub 1', parameter: 'sub1' },
      { token_name: 'Placement', parameter: 'placement' },
    ],
  });
  campaignId = campaign.campaign.campaignData.campaignId;
  await created('/api/add-landing', { campaignId, name: 'headlineA_hero1', url: `${lpBase}/a` });
  await created('/api/add-landing', { campaignId, name: 'headlineB_hero1', url: `${lpBase}/b` });
  await created('/api/add-offer', {
    campaignId,
    name: 'Offer',
    url: 'https://offer.example/x',
    payout: '10',
  });

  // The links the editor shows; the postback URL carries the campaign's postback secret.
  const { campaignUrl, clickUrl, secret } = await trackingLinks(token, campaignId);
  // 12 visits on target ad-1: four (sub1, placement) pairs, and two visits without tokens.
  const visits = [
    ...Array(4).fill('&sub1=x&placement=top'),
    ...Array(3).fill('&sub1=x&placement=side'),
    ...Array(2).fill('&sub1=y&placement=top'),
    '&sub1=y&placement=side',
    '',
    '',
  ];
  const clickIds = [];
  for (const tokens of visits) {
    clickIds.push((await navigate(`${campaignUrl}ad-1${tokens}`)).searchParams.get('clickid'));
  }
  // Two purchases from (x, top) visitors, through the offer, at its $10.
  for (const clickId of clickIds.slice(0, 2)) {
    await navigate(`${clickUrl}?clickid=${clickId}`);
    await postback(clickId, secret);
  }
  await until(
    async () => {
      const totals = await targetTotals(token, campaignId);
      return totals.visitsTotal === 12 && totals.conversionsTotal === 2;
    },
    'the statistics did not count every event',
    { timeout: 30_000, every: 300 },
  );
});

after(async () => {
  await new Promise((resolve) => (lpServer ? lpServer.close(resolve) : resolve()));
});

const cell = (row, col) => row.locator(`td[data-col="${col}"]`);
const rows = (table) => `[data-testid="${table}-table"] tbody tr[data-row]`;

async function pick(page, picker, name, check = true) {
  await page.locator(`[data-testid="${picker}"] button`).first().click();
  const box = page.getByRole('checkbox', { name });
  await (check ? box.check() : box.uncheck());
  await page.keyboard.press('Escape');
}

test('groups targets and landing pages by two tokens at once and classifies the elements from their pages', {
  timeout: 90_000,
}, async () => {
  const { context, page } = await signedInPage(suite.browser, {
    landing: null,
    viewport: { width: 1366, height: 900 },
  });
  await page.goto(`${BASE}/stats/${campaignId}`);
  await expectPath(page, `/stats/${campaignId}`);
  const footer = page.locator('[data-testid="target-footer"]');
  await expectText(cell(footer, 'visits'), '12');

  // Targets by Sub 1 and Placement: one row per pair, plus the visits without tokens.
  await pick(page, 'token-picker', 'Sub 1');
  await pick(page, 'token-picker', 'Placement');
  await page.locator('[data-testid="target-table"] th[data-col="sub1"]').waitFor();
  await page.locator('[data-testid="target-table"] th[data-col="placement"]').waitFor();
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 5, rows('target'));
  const xTop = page
    .locator(rows('target'))
    .filter({
      has: page.locator('td[data-col="sub1"]', { hasText: /^x$/ }),
    })
    .filter({ has: page.locator('td[data-col="placement"]', { hasText: /^top$/ }) });
  await expectText(cell(xTop, 'visits'), '4');
  await expectText(cell(xTop, 'conversions'), '2');
  await expectText(cell(xTop, 'revenue'), '$20.00');

  // Hiding the visits without token values: four rows, and the totals follow.
  await page.getByLabel('Hide visits without token values').check();
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 4, rows('target'));
  await expectText(cell(footer, 'visits'), '10');

  // Landing pages by Placement: a row per page and placement.
  await pick(page, 'landing-token-picker', 'Placement');
  await page.locator('[data-testid="landing-table"] th[data-col="placement"]').waitFor();
  // Every visit with a placement sits on a row naming it; the visits without one are hidden.
  // Each visit's landing page is drawn at random between the two, so a page may have had no visit
  // from one placement: two to four rows, never a row without a placement.
  await page.waitForFunction((sel) => {
    const trs = [...document.querySelectorAll(sel)];
    const named = trs.filter((tr) => tr.querySelector('td[data-col="placement"]')?.textContent?.trim());
    const visits = named.reduce(
      (a, tr) => a + Number(tr.querySelector('td[data-col="visits"]')?.textContent),
      0,
    );
    return trs.length >= 2 && trs.length <= 4 && named.length === trs.length && visits === 10;
  }, rows('landing'));

  // The aggregator: each element's type from its content on the landing page.
  const element = (position, name) =>
    page.locator(`[data-testid="element-${position}-table"] tbody tr`, { hasText: name });
  await expectText(cell(element(0, 'headlineA'), 'tagType'), 'Header');
  await expectText(cell(element(0, 'headlineA'), 'tagContent'), 'Big savings on shoes');
  await expectText(cell(element(0, 'headlineB'), 'tagContent'), 'Free shipping today');
  await expectText(cell(element(1, 'hero1'), 'tagType'), 'CTA');
  await expectText(cell(element(1, 'hero1'), 'tagContent'), 'Image: Red shoes');

  await page.mouse.move(0, 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'statistics-tokens');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});
