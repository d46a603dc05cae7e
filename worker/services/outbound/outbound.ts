import type { Env } from '../../env';
import { checkResolvedHost, dohResolver, type HostResolver } from './postback-dns';

// The one way the server calls an address a user gave (docs/decisions/122): landing-page reads,
// the link tester's page check, postbacks to traffic sources, the operator's calls to student
// installations. http(s) only, public host names only (checked by name, then by every address the
// name resolves to), each redirect checked again before it is followed, at most a few of them,
// one deadline over the whole exchange, and a cap on the body read.

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

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

/** What a check answers: nothing to say, or why the address is refused. */
type NameCheck = { host: string; reason: string | null };

function checkName(raw: string, trusted: ReadonlySet<string>): NameCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { host: '', reason: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { host: '', reason: 'only http and https are allowed' };
  if (url.username || url.password) return { host: '', reason: 'credentials in the URL are not allowed' };
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (!host) return { host, reason: 'no host' };
  if (trusted.has(host)) return { host, reason: null };
  // IPv6 literals come bracketed; IPv4 in any spelling (decimal, octal, hex, short forms) is
  // normalised by the URL parser to dotted decimal, so one check covers them all.
  if (host.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host))
    return { host, reason: 'IP addresses are not allowed' };
  if (!host.includes('.')) return { host, reason: 'single-label host names are not allowed' };
  if (BLOCKED_HOSTS.has(host) || BLOCKED_SUFFIXES.some((s) => host.endsWith(s)))
    return { host, reason: 'private host names are not allowed' };
  return { host, reason: null };
}

/** Why `raw` may not be called, judged by its text alone (save-time checks); null when it may. */
export function refusedByName(raw: string): string | null {
  return checkName(raw, new Set()).reason;
}

/** How the server may reach out: the resolver, and the hosts trusted in development and tests. */
export type OutboundPolicy = { resolve: HostResolver; trusted: ReadonlySet<string> };

type PolicyEnv = Pick<Env, 'DNS_RESOLVER_URL' | 'ENVIRONMENT' | 'OUTBOUND_ALLOW_HOSTS'>;

/**
 * The installation's policy. OUTBOUND_ALLOW_HOSTS (host names, comma-separated) is honoured only
 * when ENVIRONMENT is development or test: unset ENVIRONMENT is production, which trusts nothing.
 */
export function outboundPolicy(env: PolicyEnv, resolve?: HostResolver): OutboundPolicy {
  const local = env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'test';
  const trusted = new Set(
    local
      ? (env.OUTBOUND_ALLOW_HOSTS ?? '')
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean)
      : [],
  );
  return { resolve: resolve ?? dohResolver(env.DNS_RESOLVER_URL || undefined), trusted };
}

export type AddressCheck = { ok: true } | { ok: false; blocked: boolean; reason: string };

/**
 * Checks an address by name, then by what its host resolves to. `blocked` is a refusal; a failed
 * lookup is not (it may be retried, and the call is not made).
 */
export async function checkAddress(raw: string, policy: OutboundPolicy): Promise<AddressCheck> {
  const { host, reason } = checkName(raw, policy.trusted);
  if (reason) return { ok: false, blocked: true, reason };
  if (policy.trusted.has(host)) return { ok: true };
  return checkResolvedHost(host, policy.resolve);
}

export type OutboundOptions = {
  /** The network; tests hand in stand-ins. */
  fetcher?: FetchLike;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** One deadline over the lookups, every hop and the body. */
  timeoutMs: number;
  /** Redirects followed (each checked again); 0 answers a redirect as it is. */
  maxRedirects: number;
  /** Bytes of the body read; 0 reads none. */
  maxBytes: number;
  /** Ends the exchange early (the caller's own timeout). */
  signal?: AbortSignal;
};

type OutboundFailure =
  /** The address, or a redirect's, is not a public http(s) address. */
  | 'refused'
  /** Its host name could not be resolved. */
  | 'unresolved'
  | 'timeout'
  | 'network'
  | 'too_many_redirects';

export type OutboundAnswer =
  | { ok: true; url: string; status: number; headers: Headers; text: string; truncated: boolean }
  | { ok: false; url: string; kind: OutboundFailure; reason: string; errorName?: string };

class Deadline extends Error {
  constructor() {
    super('deadline');
    this.name = 'TimeoutError';
  }
}

/** Reads at most `max` bytes of the body; answers whether more was left unread. */
async function readCapped(response: Response, max: number): Promise<{ text: string; truncated: boolean }> {
  if (!response.body || max <= 0) {
    await response.body?.cancel();
    return { text: '', truncated: false };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), truncated: false };
    const room = max - bytes;
    bytes += value.byteLength;
    text += decoder.decode(value.byteLength > room ? value.subarray(0, room) : value, { stream: true });
    if (bytes > max) {
      await reader.cancel();
      return { text: text + decoder.decode(), truncated: true };
    }
  }
}

/** One guarded request (docs/decisions/122). Never throws. */
export async function outboundFetch(
  raw: string,
  policy: OutboundPolicy,
  opts: OutboundOptions,
): Promise<OutboundAnswer> {
  const fetcher: FetchLike = opts.fetcher ?? ((input, init) => fetch(input, init));
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Deadline());
  }, opts.timeoutMs);
  const onAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort);
  // The resolver has its own timeout; the deadline still bounds the wait for it.
  const aborted = new Promise<never>((_, reject) => {
    const stop = () => reject(timedOut ? new Deadline() : new Error('the call was cancelled'));
    if (controller.signal.aborted) stop();
    controller.signal.addEventListener('abort', stop);
  });
  aborted.catch(() => {});
  let url = raw;
  const fail = (kind: OutboundFailure, reason: string, errorName?: string): OutboundAnswer => ({
    ok: false,
    url,
    kind,
    reason,
    ...(errorName ? { errorName } : {}),
  });
  const seconds = `no answer within ${Math.round(opts.timeoutMs / 100) / 10} s`;
  try {
    for (let hop = 0; ; hop++) {
      const check = await Promise.race([checkAddress(url, policy), aborted]);
      if (!check.ok) return fail(check.blocked ? 'refused' : 'unresolved', check.reason);
      const response = await fetcher(url, {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        body: opts.body,
        redirect: 'manual',
        signal: controller.signal,
      });
      const location = response.headers.get('location');
      if (opts.maxRedirects > 0 && response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= opts.maxRedirects) return fail('too_many_redirects', 'too many redirects');
        try {
          url = new URL(location, url).toString();
        } catch {
          return fail('network', 'a redirect to an unreadable address');
        }
        continue;
      }
      const { text, truncated } = await Promise.race([readCapped(response, opts.maxBytes), aborted]);
      return { ok: true, url, status: response.status, headers: response.headers, text, truncated };
    }
  } catch (err) {
    if (timedOut || (err instanceof Error && err.name === 'TimeoutError')) return fail('timeout', seconds);
    return err instanceof Error ? fail('network', err.message, err.name) : fail('network', String(err));
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
