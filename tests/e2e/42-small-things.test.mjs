// Issue 27 item 7, the smaller things a marketer trips on, each at 1366 and 390 px: a signed-out
// load with a clean console, toasts that never cover the header's balances or a Save button, the
// note when an end date falls before the start, "Ad clicks" (the ad platform's) on the dashboard, the QR
// code downloaded as PNG and SVG, and the campaign list opening on the page of a new campaign.
// (The refused $1500 switch is in 20, rotator funding and the balance log in 11, usernames in 04.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { adminToken, api, BASE, newCampaign, userWithToken } from './support/api.mjs';
import { browserForFile, openPage, signedInPage } from './support/browser.mjs';
import { expectPath, expectText, expectToast } from './support/expect.mjs';
import { PHONE, shot } from './support/screen.mjs';

const DESK = { width: 1366, height: 840 };
const WIDTHS = [DESK, PHONE];

const suite = browserForFile();
let user;
let token;

suite.setUp(async () => {
  user = await userWithToken('student');
  token = user.token;
  // Header balances shown to a student with money in a wallet (an admin funds it, decision 124).
  const fund = await api('/api/update-balance', {
    token: await adminToken(),
    body: { userId: user.id, liveintent: '250' },
  });
  assert.equal(fund.status, 200, JSON.stringify(fund.body));
});

const campaign = (name, body = {}) => newCampaign(token, { name, ...body });

async function signIn(viewport, who = user) {
  return signedInPage(suite.browser, { user: who, landing: null, viewport });
}

const box = (locator) => locator.boundingBox();
const overlaps = (a, b) =>
  Boolean(a && b) &&
  a.x < b.x + b.width &&
  b.x < a.x + a.width &&
  a.y < b.y + b.height &&
  b.y < a.y + a.height;

for (const viewport of WIDTHS) {
  test(`${viewport.width} px: a signed-out page load logs no error and asks for a session with a 200`, async () => {
    const { context, page } = await openPage(suite.browser, { viewport });
    const consoleErrors = [];
    const failed = [];
    const exchanges = [];
    page.on('console', (msg) => msg.type() === 'error' && consoleErrors.push(msg.text()));
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${new URL(res.url()).pathname}`);
      if (res.url().endsWith('/api/auth/session-to-token')) exchanges.push(res.status());
    });
    await page.goto(`${BASE}/campaigns`);
    await expectPath(page, '/login');
    await page.locator('#login-username').waitFor();
    await page.goto(`${BASE}/login`);
    await page.locator('#login-username').waitFor();
    assert.ok(exchanges.length >= 1, 'the app asked whether a session exists');
    assert.deepEqual([...new Set(exchanges)], [200]);
    assert.deepEqual(failed, []);
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(page.pageErrors, []);
    await context.close();
  });

  test(`${viewport.width} px: a toast never covers the header's balances or a Save button`, async () => {
    const id = await campaign(`Toast check ${viewport.width}`);
    const { context, page } = await signIn(viewport);
    await page.goto(`${BASE}/basic-info/${id}`);
    await page.locator('#basic-name').fill(`Toast check ${viewport.width} renamed`);
    await page.locator('[data-testid="campaign-save"]').click();
    const toast = await expectToast(page, 'Campaign Updated Successfully.');
    const toastBox = await box(toast);
    const guarded = {
      'header balances': page.locator('[data-testid="header-balance"]'),
      header: page.locator('.app-header'),
      'page Save': page.locator('[data-testid="campaign-save"]'),
      'save bar': page.getByRole('button', { name: 'Save changes' }),
    };
    for (const [name, locator] of Object.entries(guarded)) {
      await locator.first().waitFor();
      assert.ok(!overlaps(toastBox, await box(locator.first())), `the toast covers the ${name}`);
    }
    // Half-way down the long form (the phone's save bar sticks to the bottom) and at its end.
    for (const where of [0.5, 1]) {
      await page.evaluate((f) => window.scrollTo(0, f * document.documentElement.scrollHeight), where);
      const again = await expectToast(page, 'Campaign Updated Successfully.');
      const bar = page.getByRole('button', { name: 'Save changes' });
      const barBox = await box(bar);
      if (barBox && barBox.y < viewport.height && barBox.y + barBox.height > 0)
        assert.ok(!overlaps(await box(again), barBox), `at ${where * 100} %, the toast covers Save changes`);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: new URL(`screenshots/42-toast-${viewport.width}.png`, import.meta.url).pathname,
    });
    assert.deepEqual(page.pageErrors, []);
    await context.close();
  });
}

