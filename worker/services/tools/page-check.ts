import type { LinkTestWarning } from '../../../schema/tools-api';
import { type FetchLike, type OutboundPolicy, outboundFetch } from '../outbound/outbound';
import type { Settings } from '../settings/settings';

// Does a landing page link to the click-through URL? Fetched like any server-side request to a
// user-supplied address (worker/services/outbound/outbound.ts: public http(s) hosts only, by name and by
// address, redirects checked one by one, a timeout), only from the Tools screen, never from the
// tracking path.

const PAGE_CHECK_TIMEOUT_MS = 4_000;
const MAX_REDIRECTS = 3;
const MAX_BYTES = 1024 * 1024;

const trim = (route: string) => route.replace(/^\/+|\/+$/g, '');

/** The page's HTML, or why it could not be read. */
async function fetchPage(
  url: string,
  policy: OutboundPolicy,
  fetcher: typeof fetch,
): Promise<{ html: string } | { error: string }> {
  const answer = await outboundFetch(url, policy, {
    fetcher: fetcher as FetchLike,
    headers: { 'user-agent': 'EdgeTracker-LinkTester/1.0', accept: 'text/html' },
    timeoutMs: PAGE_CHECK_TIMEOUT_MS,
    maxRedirects: MAX_REDIRECTS,
    maxBytes: MAX_BYTES,
  });
  if (!answer.ok) {
    if (answer.kind === 'refused') return { error: `its address cannot be fetched (${answer.reason})` };
    if (answer.kind === 'timeout' || answer.kind === 'too_many_redirects') return { error: answer.reason };
    return { error: 'it could not be reached' };
  }
  if (answer.status >= 300) return { error: `it answered HTTP ${answer.status}` };
  return { html: answer.text };
}

/** Warnings for landing pages without a link to /{route_click}/{campaignId} (or /{route_click}?…). */
export async function checkLandingPages(
  pages: { name: string; url: string }[],
  settings: Settings,
  campaignId: number,
  policy: OutboundPolicy,
  fetcher: typeof fetch,
): Promise<LinkTestWarning[]> {
  const click = `/${trim(settings.route_click)}`.toLowerCase();
  const markers = [`${click}/${campaignId}`, `${click}?`];
  const results = await Promise.all(pages.map((page) => fetchPage(page.url, policy, fetcher)));
  const warnings: LinkTestWarning[] = [];
  results.forEach((result, i) => {
    const name = pages[i].name;
    if ('error' in result) {
      warnings.push({
        code: 'lp_unchecked',
        message: `Landing page “${name}” could not be checked for the click-through link: ${result.error}.`,
      });
      return;
    }
    const html = result.html.toLowerCase();
    if (!markers.some((m) => html.includes(m))) {
      warnings.push({
        code: 'lp_no_click_link',
        message: `Landing page “${name}” has no link to the click-through URL (${click}/${campaignId}): its visitors cannot reach an offer and no landing-page click is counted.`,
      });
    }
  });
  return warnings;
}
