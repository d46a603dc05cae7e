import type { RequestUrl } from './request-url';

// The first-party cookie that carries a visitor's click id per campaign, the fallback when a
// landing page or a pixel drops the click id parameter (docs/tracking.md).

export const COOKIE_PREFIX = 'etk_';
const COOKIE_MAX_AGE = 60 * 60 * 24 * 90;

export function cookieValue(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function clickCookie(url: RequestUrl, campaignId: number, clickId: string): string {
  const secure = url.protocol === 'https:';
  // Cross-site pixels and scripts need SameSite=None, which browsers accept only when Secure.
  return `${COOKIE_PREFIX}${campaignId}=${clickId}; Max-Age=${COOKIE_MAX_AGE}; Path=/; HttpOnly; ${
    secure ? 'Secure; SameSite=None' : 'SameSite=Lax'
  }`;
}