test('an end date before the start is set to the start and says so, on the dashboard and the list', async () => {
  await campaign('Range check');
  const { context, page } = await signIn(DESK);
  for (const [path, id] of [
    ['/dashboard', 'dash'],
    ['/campaigns', 'cl-range'],
  ]) {
    await page.goto(`${BASE}${path}`);
    const prefix = id;
    const start = page.locator(`#${prefix}-start`);
    await start.waitFor();
    const end = page.locator(`#${prefix}-end`);
    const note = page.getByTestId(`${prefix}-end-moved`);
    await start.fill('2026-03-10');
    await expectText(note, '');
    await end.fill('2026-03-05');
    await expectText(note, 'The end date cannot be before the start date, so it was set to the start date.');
    assert.equal(await end.inputValue(), '2026-03-10');
    assert.equal(await end.getAttribute('aria-describedby'), `${prefix}-end-moved`);
    await shot(page, `42-end-date-note-${id}`);
    // A later end clears the note.
    await end.fill('2026-03-12');
    await expectText(note, '');
  }
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('the dashboard labels its clicks as the ad platform’s (Ad clicks), with a tooltip', async () => {
  await campaign('Clicks check');
  const { context, page } = await signIn(DESK);
  await page.goto(`${BASE}/dashboard`);
  const label = page.locator('[data-total="clicks"] .total-label');
  await label.waitFor();
  // The label's own words (the tooltip inside it is checked below).
  const words = await label.evaluate((el) =>
    [...el.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent)
      .join('')
      .trim(),
  );
  assert.equal(words, 'Ad clicks');
  await page.getByRole('button', { name: 'Why Ad clicks may be 0' }).focus();
  const tip = page.locator('#hint-clicks');
  await tip.waitFor({ state: 'visible' });
  assert.match(
    await tip.textContent(),
    /^Counted by the ad platform \(clicks on your ads\), not by the tracker, whose visits are under Visitors/,
  );
  await shot(page, '42-dashboard-ad-clicks');
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

for (const viewport of WIDTHS) {
  test(`${viewport.width} px: the QR code of a link downloads as PNG and as SVG`, async () => {
    const id = await campaign(`QR ${viewport.width}`);
    const { context, page } = await signIn(viewport);
    await page.goto(`${BASE}/tools?tab=link-builder`);
    await page.locator('#lb-campaignId').selectOption(String(id));
    await page.getByTestId('qr-code').waitFor();

    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PNG' }).click(),
    ]);
    assert.equal(png.suggestedFilename(), `qr-go-${id}.png`);
    const bytes = readFileSync(await png.path());
    assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
    // IHDR: width and height, 8 px per module of a code with its 4-module quiet zone.
    const width = bytes.readUInt32BE(16);
    assert.equal(bytes.readUInt32BE(20), width);
    assert.equal(width % 8, 0);
    assert.ok(width >= 29 * 8, `a ${width} px PNG`);

    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download SVG' }).click(),
    ]);
    assert.equal(svg.suggestedFilename(), `qr-go-${id}.svg`);
    const text = readFileSync(await svg.path(), 'utf8');
    assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="512" height="512"/);
    assert.equal(
      text.match(/<path d="([^"]+)"/)[1],
      await page.getByTestId('qr-code').locator('path').getAttribute('d'),
    );
    if (viewport === DESK) await shot(page, '42-qr-download');
    assert.deepEqual(page.pageErrors, []);
    await context.close();
  });
}

for (const viewport of WIDTHS) {
  test(`${viewport.width} px: after creating a campaign the list opens on its page, marked New`, async () => {
    // A user of its own with 10 campaigns: the list's first page is full.
    const owner = await userWithToken('student');
    let firstId = 0;
    for (let i = 1; i <= 10; i++) {
      const id = await newCampaign(owner.token, { name: `Older ${i}` });
      firstId ||= id;
    }
    const { context, page } = await signIn(viewport, owner);
    await page.goto(`${BASE}/basic-info`);
    const name = `Fresh launch ${viewport.width}`;
    await page.locator('#basic-name').fill(name);
    await page.locator('[data-testid="campaign-save"]').click();
    await page.waitForURL((url) => /^\/basic-info\/\d+$/.test(url.pathname));
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.locator('.ce-breadcrumb a', { hasText: 'Campaigns' }).click();
    await expectPath(page, '/campaigns');

    const note = page.getByTestId('new-campaign-note');
    await expectText(note.locator('span').first(), `New campaign “${name}” is on page 2 of 2, marked New.`);
    const row = page.getByTestId(`row-${id}`);
    await row.waitFor();
    assert.match(await row.getAttribute('class'), /\bis-new\b/);
    await expectText(row.locator('.cl-badge-new'), 'New');
    assert.equal(await page.locator('tbody tr.is-campaign').count(), 1);
    await shot(page, `42-new-campaign-${viewport.width}`);

    // Back on page 1 the line still says where it is, and takes the user there.
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByTestId(`row-${firstId}`).waitFor();
    await note.getByRole('button', { name: 'Show it' }).click();
    await row.waitFor();
    await note.getByRole('button', { name: 'Dismiss' }).click();
    await note.waitFor({ state: 'detached' });
    // Only the campaign just made is marked, once: a reload opens page 1 as before.
    await page.reload();
    await page.getByTestId(`row-${firstId}`).waitFor();
    assert.equal(await note.count(), 0);
    assert.deepEqual(page.pageErrors, []);
    await context.close();
  });
}

test('390 px: a URL opened in the tab starts at its top, not where the page before was scrolled', async () => {
  const id = await campaign('Scroll check');
  const { page } = await signIn(PHONE);
  // A long form, scrolled to its end.
  await page.goto(`${BASE}/basic-info/${id}`);
  await page.getByRole('button', { name: 'Save changes' }).waitFor();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  assert.ok((await page.evaluate(() => window.scrollY)) > 400, 'the editor scrolls at 390 px');
  // Another long page typed into the same tab: React Router keyed both first loads "default",
  // so this one opened at the editor's scroll position.
  await page.goto(`${BASE}/basic-info`);
  await page.getByTestId('campaign-save').waitFor();
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  // Reloading a page still brings back where it was.
  await page.evaluate(() => window.scrollTo(0, 500));
  await page.reload();
  await page.getByTestId('campaign-save').waitFor();
  await page.waitForFunction(() => window.scrollY === 500);
});
