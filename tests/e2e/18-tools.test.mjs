// /tools: the link tester's dry run (chain, reasons, observed split), the postback tester (a
// test click, a conversion through the real postback route, a duplicate, a refusal, the list
// cleared after a confirmation) and the link builder (macros, extra parameter, copy, QR code).
// Screenshots at 1366 and 390 px; the narrow screen never scrolls sideways.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminToken, api, BASE } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { dismissToast, expectText } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const suite = browserForFile();
let campaignId;
let campaignUrl;
const stamp = Date.now().toString(36);
const NAME = `Tools e2e ${stamp}`;

suite.setUp(async () => {
  const token = await adminToken();
  const made = await api('/api/add-campaign', {
    token,
    body: {
      name: NAME,
      campaignType: 'landing_page',
      trafficSource: 'taboola',
      postback_enabled: 1,
      postback: 'https://postback.example.com/pb?cid={clickid}&p={payout}',
      extratokens: [{ token_name: 'Site', parameter: 'site', landing_page_enabled: 1 }],
    },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  campaignId = made.body.data.campaign.campaignData.campaignId;
  const add = async (path, body) => {
    const res = await api(path, { token, body: { campaignId, ...body } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  };
  await add('/api/add-landing', { name: 'Quiz page', url: 'https://lp.example.com/quiz', share: 70 });
  await add('/api/add-landing', { name: 'Story page', url: 'https://lp.example.com/story', share: 30 });
  await add('/api/add-landing', { name: 'Old page', url: 'https://lp.example.com/old', active: 0 });
  await add('/api/add-landing', { name: 'Desktop page', url: 'https://lp.example.com/desk', agents: [2] });
  await add('/api/add-offer', { name: 'Keto offer', url: 'https://offer.example.com/keto', payout: '24' });
  const detail = await api(`/api/campaign?campaignId=${campaignId}`, { token });
  campaignUrl = detail.body.data.linkpixel.campaignURL;
});

async function signIn(viewport = { width: 1366, height: 900 }) {
  return signedInPage(suite.browser, { viewport, permissions: ['clipboard-read', 'clipboard-write'] });
}

/** Waits until the form control shows exactly `expected`. */
async function expectValue(locator, expected, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  let last = null;
  while (Date.now() < deadline) {
    last = await locator.inputValue({ timeout: 1000 }).catch(() => null);
    if (last === expected) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(last, expected);
}

async function pageShot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(0, 0);
  await shot(page, name);
}

async function noSideways(page) {
  const { scroll, width, wide } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
    wide: [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className}`),
  }));
  assert.ok(scroll <= width, `the page scrolls sideways: ${scroll} > ${width} (${wide.join(', ')})`);
}

test('link tester: a dry run of a pasted link shows the chain, the reasons and the observed split', {
  timeout: 60_000,
}, async () => {
  const { context, page } = await signIn();
  await page.goto(`${BASE}/tools`);
  await expectText(page.locator('h1.page-title'), 'Tools');
  assert.equal(await page.locator('#tools-tab-link-tester').getAttribute('aria-selected'), 'true');
  await page.getByText('No dry run yet').waitFor();

  // Nothing to test: the field says so.
  await page.getByRole('button', { name: 'Run dry run' }).click();
  await expectText(page.locator('#lt-link-error'), 'Paste a campaign link or pick a campaign.');
  await dismissToast(page, 'Paste a campaign link or pick a campaign.');

  const link = new URL(campaignUrl);
  link.searchParams.set('tid', 'ad-9');
  link.searchParams.set('site', 'news');
  await page.locator('#lt-link').fill(link.toString());
  await page.locator('#lt-device').selectOption('mobile');
  await page.locator('#lt-country').fill('us');
  await page.locator('#lt-checkPages').uncheck();
  await page.locator('#lt-runs').selectOption('1000');
  await page.getByRole('button', { name: 'Run dry run' }).click();
  await dismissToast(page, 'Dry run done: 1 warning.');

  const results = page.locator('[data-testid="link-test-results"]');
  await expectText(results.locator('.card-title .badge'), 'Routed');
  await results.getByText('Offer “Keto offer” has no {clickid} macro in its URL', { exact: false }).waitFor();
  const landingUrl = await page.locator('#lt-landing-url').inputValue();
  assert.match(landingUrl, /^https:\/\/lp\.example\.com\/(quiz|story)\?clickid=[a-z2-7]{30,}&site=news$/);
  const offerUrl = await page.locator('#lt-offer-url').inputValue();
  assert.match(offerUrl, /^https:\/\/offer\.example\.com\/keto\?clickid=[a-z2-7]{30,}$/);
  // Why the others cannot serve a mobile visitor.
  const old = results.locator('tr', { hasText: 'Old page' });
  await expectText(old.locator('.tools-reason'), 'Not eligible Paused.');
  const desk = results.locator('tr', { hasText: 'Desktop page' });
  await expectText(
    desk.locator('.tools-reason'),
    'Not eligible Not shown to mobile visitors (devices: desktop).',
  );
  await expectText(results.locator('tr', { hasText: 'Quiz page' }).locator('td').nth(3), '70.00%');
  // 1,000 dry runs: each landing page within ±4 points of its share.
  const split = page.getByRole('table', { name: 'Observed split' });
  for (const [name, share] of [
    ['Quiz page', 70],
    ['Story page', 30],
  ]) {
    const row = split.locator('tr', { hasText: name });
    const observed = Number((await row.locator('td').nth(3).textContent()).replace('%', ''));
    assert.ok(Math.abs(observed - share) <= 4, `${name}: ${observed}% against ${share}%`);
    await expectText(row.locator('td').nth(5), 'Within tolerance');
  }
  await pageShot(page, '18-link-tester-1366');

  // The tabs answer the arrow keys.
  await page.locator('#tools-tab-link-tester').click();
  await page.keyboard.press('ArrowRight');
  // The key press re-renders after it returns: wait for the selection, then read the rest.
  await page.locator('#tools-tab-postback-tester[aria-selected="true"]').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'tools-tab-postback-tester');
  await page.waitForURL((url) => url.searchParams.get('tab') === 'postback-tester');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('postback tester: a test conversion is accepted, a repeat is a duplicate, a bad payout is refused', {
  timeout: 60_000,
}, async () => {
  const { context, page } = await signIn();
  await page.goto(`${BASE}/tools?tab=postback-tester`);
  await page.getByText('Make a test click first').waitFor();
  await page.locator('#pt-campaignId').selectOption(String(campaignId));
  await page.locator('#pt-target').fill('ad-77');
  await page.getByRole('button', { name: 'Make test click' }).click();
  await dismissToast(page, 'Test click made.');
  const clickId = await page.locator('#pt-click-id').inputValue();
  assert.match(clickId, /^[a-z2-7]{30,}$/);

  await page.locator('#pt-payout').fill('12.50');
  await page.locator('#pt-txid').fill('T-1');
  await page.locator('#pt-txid').press('Enter');
  await dismissToast(page, 'Test conversion accepted.');
  const result = page.locator('[data-testid="postback-result"]');
  await expectText(result.locator('.badge').first(), 'Accepted');
  await result.getByText('The same click id and transaction id count once', { exact: false }).waitFor();
  await result.getByText(`https://postback.example.com/pb?cid=${clickId}&p=12.50`).waitFor();
  await result.getByText('Not sent: tick “Send it to the traffic source” to call it.').waitFor();
  const list = page.getByRole('table', { name: 'Test conversions' });
  await expectText(list.locator('tbody tr').first().locator('td').nth(4), '$12.50');

  await page.getByRole('button', { name: 'Send conversion' }).click();
  await dismissToast(page, 'Accepted as a duplicate: counted once.');
  await expectText(result.locator('.badge').first(), 'Duplicate');
  await expectText(list.locator('tbody tr').first().locator('td').nth(5), '1');
  await pageShot(page, '18-postback-tester-1366');

  await page.locator('#pt-payout').fill('abc');
  await page.getByRole('button', { name: 'Send conversion' }).click();
  await dismissToast(page, 'Refused: Payout must be a number.');
  await expectText(result.locator('.badge').first(), 'Refused');
  assert.equal(await list.locator('tbody tr').count(), 1);

  // Nothing of it reaches the statistics.
  const token = await adminToken();
  const stats = await api('/api/statistics', {
    token,
    body: { campaignId, startDate: '', endDate: '', force: true },
  });
  assert.equal(stats.status, 200);
  assert.equal(stats.body.data.campaignVisits, 0);
  assert.deepEqual(
    stats.body.data.offer.offerRecords.map((o) => [o.offer_name, o.conversion]),
    [['Keto offer', 0]],
  );

  // Clearing asks first.
  await page.getByRole('button', { name: 'Clear test conversions' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog
    .getByText('Delete every test conversion and test click of your campaigns?', { exact: false })
    .waitFor();
  await dialog.getByRole('button', { name: 'Clear them' }).click();
  await dismissToast(page, 'Test conversions cleared. (1)');
  await page.getByText('No test conversions').waitFor();
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('link builder: the source macros, an extra parameter, copy and QR code', {
  timeout: 60_000,
}, async () => {
  const { context, page } = await signIn();
  await page.goto(`${BASE}/tools?tab=link-builder`);
  await page.getByRole('heading', { name: 'Pick a campaign' }).waitFor();
  await page.locator('#lb-campaignId').selectOption(String(campaignId));
  // The campaign's own source is picked for it.
  assert.equal(await page.locator('#lb-trafficSource').inputValue(), 'taboola');
  await page.getByRole('button', { name: 'Add parameter' }).click();
  await page.locator('[id^="lb-param-name-"]').fill('utm_source');
  await page.locator('[id^="lb-param-value-"]').fill('taboola');
  const origin = new URL(campaignUrl).origin;
  const route = new URL(campaignUrl).pathname.split('/')[1];
  const expected = `${origin}/${route}/${campaignId}?tid={campaign_item_id}&site={site}&utm_source=taboola`;
  await expectValue(page.locator('#lb-url'), expected);
  await page.locator('[data-testid="qr-code"]').waitFor();
  await page.locator('[data-testid="lb-url-copy"]').click();
  await dismissToast(page, 'Copied to Clipboard.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);

  // A bad parameter name is said under the row.
  await page.locator('[id^="lb-param-name-"]').fill('utm source');
  const nameError = page
    .locator('.field-error')
    .getByText('Parameter names may contain only letters, digits, underscore, dash, dot and brackets.');
  await nameError.waitFor();
  await page.getByRole('heading', { name: 'Check the parameters' }).waitFor();
  await page.locator('[id^="lb-param-name-"]').fill('utm_source');
  await nameError.waitFor({ state: 'detached' });
  await expectValue(page.locator('#lb-url'), expected);
  await pageShot(page, '18-link-builder-1366');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('the three tools at 390 px: stacked, no sideways scrolling', { timeout: 60_000 }, async () => {
  const { context, page } = await signIn({ width: 390, height: 844 });
  await page.goto(`${BASE}/tools`);
  await page.locator('#lt-campaignId').selectOption(String(campaignId));
  await page.locator('#lt-checkPages').uncheck();
  await page.getByRole('button', { name: 'Run dry run' }).click();
  await dismissToast(page, 'Dry run done: 1 warning.');
  await page.getByRole('table', { name: 'Observed split' }).waitFor();
  await pageShot(page, '18-link-tester-390');
  await noSideways(page);

  await page.locator('#tools-tab-postback-tester').click();
  await page.locator('#pt-campaignId').selectOption(String(campaignId));
  await page.getByRole('button', { name: 'Make test click' }).click();
  await dismissToast(page, 'Test click made.');
  await page.getByRole('button', { name: 'Send conversion' }).click();
  await dismissToast(page, 'Test conversion accepted.');
  await pageShot(page, '18-postback-tester-390');
  await noSideways(page);

  await page.locator('#tools-tab-link-builder').click();
  await page.locator('#lb-campaignId').selectOption(String(campaignId));
  await page.locator('[data-testid="qr-code"]').waitFor();
  await pageShot(page, '18-link-builder-390');
  await noSideways(page);
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});
