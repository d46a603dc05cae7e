// Shared helpers of the browser tests: the server under test, API shortcuts, Chromium, and
// waits that fail with the text that was actually on the page.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, afterEach, before } from 'node:test';
import { SignJWT } from 'jose';
import { chromium } from 'playwright-core';
import { issueLicense } from '../../scripts/license-lib.mjs';

export const BASE = process.env.E2E_BASE_URL ?? '';
assert.ok(BASE, 'E2E_BASE_URL is not set: run the browser tests through tests/e2e/run.mjs');

const root = new URL('../../', import.meta.url);
const screenshots = new URL('screenshots/', import.meta.url);
mkdirSync(screenshots, { recursive: true });

/** The first administrator, made by the setup test (or by ensureInstalled when run alone). */
export const ADMIN = { username: 'owner', password: 'Owner-pass-2027', email: 'admin@example.com' };

export const MESSAGES = {
  setupComplete: 'Setup complete! You may now log in.',
  sessionTimeout: 'Session timeout. Please login again.',
  loginFailed: 'Username or Password are incorrect',
  passwordChanged: 'Password successfully changed',
  resetLinkSent:
    'If an account uses that address, we have sent it a link to reset the password. Please check your email.',
};

export async function api(path, { method, body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(new URL(path, BASE), {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, body: json };
}

export async function mintLicense(email) {
  const jwk = JSON.parse(readFileSync(new URL('.dev-keys/vendor-private.jwk.json', root), 'utf8'));
  return issueLicense(jwk, { email, days: 30 });
}

function devVar(name) {
  const text = readFileSync(new URL('.dev.vars', root), 'utf8');
  const line = text.split('\n').find((l) => l.startsWith(`${name}=`));
  assert.ok(line, `${name} missing from .dev.vars`);
  return line.slice(name.length + 1).trim();
}

/** A token signed with the installation's secret that expired an hour ago. */
export async function expiredToken(userId = 1) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ver: 0 })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .sign(new TextEncoder().encode(devVar('JWT_SECRET')));
}

/** Setup through the API when this server has not been set up yet (a file run on its own). */
async function ensureInstalled() {
  const done = await api('/api/setup-created');
  if (done.body?.data === true) return;
  const res = await api('/api/auth/application_startup', {
    body: {
      username: ADMIN.username,
      password: ADMIN.password,
      confirm_password: ADMIN.password,
      baseurl: BASE,
      email: ADMIN.email,
      timezone: 'UTC',
      license_key: await mintLicense(ADMIN.email),
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** The admin's API token (the installation's first user). */
export const adminToken = () => apiLogin(ADMIN.username, ADMIN.password);

export async function apiLogin(username, password) {
  const res = await api('/api/auth/login', { body: { username, password, loginToken: '', hash: '' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.token;
}

let counter = 0;
/** A user made through the admin API; answers its credentials. */
export async function createUserViaApi(role = 'student') {
  counter += 1;
  const name = `${role}${Date.now().toString(36)}${counter}`;
  const user = { username: name, email: `${name}@example.com`, password: 'Pass-word-123', role };
  const token = await adminToken();
  const res = await api('/api/registeruser', {
    token,
    body: { ...user, password_confirmation: user.password },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { ...user, id: res.body.data.user.id };
}

/** A user made through the admin API and signed in over it: its credentials and its API token. */
export async function userWithToken(role = 'student') {
  const user = await createUserViaApi(role);
  return { ...user, token: await apiLogin(user.username, user.password) };
}

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

/**
 * Waits until the screen has settled: no entrance or exit animation (toasts, dialogs, switches)
 * still running. Endless ones (spinners, skeletons) do not count.
 */
export async function settled(page, timeout = 5000) {
  // Two frames first: a toast or dialog starts its transition a frame after it mounts.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
        ),
    null,
    { timeout, polling: 'raf' },
  );
}

const axeSource = readFileSync(new URL('node_modules/axe-core/axe.min.js', root), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
export const PHONE = { width: 390, height: 844 };

/**
 * Runs axe-core's WCAG 2.0/2.1 A and AA rules on the page as it is and answers the violations,
 * one line each: rule id, impact, the failing elements' selectors and axe's reason.
 */
async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) {
    // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
    // govern (a <script> tag would be refused by script-src 'self' and count as a CSP violation,
    // which fails the test); axe itself needs neither eval nor new Function. So the tests check
    // the pages under their real policy, with no bypassCSP context.
    await page.evaluate(axeSource);
  }
  const violations = await page.evaluate(async (tags) => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => ({
        target: n.target.join(' '),
        why: (n.failureSummary ?? '').split('\n').slice(1).join(' ').trim(),
      })),
    }));
  }, AXE_TAGS);
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target}${n.why ? ` -- ${n.why}` : ''}`),
  );
}

/**
 * The settled screen as a picture at the test's width and again at phone width (`<name>-390.png`),
 * and the two standards every screen meets: no axe-core WCAG A/AA violation, and at 390 px the
 * page itself never scrolls sideways (wide tables scroll inside their card).
 */
export async function shot(page, name) {
  // The picture shows the settled screen, not a toast or dialog halfway through its entrance.
  await settled(page);
  await page.screenshot({ path: new URL(`${name}.png`, screenshots).pathname, fullPage: true });
  const violations = await axeViolations(page);

  const viewport = page.viewportSize();
  let widths;
  await page.setViewportSize(PHONE);
  try {
    await settled(page);
    await page.screenshot({ path: new URL(`${name}-390.png`, screenshots).pathname, fullPage: true });
    widths = await page.evaluate(pageWidths);
  } finally {
    if (viewport) await page.setViewportSize(viewport);
  }
  await settled(page);
  // Both pictures are taken, and both checks made, before the test fails: one message says all.
  const problems = violations.map((v) => `axe: ${v}`);
  if (widths.page > widths.window) {
    problems.push(
      `390 px: the page is ${widths.page} px wide; sticking out: ${widths.culprits.join(', ') || '?'}`,
    );
  }
  assert.ok(problems.length === 0, `"${name}" fails WCAG A/AA or phone width:\n${problems.join('\n')}`);
}

/**
 * Waits (charts and tables re-measure after a resize) until the page is no wider than the window,
 * else fails naming the elements that stick out.
 */
export async function expectNoSideScroll(page, timeout = 5_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const widths = await page.evaluate(pageWidths);
    if (widths.page <= widths.window) return;
    if (Date.now() >= deadline) {
      assert.fail(
        `the page is ${widths.page} px wide at ${widths.window}; sticking out: ${widths.culprits.join(', ') || '?'}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** In the page: its scroll width, and the outermost elements that make it wider than the window. */
