// The pictures of a screen and the two standards every screen meets: axe-core's WCAG 2 A/AA rules
// and, at phone width, no sideways scroll of the page itself.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { settled } from './expect.mjs';

const root = new URL('../../../', import.meta.url);
const screenshots = new URL('../screenshots/', import.meta.url);
mkdirSync(screenshots, { recursive: true });

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
