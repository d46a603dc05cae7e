// Waits and expectations: a value only the server knows (`until`), and what the page shows (its
// text, attributes, path and toasts, a KPI of the statistics screen), each failing with what was
// actually there.
import assert from 'node:assert/strict';

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

/** The value of a KPI of the statistics screen (`key`: its data-kpi, e.g. visits, revenue, roi). */
export const kpi = (page, key) => page.locator(`[data-kpi="${key}"] .kpi-value`);