function pageWidths() {
  const vw = window.innerWidth;
  const sticksOut = (el) => el.getBoundingClientRect().right > vw + 0.5;
  const clipped = (el) => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible' && !sticksOut(a)) return true;
    }
    return false;
  };
  const describe = (el) => {
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean) : [];
    const right = Math.round(el.getBoundingClientRect().right);
    return `${el.tagName.toLowerCase()}${cls.map((c) => `.${c}`).join('')} (right edge ${right})`;
  };
  const culprits = [...document.querySelectorAll('body *')]
    .filter((el) => sticksOut(el) && !clipped(el))
    .filter((el) => !el.parentElement || !sticksOut(el.parentElement))
    .slice(0, 8)
    .map(describe);
  return { page: document.documentElement.scrollWidth, window: vw, culprits };
}

/**
 * Asks `check` until it answers something other than undefined, null or false, and answers that;
 * fails with `message` after `timeout`. For what only the server knows (a job done, a queue
 * drained, a mail sent); what the page shows is waited for with locators and expectText.
 */
export async function until(check, message, { timeout = 10_000, every = 200 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() >= deadline) assert.fail(message);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Waits until `locator` shows exactly `expected` (trimmed), else fails with what it showed. */
export async function expectText(locator, expected, timeout = 10_000) {
  const shows = async () => (await locator.textContent({ timeout: 1000 }).catch(() => null))?.trim() ?? null;
  await until(async () => (await shows()) === expected, '', { timeout, every: 100 }).catch(() => {});
  assert.equal(await shows(), expected);
}

/** Waits until `locator`'s attribute `name` is `expected` (a key press re-renders after it returns). */
export async function expectAttr(locator, name, expected, timeout = 10_000) {
  const reads = async () => locator.getAttribute(name, { timeout: 1000 }).catch(() => null);
  await until(async () => (await reads()) === expected, '', { timeout, every: 100 }).catch(() => {});
  assert.equal(await reads(), expected);
}

/** Waits for the toast with this text, closes it and waits until it is gone. */
export async function dismissToast(page, text) {
  const t = await expectToast(page, text);
  await t
    .locator('[data-close-button]')
    .click()
    .catch(() => {});
  await t.waitFor({ state: 'detached' }).catch(() => {});
}

/** Stores the managed LiveIntent account of Settings (the fake takes any username and password). */
export async function useLiveIntentAccount(adminToken) {
  const settings = await api('/api/update-setting', {
    token: adminToken,
    body: {
      liAdvertiserId: 'e2e-adv',
      liAid: 'e2e-aid',
      liFetchEnable: '0',
      liUsername: 'li-e2e',
      liPassword: 'li-pass',
    },
  });
  assert.equal(settings.status, 200, JSON.stringify(settings.body));
}

/** Waits for the toast with this text (top right) and answers its locator. */
export async function expectToast(page, text) {
  const toast = page.locator('[data-sonner-toast]', { hasText: text });
  await toast.first().waitFor({ state: 'visible' });
  assert.equal((await toast.first().locator('[data-title]').textContent())?.trim(), text);
  return toast.first();
}

export async function expectPath(page, pathname, timeout = 10_000) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout }).catch(() => {});
  assert.equal(new URL(page.url()).pathname, pathname);
}

