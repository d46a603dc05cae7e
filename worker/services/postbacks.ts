import { microsToDecimalString } from '../../schema/money';
import type { Env } from '../env';
import { checkResolvedHost, dohResolver, type HostResolver } from './postback-dns';

// Outbound postbacks to traffic sources (docs/tracking.md "Postbacks to the traffic source").
// The URL is built from the campaign's template and user data, so it is checked like any
// server-side request to a user-supplied address: http(s) only, no IP literals, no private,
// local or metadata host names, no redirects followed, a timeout.

export const POSTBACK_TIMEOUT_MS = 5_000;
/** After this many delivery attempts a postback is marked failed. */
export const MAX_POSTBACK_ATTEMPTS = 5;

const BLOCKED_HOSTS = new Set([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);
const BLOCKED_SUFFIXES = [
  '.localhost',
  '.local',
  '.internal',
  '.intranet',
  '.lan',
  '.home.arpa',
  '.corp',
  '.private',
];

/** Why `raw` may not be called, or null when it may. */
export function unsafePostbackReason(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https are allowed';
  if (url.username || url.password) return 'credentials in the URL are not allowed';
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (!host) return 'no host';
  // IPv6 literals come bracketed; IPv4 in any spelling (decimal, octal, hex, short forms) is
  // normalised by the URL parser to dotted decimal, so one check covers them all.
  if (host.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return 'IP addresses are not allowed';
  if (!host.includes('.')) return 'single-label host names are not allowed';
  if (BLOCKED_HOSTS.has(host) || BLOCKED_SUFFIXES.some((s) => host.endsWith(s)))
    return 'private host names are not allowed';
  return null;
}

export type PostbackValues = {
  clickId: string;
  payoutMicros: number;
  target: string;
  keyword: string;
  transactionId: string;
  event: string;
  campaignId: number;
  offerId: number;
  landingId: number;
  country: string;
  device: string;
  /** Extra-token values by parameter name. */
  tokens: Record<string, string>;
};

/** The template with its macros ({clickid}, {payout}, {target}, {txid}, {event}, ...) filled, URL-encoded. */
export function buildPostbackUrl(template: string, v: PostbackValues): string {
  const macros: Record<string, string> = {
    clickid: v.clickId,
    payout: microsToDecimalString(v.payoutMicros),
    target: v.target,
    keyword: v.keyword,
    txid: v.transactionId,
    transaction_id: v.transactionId,
    event: v.event,
    campaignid: String(v.campaignId),
    offerid: String(v.offerId),
    landingid: String(v.landingId),
    country: v.country,
    device: v.device,
  };
  return template.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => {
    const key = name.toLowerCase();
    if (key in macros) return encodeURIComponent(macros[key]);
    if (name in v.tokens) return encodeURIComponent(v.tokens[name]);
    return whole;
  });
}

type LogRow = {
  id: number;
  status: string;
  attempts: number;
  click_id: string;
  payout_micros: number | null;
  target: string;
  keyword: string;
  transaction_id: string;
  event: string;
  campaign_id: number;
  offer_id: number;
  landing_id: number;
  country: string;
  device: string;
  postback: string;
  postback_enabled: number;
  tokens: string;
  [token: string]: unknown;
};

const LOAD = `SELECT p.id, p.status, p.attempts, c.click_id, c.payout_micros, c.target, c.keyword, c.transaction_id,
    c.event, c.campaign_id, c.offer_id, c.landing_id, c.country, c.device, k.postback, k.postback_enabled,
    (SELECT json_group_object(t.parameter, CASE t.slot ${Array.from({ length: 20 }, (_, i) => `WHEN ${i + 1} THEN c.t${i + 1}`).join(' ')} END)
      FROM extra_tokens t WHERE t.campaign_id = c.campaign_id AND t.deleted = 0) AS tokens
  FROM postback_log p JOIN conversions c ON c.id = p.conversion_id JOIN campaigns k ON k.id = c.campaign_id
  WHERE p.id = ?1`;

export type PostbackOutcome = 'sent' | 'failed' | 'blocked' | 'retry' | 'skipped';

/**
 * Delivers one logged postback and records the outcome. `retry` means the caller should try
 * again later (network error, timeout, 5xx, 408, 429) and is answered only while attempts remain.
 */
export async function deliverPostback(
  env: Pick<Env, 'DB' | 'DNS_RESOLVER_URL'>,
  logId: number,
  fetcher: typeof fetch = fetch,
  resolve: HostResolver = dohResolver(env.DNS_RESOLVER_URL || undefined),
): Promise<PostbackOutcome> {
  const row = await env.DB.prepare(LOAD).bind(logId).first<LogRow>();
  if (row?.status !== 'pending') return 'skipped';
  const tokens: Record<string, string> = {};
  for (const [k, v] of Object.entries(JSON.parse(row.tokens ?? '{}') as Record<string, string | null>)) {
    if (v !== null) tokens[k] = v;
  }
  const url = buildPostbackUrl(row.postback, {
    clickId: row.click_id,
    payoutMicros: row.payout_micros ?? 0,
    target: row.target,
    keyword: row.keyword,
    transactionId: row.transaction_id,
    event: row.event,
    campaignId: row.campaign_id,
    offerId: row.offer_id,
    landingId: row.landing_id,
    country: row.country,
    device: row.device,
    tokens,
  });
  const attempts = row.attempts + 1;
  const save = (status: string, responseStatus: number | null, error: string) =>
    env.DB.prepare(
      `UPDATE postback_log SET status = ?2, attempts = ?3, response_status = ?4, error = ?5, url = ?6,
        updated_at = ?7 WHERE id = ?1`,
    )
      .bind(logId, status, attempts, responseStatus, error.slice(0, 500), url.slice(0, 2000), Date.now())
      .run();

  const unsafe = row.postback_enabled === 1 ? unsafePostbackReason(url) : 'postbacks are turned off';
  if (unsafe) {
    await save('blocked', null, unsafe);
    return 'blocked';
  }
  let status: number | null = null;
  let error = '';
  const resolved = await checkResolvedHost(new URL(url).hostname, resolve);
  if (!resolved.ok && resolved.blocked) {
    await save('blocked', null, resolved.reason);
    return 'blocked';
  }
  if (!resolved.ok) error = resolved.reason;
  else
    try {
      const response = await fetcher(url, {
        method: 'GET',
        redirect: 'manual',
        signal: AbortSignal.timeout(POSTBACK_TIMEOUT_MS),
        headers: { 'user-agent': 'EdgeTracker-Postback/1.0' },
      });
      status = response.status;
      await response.body?.cancel();
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    }
  // A redirect is an answer: the traffic source received the call (redirects are never followed).
  if (status !== null && status < 400) {
    await save('sent', status, '');
    return 'sent';
  }
  const retryable = status === null || status >= 500 || status === 408 || status === 429;
  if (retryable && attempts < MAX_POSTBACK_ATTEMPTS) {
    await save('pending', status, error || `HTTP ${status}`);
    return 'retry';
  }
  await save('failed', status, error || `HTTP ${status}`);
  return 'failed';
}

/** Hands postback ids to the postback queue; pending rows missed here are re-sent by the sweeper. */
export async function enqueuePostbacks(env: Pick<Env, 'POSTBACK_QUEUE'>, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 100) {
    await env.POSTBACK_QUEUE.sendBatch(
      ids.slice(i, i + 100).map((id) => ({ body: { id }, contentType: 'json' })),
    );
  }
}

/** Pending postbacks not touched for `olderThanMs`: the queue message was lost or never sent. */
export async function stalePostbackIds(
  env: Pick<Env, 'DB'>,
  olderThanMs: number,
  now = Date.now(),
): Promise<number[]> {
  const { results } = await env.DB.prepare(
    `SELECT id FROM postback_log WHERE status = 'pending' AND updated_at < ?1 ORDER BY id LIMIT 500`,
  )
    .bind(now - olderThanMs)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}
