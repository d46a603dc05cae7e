import { sha256Hex } from '../../lib/crypto';
import { errorBody } from '../../lib/errors';

// The public rotator report at the edge (docs/decisions/053): answers are kept for 60 s, first
// in the isolate's memory, then in the data centre's Cache API, keyed by offer, the email (a
// hash of it in the Cache API) and the period. A hit answers from a cache alone: no D1 read, no
// settings read.

const REPORT_TTL_SECONDS = 60;
const CACHE_HOST = 'https://rotator-report.cache.internal';

// The isolate tier: an answer read a moment ago by the same isolate skips even the Cache API
// lookup. Bounded, oldest first out; an entry never outlives the Cache API's copy.
type Kept = { body: string; etag: string; expires: number };
const MEMORY_MAX = 500;
const memory = new Map<string, Kept>();

/** Empties the isolate tier (tests read the Cache API tier through it). */
export function forgetReportMemory(): void {
  memory.clear();
}

function remember(key: string, kept: Kept): void {
  memory.delete(key);
  if (memory.size >= MEMORY_MAX) {
    const oldest = memory.keys().next().value;
    if (oldest !== undefined) memory.delete(oldest);
  }
  memory.set(key, kept);
}

function answerKept(request: Request, kept: Kept, source: string): Response {
  const headers = clientHeaders(kept.etag);
  headers.set('x-report-cache', source);
  if (notModified(request, kept.etag)) return new Response(null, { status: 304, headers });
  return new Response(kept.body, { status: 200, headers });
}

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
  const email = key.email.trim().toLowerCase();
  const memoryKey = `${key.offer}|${key.period}|${email}`;
  const now = Date.now();
  const inMemory = memory.get(memoryKey);
  if (inMemory && inMemory.expires > now) return answerKept(request, inMemory, 'hit');

  const cacheKey = `${CACHE_HOST}/${encodeURIComponent(key.offer)}/${await sha256Hex(email)}/${encodeURIComponent(key.period)}`;
  const cache = caches.default;
  const hit = await cache.match(cacheKey);
  if (hit) {
    const kept = {
      body: await hit.text(),
      etag: hit.headers.get('etag') ?? '',
      expires: Math.min(Number(hit.headers.get('x-report-expires')) || 0, now + REPORT_TTL_SECONDS * 1000),
    };
    remember(memoryKey, kept);
    return answerKept(request, kept, 'hit');
  }
  const data = await compute();
  if (data === null) return reportNotFound();
  const body = JSON.stringify({ data });
  const kept = {
    body,
    etag: `"${(await sha256Hex(body)).slice(0, 32)}"`,
    expires: now + REPORT_TTL_SECONDS * 1000,
  };
  const stored = new Response(body, {
    headers: {
      'content-type': 'application/json',
      'cache-control': `public, max-age=${REPORT_TTL_SECONDS}`,
      etag: kept.etag,
      'x-report-expires': String(kept.expires),
    },
  });
  ctx.waitUntil(cache.put(cacheKey, stored));
  remember(memoryKey, kept);
  return answerKept(request, kept, 'miss');
}
