import type { LinkTestWarning } from '../../../schema/tools-api';
import { unsafePostbackReason } from '../postbacks';
import type { Settings } from '../settings';

// Does a landing page link to the click-through URL? Fetched like any server-side request to a
// user-supplied address (the postback rules: public http(s) hosts only, redirects checked one by
// one, a timeout), only from the Tools screen, never from the tracking path.

export const PAGE_CHECK_TIMEOUT_MS = 4_000;
const MAX_REDIRECTS = 3;
const MAX_BYTES = 1024 * 1024;

const trim = (route: string) => route.replace(/^\/+|\/+$/g, '');

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    text += decoder.decode(value, { stream: true });
    if (bytes >= MAX_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return text;
}

/** The page's HTML, or why it could not be read. */
async function fetchPage(url: string, fetcher: typeof fetch): Promise<{ html: string } | { error: string }> {
  let current = url;
  const signal = AbortSignal.timeout(PAGE_CHECK_TIMEOUT_MS);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const unsafe = unsafePostbackReason(current);
    if (unsafe) return { error: `its address cannot be fetched (${unsafe})` };
    let response: Response;
    try {
      response = await fetcher(current, {
        method: 'GET',
        redirect: 'manual',
        signal,
        headers: { 'user-agent': 'EdgeTracker-LinkTester/1.0', accept: 'text/html' },
      });
    } catch (err) {
      return {
        error:
          err instanceof Error && err.name === 'TimeoutError'
            ? 'no answer within 4 s'
            : 'it could not be reached',
      };
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      current = new URL(location, current).toString();
      continue;
    }
    if (response.status >= 400) {
      await response.body?.cancel();
      return { error: `it answered HTTP ${response.status}` };
    }
    return { html: await readCapped(response) };
  }
  return { error: 'too many redirects' };
}

/** Warnings for landing pages without a link to /{route_click}/{campaignId} (or /{route_click}?…). */
export async function checkLandingPages(
  pages: { name: string; url: string }[],
  settings: Settings,
  campaignId: number,
  fetcher: typeof fetch,
): Promise<LinkTestWarning[]> {
  const click = `/${trim(settings.route_click)}`.toLowerCase();
  const markers = [`${click}/${campaignId}`, `${click}?`];
  const results = await Promise.all(pages.map((page) => fetchPage(page.url, fetcher)));
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
