import type { Platform } from '../../schema/integrations';
import type { Env } from '../env';

// The one way a platform client talks HTTP (docs/decisions/073): a timeout on every request, the
// answer read as JSON or refused as malformed, and every failure turned into a PlatformError that
// says whether a retry can help and after how long. Clients never retry by themselves: a person
// may be waiting; the queued sync is what retries (worker/jobs/platform-sync.ts).

export const PLATFORM_LABELS: Record<Platform, string> = {
  facebook: 'Facebook',
  tiktok: 'TikTok',
  taboola: 'Taboola',
  mediago: 'MediaGo',
  liveintent: 'LiveIntent',
};

export type PlatformErrorKind =
  /** The token or credentials are refused (expired, revoked, wrong). A retry does not help. */
  | 'auth'
  /** Too many requests: retry after `retryAfterSeconds`. */
  | 'rate_limit'
  /** The platform failed (5xx) or could not be reached: retry with backoff. */
  | 'server'
  /** No answer within the timeout: retry with backoff. */
  | 'timeout'
  /** An answer that is not the JSON the platform documents. */
  | 'malformed'
  /** The platform refused the request itself (bad id, missing field). */
  | 'request'
  /** Nothing is stored to call the platform with. */
  | 'not_connected';

export class PlatformError extends Error {
  constructor(
    readonly platform: Platform,
    readonly kind: PlatformErrorKind,
    /** The platform's own words, or ours when it said nothing readable. */
    readonly detail: string,
    readonly status = 0,
    readonly retryAfterSeconds: number | null = null,
    /** The platform's error code (Facebook 190, TikTok 40105...) and trace id, when it sent them. */
    readonly code: string | number | null = null,
    readonly traceId: string | null = null,
  ) {
    super(`${PLATFORM_LABELS[platform]}: ${detail}`);
    this.name = 'PlatformError';
  }