export const storage = (page, key) => page.evaluate((k) => window.localStorage.getItem(k), key);

export async function uiLogin(page, username, password) {
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  await page.locator('#login-password').press('Enter');
}

/**
 * A campaign link with its target (first) parameter emptied, so that a test can append its own ad
 * id: the product fills it with the source's macro or REPLACE_WITH_AD_ID (issue 27, decision 130).
 * `trackingLinks` answers the campaign link this way; a file that reads a link itself uses this.
 * @public
 */
export const emptyTarget = (url) => url.replace(/\?([^=&]+)=[^&]*/, '?$1=');

const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
/** The headers of a browser's navigation (a tracking link opened in a tab), a desktop Chrome unless `userAgent`. */
const navigation = (userAgent = CHROME_UA) => ({
  'user-agent': userAgent,
  'sec-fetch-mode': 'navigate',
  accept: 'text/html',
});

/**
 * A tracking request as a browser's navigation (`userAgent`, more `headers`), not following the
 * redirect: asserts the 302 and answers where it sends the visitor (its `clickid` is the click's).
 */
export async function navigate(url, { userAgent, headers } = {}) {
  const res = await fetch(url, { headers: { ...navigation(userAgent), ...headers }, redirect: 'manual' });
  await res.arrayBuffer();
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location'));
}

/** A campaign through POST /api/add-campaign as the owner of `token`; answers its id. */
export async function newCampaign(token, body) {
  const res = await api('/api/add-campaign', { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.campaign.campaignData.campaignId;
}

/** The value of a KPI of the statistics screen (`key`: its data-kpi, e.g. visits, revenue, roi). */
export const kpi = (page, key) => page.locator(`[data-kpi="${key}"] .kpi-value`);

/** The network's postback for a click (`query`: more parameters, each with its `&`), with the campaign's secret. */
export async function postback(clickId, secret, query = '') {
  const res = await fetch(new URL(`/postback?clickid=${clickId}${query}&secret=${secret}`, BASE));
  assert.equal(res.status, 200, await res.text());
}

/** A link the product shows (on the installation's base URL), on the test server instead. */
export const onBase = (link) => {
  const u = new URL(link);
  return new URL(`${u.pathname}${u.search}`, BASE).toString();
};

/**
 * A campaign's tracking links as the editor shows them, on the test server: `campaignUrl` with its
 * target emptied (append an ad id), `clickUrl` (the landing page's click-through link, where there is one), the
 * postback `secret`, and every link as answered (`links`).
 */
export async function trackingLinks(token, campaignId) {
  const detail = await api(`/api/campaign?campaignId=${campaignId}`, { token });
  assert.equal(detail.status, 200, JSON.stringify(detail.body));
  const links = detail.body.data.linkpixel;
  return {
    links,
    campaignUrl: onBase(emptyTarget(links.campaignURL)),
    clickUrl: links.lpofferlink_simple && onBase(links.lpofferlink_simple),
    secret: new URL(links.postback).searchParams.get('secret'),
  };
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

/** The campaign's target totals from a forced totals job: POST statistics, then poll the job. */
export async function targetTotals(token, campaignId, { timeout = 10_000 } = {}) {
  const res = await api('/api/statistics', {
    token,
    body: { campaignId, startDate: '', endDate: '', totalOnly: true, force: true },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const job = await until(
    async () => {
      const answer = await api('/api/get-target-statistics', {
        token,
        body: { uuid: res.body.data.queueId },
      });
      return answer.body?.data?.done && answer.body;
    },
    'the totals job did not finish',
    { timeout },
  );
  return job.data.data.data.targetTotal;
}
