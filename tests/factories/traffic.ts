import { env } from 'cloudflare:workers';
import { workerFetch } from '../worker-fetch';

export const DESKTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
export const IPAD_UA =
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** A browser navigation to a tracking URL (path and query), not following redirects. */
export function hit(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {},
) {
  return workerFetch(`http://tracker.test${path}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    body: init.body,
    headers: { 'user-agent': DESKTOP_UA, 'sec-fetch-mode': 'navigate', accept: 'text/html', ...init.headers },
  });
}

/** The click id a tracking answer redirects with (the `clickid` of its Location). */
export function clickIdOf(res: Response): string {
  return new URL(res.headers.get('location')!).searchParams.get('clickid')!;
}

/** Opens the campaign's link for `target` as a browser would; answers the click id it hands out. */
export async function visitLink(campaignId: number, target: string): Promise<string> {
  const res = await hit(`/go/${campaignId}?tid=${target}`);
  if (res.status !== 302) throw new Error(`visit failed: ${res.status} ${await res.text()}`);
  return clickIdOf(res);
}

/** The network's postback for a click (`query` without the clickid), signed with its campaign's secret. */
export async function postback(clickId: string, query: string) {
  return hit(`/postback?clickid=${clickId}&${query}&secret=${await postbackSecret(clickId)}`);
}

/**
 * The postback secret of a campaign, given by id or by one of its click ids: only it converts
 * the campaign's clicks (docs/tracking.md "Postback secret", decision 120).
 */
export async function postbackSecret(of: number | string): Promise<string> {
  const { expectedSecret } = await import('../../worker/services/postbacks/postback-secret');
  const { parseClickId } = await import('../../worker/services/hot-path/click-ids');
  const campaignId = typeof of === 'number' ? of : parseClickId(env, of)?.campaignId;
  if (!campaignId) throw new Error(`not a click id: ${of}`);
  return expectedSecret(env, campaignId);
}