  get retryable(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'server' || this.kind === 'timeout';
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function platformTimeoutMs(env: Pick<Env, 'PLATFORM_TIMEOUT_MS'>): number {
  const n = Number(env.PLATFORM_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_TIMEOUT_MS;
}

/** Retry-After as seconds (it may also be an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export type PlatformAnswer = { status: number; headers: Headers; body: unknown };

export type HttpContext = Pick<Env, 'PLATFORM_TIMEOUT_MS' | 'PLATFORM_FAKES'>;

/**
 * One request to a platform. Answers the parsed JSON of any status (the caller reads the
 * platform's error shape); throws PlatformError for a timeout, an unreachable host, or an answer
 * that is not JSON.
 */
export async function platformRequest(
  env: HttpContext,
  platform: Platform,
  url: string,
  init: RequestInit = {},
): Promise<PlatformAnswer> {
  const ms = platformTimeoutMs(env);
  const request = new Request(url, { ...init, signal: AbortSignal.timeout(ms) });
  let res: Response;
  try {
    // The fakes are bound in tests (docs/decisions/070); production has no such binding.
    res = env.PLATFORM_FAKES ? await env.PLATFORM_FAKES.fetch(request) : await fetch(request);
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new PlatformError(platform, 'timeout', `No answer within ${Math.round(ms / 100) / 10} s.`);
    }
    throw new PlatformError(platform, 'server', 'The platform could not be reached.');
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    throw new PlatformError(
      platform,
      'timeout',
      `No answer within ${Math.round(ms / 100) / 10} s.`,
      res.status,
    );
  }
  const retryAfter = retryAfterSeconds(res.headers.get('retry-after'));
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    if (res.status === 429)
      throw new PlatformError(platform, 'rate_limit', 'Too many requests.', 429, retryAfter);
    if (res.status >= 500)
      throw new PlatformError(platform, 'server', `The platform answered ${res.status}.`, res.status);
    throw new PlatformError(
      platform,
      'malformed',
      'The platform sent an answer that could not be read.',
      res.status,
    );
  }
  return { status: res.status, headers: res.headers, body };
}

/** A refusal as the platform words it: its message, and its error code and request id when sent. */
export type PlatformRefusal = { message: string; code?: string | number | null; requestId?: string | null };

/**
 * One call to a platform whose errors follow the HTTP status and whose answers are objects: a
 * status of 400 or more throws the platform's refusal (its kind by status, with Retry-After), an
 * answer that is not an object throws `malformed`; otherwise the answer.
 */
export async function platformObject(
  env: HttpContext,
  platform: Platform,
  url: string,
  init: RequestInit | undefined,
  refusal: (body: unknown, status: number) => PlatformRefusal,
): Promise<Record<string, unknown>> {
  const { status, headers, body } = await platformRequest(env, platform, url, init);
  if (status >= 400) {
    const r = refusal(body, status);
    throw new PlatformError(
      platform,
      kindOfStatus(status),
      r.message,
      status,
      retryAfterSeconds(headers.get('retry-after')),
      r.code ?? null,
      r.requestId ?? null,
    );
  }
  if (!isObject(body))
    throw new PlatformError(
      platform,
      'malformed',
      `${PLATFORM_LABELS[platform]} sent an answer that could not be read.`,
      status,
    );
  return body;
}

/** The kind of failure an HTTP status means, for platforms whose errors follow it. */
export function kindOfStatus(status: number): PlatformErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'request';
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A platform's campaign list (items with campaign_id and campaign_name) for the editor's picker. */
export function campaignsOf(platform: Platform, list: unknown): { id: string; name: string }[] {
  if (!Array.isArray(list))
    throw new PlatformError(
      platform,
      'malformed',
      `${PLATFORM_LABELS[platform]} sent campaigns without a list.`,
    );
  return list
    .filter(isObject)
    .map((c) => ({ id: String(c.campaign_id ?? ''), name: String(c.campaign_name ?? '') }));
}

/** A platform's decimal amount ("12.34", 12.34) as integer micro-units; NaN when it is not one. */
export function toMicros(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^-?\d+(\.\d+)?$/.test(text)) return Number.NaN;
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  const micros = Number(whole) * 1_000_000 + Number(fraction.slice(0, 6).padEnd(6, '0'));
  return text.startsWith('-') ? -micros : micros;
}

/** A platform's count ("123" or 123) as an integer; NaN when it is not one. */
export function toCount(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : Number.NaN;
}

/** One day of one ad, as every platform's report is mapped for the cost import and ad records. */
export type AdDay = {
  date: string;
  adId: string;
  adName: string;
  impressions: number;
  clicks: number;
  spendMicros: number;
  /** The account's currency (ISO 4217), when the platform's answer gives it. */
  currency?: string;
  /** The time zone the report's days are in, when the platform's answer or request sets it. */
  timeZone?: string;
};

/**
 * What a client's report answers for the cost import: the rows, and the ad account's currency
 * (ISO 4217) and time zone (IANA) when the platform says them. Both are optional: a client that
 * cannot tell leaves them out, and its spend is then taken as USD on the installation's days
 * (worker/services/integrations/cost-terms.ts, docs/decisions/147). The same goes for
 * `credentialExpiresAt` (decision 146).
 */
export type AdReport = {
  rows: AdDay[];
  currency?: string;
  timeZone?: string;
  /** When the credential used runs out (ms since the epoch), for the alert before it does. */
  credentialExpiresAt?: number | null;
};

/** Checks a mapped row; a row with a missing or non-numeric field means the answer is malformed. */
export function checkedRow(platform: Platform, row: AdDay): AdDay {
  const ok =
    /^\d{4}-\d{2}-\d{2}$/.test(row.date) &&
    row.adId !== '' &&
    Number.isFinite(row.impressions) &&
    Number.isFinite(row.clicks) &&
    Number.isFinite(row.spendMicros);
  if (!ok) throw new PlatformError(platform, 'malformed', 'The report has a row that could not be read.');
  return row;
}
