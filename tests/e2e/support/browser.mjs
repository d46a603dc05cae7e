// Chromium for a test file: its pages (under the server's Content-Security-Policy, a violation
// failing the test), a page signed in through /login, and the browser's local storage.
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';
import { chromium } from 'playwright-core';
import { ADMIN, BASE, ensureInstalled } from './api.mjs';
import { expectPath } from './expect.mjs';

function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

// Every page runs under the Content-Security-Policy the server sends (docs/decisions/040), and a
// violation fails the test that caused it: the browser's securitypolicyviolation events and its
// 'Content Security Policy' console errors are collected here, and so is an app page served
// without the policy. The afterEach hook below fails the test; page.pageErrors gets them too,
// so a test that asserts it has no page errors fails at that line.
const cspProblems = [];

function cspProblem(page, text) {
  cspProblems.push(text);
  page.pageErrors?.push(`CSP: ${text}`);
}

afterEach(() => {
  const seen = cspProblems.splice(0);
  assert.deepEqual(seen, [], 'Content-Security-Policy problems on the pages of this test');
});

async function watchCsp(context, page) {
  await context.exposeBinding('__reportCspViolation', ({ page: source }, v) =>
    cspProblem(source ?? page, `${v.directive} refused ${v.blocked || 'inline'} on ${v.url}`),
  );
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__reportCspViolation?.({
        directive: e.effectiveDirective || e.violatedDirective,
        blocked: e.blockedURI,
        url: document.URL,
      });
    });
  });
  page.on('response', async (response) => {
    const request = response.request();
    if (request.resourceType() !== 'document' || !response.url().startsWith(BASE)) return;
    if (response.status() >= 300 && response.status() < 400) return;
    const type = response.headers()['content-type'] ?? '';
    if (!type.includes('text/html')) return;
    const url = new URL(response.url());
    // Tracking pages (redirect hops, iframe pixels) are meant for other sites and carry no policy.
    if (!/^\/(api|files)\//.test(url.pathname) && !response.headers()['content-security-policy']) {
      const html = await response.text().catch(() => '');
      if (html.includes('id="root"')) cspProblem(page, `app page ${url.pathname} served without a CSP`);
    }
  });
}

/** How long a page load may take before it is counted as stalled and started again. */
const STALLED_LOAD_MS = 20_000;

/**
 * wrangler dev's asset server (not the Worker: /assets/* never reaches it) has been seen to hold
 * every asset request of a fresh page open until the browser gave up, the server answering each
 * in about 30,000 ms (tests/e2e/.tmp/server.log), twice in one run of 72 tests. A load of the
 * same URL that has not fired `load` after 20 s is therefore started once more, and said so; a
 * second stall fails the test as before.
 */
function retryStalledLoads(page) {
  const goto = page.goto.bind(page);
  page.goto = async (url, options = {}) => {
    try {
      return await goto(url, { ...options, timeout: options.timeout ?? STALLED_LOAD_MS });
    } catch (err) {
      if (err?.name !== 'TimeoutError' || options.timeout) throw err;
      console.error(`e2e: loading ${url} stalled for ${STALLED_LOAD_MS / 1000} s; loading it again`);
      // A blank page first: loading the same URL again (one with a #fragment above all) can be
      // taken as a move within the stalled document, which then never finishes loading either.
      await goto('about:blank').catch(() => {});
      return goto(url, options);
    }
  };
}

/**
 * The Chromium of a test file: its `before` hook sets the server up when it has not been (unless
 * `install` is false, for the file that tests setup itself), launches the browser and then runs
 * the file's own set-up steps (`suite.setUp(fn)`), in that order; its `after` hook closes the
 * browser. (Node 20 runs a file's top-level `before` hooks side by side, not one after another,
 * so a file's set-up that needs the installation is a step here, not a hook of its own.)
 */
export function browserForFile({ install = true } = {}) {
  const steps = [];
  const suite = { browser: undefined, setUp: (step) => steps.push(step) };
  before(async () => {
    if (install) await ensureInstalled();
    suite.browser = await launchBrowser();
    for (const step of steps) await step();
  });
  after(async () => {
    await suite.browser?.close();
  });
  return suite;
}

/** A fresh context (own storage and cookies) and page; page errors and CSP violations fail the test. */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 840 }, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  // A page load on a busy 2-core CI machine (build, workerd, Chromium) has taken over 10 s.
  page.setDefaultNavigationTimeout(30_000);
  retryStalledLoads(page);
  page.pageErrors = [];
  page.on('pageerror', (err) => page.pageErrors.push(err.message));
  await watchCsp(context, page);
  // Console warnings are worth seeing, not failing on; refused requests are expected here.
  page.on('console', (msg) => {
    if (!['warning', 'error'].includes(msg.type())) return;
    if (/Content Security Policy/i.test(msg.text())) cspProblem(page, msg.text());
    if (msg.text().startsWith('Failed to load resource')) return;
    console.error(`[browser ${msg.type()}] ${msg.text()}`);
  });
  return { context, page };
}

export const storage = (page, key) => page.evaluate((k) => window.localStorage.getItem(k), key);

export async function uiLogin(page, username, password) {
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  await page.locator('#login-password').press('Enter');
}

/**
 * A fresh page signed in through /login (on `base`) as `user`. It then waits for `landing`
 * (asserted), or, with `landing: null`, for any path but /login. Other options go to `openPage`.
 */
export async function signedInPage(
  browser,
  { user = ADMIN, base = BASE, landing = '/campaigns', ...options } = {},
) {
  const { context, page } = await openPage(browser, options);
  await page.goto(`${base}/login`);
  await uiLogin(page, user.username, user.password);
  if (landing) await expectPath(page, landing);
  else await page.waitForURL((url) => url.pathname !== '/login');
  return { context, page };
}
