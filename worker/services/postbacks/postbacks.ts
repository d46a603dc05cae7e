import { microsToDecimalString } from '../../../schema/money';
import type { Env } from '../../env';
import { type FetchLike, outboundFetch, outboundPolicy, refusedByName } from '../outbound/outbound';
import type { HostResolver } from '../outbound/postback-dns';

// Outbound postbacks to traffic sources (docs/tracking.md "Postbacks to the traffic source").
// The URL is built from the campaign's template and user data, so it is checked like any
// server-side request to a user-supplied address (worker/services/outbound/outbound.ts, decision 122):
// http(s) only, no IP literals, no private, local or metadata hosts by name or by address, no
// redirects followed, a timeout.

export const POSTBACK_TIMEOUT_MS = 5_000;
/** After this many delivery attempts a postback is marked failed. */
export const MAX_POSTBACK_ATTEMPTS = 5;

/** Why `raw` may not be called, judged by its text (the editor's save-time check); null when it may. */
export const unsafePostbackReason = refusedByName;

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
  env: Pick<Env, 'DB' | 'DNS_RESOLVER_URL' | 'ENVIRONMENT' | 'OUTBOUND_ALLOW_HOSTS'>,
  logId: number,
  fetcher: typeof fetch = fetch,
  resolve?: HostResolver,
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

  if (row.postback_enabled !== 1) {
    await save('blocked', null, 'postbacks are turned off');
    return 'blocked';
  }
  const answer = await outboundFetch(url, outboundPolicy(env, resolve), {
    fetcher: fetcher as FetchLike,
    headers: { 'user-agent': 'EdgeTracker-Postback/1.0' },
    timeoutMs: POSTBACK_TIMEOUT_MS,
    maxRedirects: 0,
    maxBytes: 0,
  });
  if (!answer.ok && answer.kind === 'refused') {
    await save('blocked', null, answer.reason);
    return 'blocked';
  }
  const status = answer.ok ? answer.status : null;
  const error = answer.ok ? '' : answer.errorName ? `${answer.errorName}: ${answer.reason}` : answer.reason;
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
