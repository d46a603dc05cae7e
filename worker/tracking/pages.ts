import type { RedirectType } from '../../schema/campaigns';

// The small answers of the tracking routes. Nothing here is cached by browsers or proxies:
// every click must reach the Worker.

const NO_STORE = 'no-store, no-cache, must-revalidate, max-age=0';

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function html(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': NO_STORE, ...headers },
  });
}

/** The plain page for a link that cannot serve anyone: unknown, deleted, inactive or empty campaign. */
export function linkNotAvailable(): Response {
  return html(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
      '<title>Link not available</title></head><body><h1>Link not available</h1>' +
      '<p>This link is not available.</p></body></html>',
    404,
  );
}

/** A tracking request that failed on our side (the database unreachable): try again later. */
export function temporarilyUnavailable(): Response {
  return html(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
      '<title>Temporarily unavailable</title></head><body><h1>Temporarily unavailable</h1>' +
      '<p>This link is temporarily unavailable. Please try again in a moment.</p></body></html>',
    503,
    { 'retry-after': '5' },
  );
}

function metaRefreshPage(url: string): string {
  const safe = escapeHtml(url);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
    `<meta http-equiv="refresh" content="0;url=${safe}"><title>Redirecting</title></head>` +
    `<body><a href="${safe}">Continue</a></body></html>`
  );
}

/**
 * Sends the visitor on: a 302, a meta refresh, or a double meta refresh whose first page
 * refreshes to `hop` (our own URL, signed), which refreshes to the destination.
 */
export function redirectResponse(
  type: RedirectType,
  url: string,
  hop?: string,
  headers: Record<string, string> = {},
): Response {
  if (type === 'meta') return html(metaRefreshPage(url), 200, headers);
  if (type === 'double_meta' && hop) return html(metaRefreshPage(hop), 200, headers);
  return new Response(null, {
    status: 302,
    headers: { location: url, 'cache-control': NO_STORE, ...headers },
  });
}

/** Second page of a double meta refresh: the referrer is gone by now. */
export function metaRefresh(url: string): Response {
  return html(metaRefreshPage(url));
}

const GIF = Uint8Array.from(atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'), (ch) =>
  ch.charCodeAt(0),
);

/** The 1x1 transparent image of the conversion pixel. */
export function pixel(status = 200, headers: Record<string, string> = {}): Response {
  return new Response(GIF, {
    status,
    headers: { 'content-type': 'image/gif', 'cache-control': NO_STORE, ...headers },
  });
}

export function iframePage(status = 200, headers: Record<string, string> = {}): Response {
  return html(
    '<!doctype html><html><head><meta charset="utf-8"><title></title></head><body></body></html>',
    status,
    headers,
  );
}

export function script(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      'content-type': 'application/javascript; charset=utf-8',
      'cache-control': NO_STORE,
      ...headers,
    },
  });
}

export function noStoreHeaders(): Record<string, string> {
  return { 'cache-control': NO_STORE };
}
