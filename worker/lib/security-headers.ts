import { createMiddleware } from 'hono/factory';

// One header set for every answer but the public tracking routes (docs/decisions/040): the
// API, the SPA's pages answered through the ASSETS binding, and uploaded files. The built
// asset files (/assets/*) never reach the Worker, so web/public/_headers repeats these values
// and a test keeps the two equal.

/** No inline script and no inline style: an injected script could read the bearer token in localStorage. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The conversion tracker page (spec 3 §2) fires LiveIntent's conversion tag, a script of theirs,
 * so that one page (opened directly, as its own window) may load it and let it report back;
 * every other page keeps script-src 'self'.
 */
const LIVEINTENT_TAG_ORIGIN = 'https://b-code.liadm.com';
const CONVERSION_TRACKER_CSP = CONTENT_SECURITY_POLICY.replace(
  "script-src 'self'",
  `script-src 'self' ${LIVEINTENT_TAG_ORIGIN}`,
)
  .replace("img-src 'self' data: blob:", "img-src 'self' data: blob: https://*.liadm.com")
  .replace("connect-src 'self'", "connect-src 'self' https://*.liadm.com");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

function setAll(headers: Headers) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers.set(name, value);
}

/** The answer with the security headers set; the ASSETS binding's answers are immutable, so a copy. */
export function withSecurityHeaders(response: Response, csp = CONTENT_SECURITY_POLICY): Response {
  const copy = new Response(response.body, response);
  setAll(copy.headers);
  copy.headers.set('content-security-policy', csp);
  return copy;
}

/** The CSP of an SPA page: the conversion tracker page may load LiveIntent's tag. */
export function pagePolicy(url: string): string {
  return new URL(url).pathname.replace(/\/+$/, '') === '/conversion-tracker'
    ? CONVERSION_TRACKER_CSP
    : CONTENT_SECURITY_POLICY;
}

export const securityHeaders = createMiddleware(async (c, next) => {
  await next();
  try {
    setAll(c.res.headers);
  } catch {
    // Immutable headers (a fetched answer passed through): answer a copy instead.
    c.res = withSecurityHeaders(c.res);
  }
});
