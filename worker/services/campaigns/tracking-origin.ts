import type { Settings } from '../settings/settings';

/** The origin tracking links are built on: the custom domain, else the base URL, else the request's. */
export function trackingOrigin(settings: Settings, requestOrigin: string): string {
  const raw = settings.custom_domain || settings.base_url || requestOrigin;
  const withScheme = /^https?:\/\//i.test(raw) ? raw : `https://${raw}`;
  try {
    return new URL(withScheme).origin;
  } catch {
    return requestOrigin;
  }
}
