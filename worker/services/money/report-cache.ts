import { sha256Hex } from '../../lib/crypto';
import { errorBody } from '../../lib/errors';

// The public rotator report at the edge (docs/decisions/053): answers are kept in the data
// centre's Cache API for 60 s, keyed by offer, a hash of the email and the period. A hit
// answers from the cache alone: no D1 read, no settings read.

export const REPORT_TTL_SECONDS = 60;
const CACHE_HOST = 'https://rotator-report.cache.internal';

/** The one 404 of the report: an unknown offer and a wrong email answer the same bytes. */
export function reportNotFound(): Response {
  return new Response(JSON.stringify(errorBody('Not found.')), {
    status: 404,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

function clientHeaders(etag: string): Headers {
  return new Headers({
    'content-type': 'application/json',
    // The email is part of the URL, so a shared cache could only ever serve it to the same URL;
    // still, the participant's numbers stay in the browser's cache only.
    'cache-control': `private, max-age=${REPORT_TTL_SECONDS}`,
    etag,
  });
}

function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match');
  return !!header && header.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`);
}

/**
 * Answers `request` from the cache when it can; else runs `compute` (null means 404), keeps a
 * 200 answer for REPORT_TTL_SECONDS and answers it with Cache-Control and ETag headers.
 */
export async function cachedReport(
  request: Request,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  key: { offer: string; email: string; period: string },
  compute: () => Promise<unknown | null>,
): Promise<Response> {
  const emailHash = await sha256Hex(key.email.trim().toLowerCase());
  const cacheKey = `${CACHE_HOST}/${encodeURIComponent(key.offer)}/${emailHash}/${encodeURIComponent(key.period)}`;
  const cache = caches.default;
  const hit = await cache.match(cacheKey);
  if (hit) {
    const etag = hit.headers.get('etag') ?? '';
    const headers = clientHeaders(etag);
    headers.set('x-report-cache', 'hit');
    if (notModified(request, etag)) return new Response(null, { status: 304, headers });
    return new Response(hit.body, { status: 200, headers });
  }
  const data = await compute();
  if (data === null) return reportNotFound();
  const body = JSON.stringify({ data });
  const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`;
  const stored = new Response(body, {
    headers: {
      'content-type': 'application/json',
      'cache-control': `public, max-age=${REPORT_TTL_SECONDS}`,
      etag,
    },
  });
  ctx.waitUntil(cache.put(cacheKey, stored));
  const headers = clientHeaders(etag);
  headers.set('x-report-cache', 'miss');
  if (notModified(request, etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers });
}
