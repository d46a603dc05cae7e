import { OPERATOR_HEADER, OPERATOR_HEADER_VALUE } from '../../../schema/masterdashboard-api';
import { OPERATOR_MESSAGES, type Unavailable } from '../../../schema/operator-api';
import type { Env } from '../../env';
import { type FetchLike, type OutboundPolicy, outboundFetch, outboundPolicy } from '../outbound/outbound';
import type { Installation } from './registry';

// Calls to student installations (docs/decisions/083): one request per installation, all in
// parallel, each with its own timeout, so one slow or dead installation costs at most the
// timeout and never blanks the others. Every call goes through the outbound guard (decision 122):
// a domain that is or resolves to a private, loopback or metadata address is never sent the
// credential, and a redirect is not followed (it would carry the credential elsewhere). Tests
// inject `fetch` to reach other local Workers.

export type { FetchLike };
export type CallOptions = {
  fetch?: FetchLike;
  timeoutMs?: number;
  operatorUser?: string;
  /** The outbound guard's policy (outboundPolicy(env)); without one, production's strict rules. */
  policy?: OutboundPolicy;
};

/** The most of an installation's answer that is read (a month of days and campaigns is far less). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * The outbound fetch of the central routes. Tests replace it to reach "other installations"
 * inside the test Worker (there is no network there); production keeps the global fetch.
 */
export const outbound: { fetch: FetchLike } = { fetch: (input, init) => fetch(input, init) };

/** Production's rules with the public resolver: what a caller that names no policy gets. */
const strict = outboundPolicy({});

export function timeoutFor(env: Pick<Env, 'OPERATOR_TIMEOUT_MS'>): number {
  const ms = Number(env.OPERATOR_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_TIMEOUT_MS;
}

export type CallResult<T> = { ok: true; data: T } | { ok: false; status: number; error: string };

/** One call to /api/masterdashboard/{path} of an installation. Never throws. */
export async function callInstallation<T>(
  inst: Installation,
  path: string,
  init: { method?: string; body?: Record<string, unknown> } = {},
  opts: CallOptions = {},
): Promise<CallResult<T>> {
  if (!inst.credential) return { ok: false, status: 0, error: 'The stored credential cannot be read.' };
  const doFetch = opts.fetch ?? outbound.fetch;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${inst.credential}`,
    [OPERATOR_HEADER]: OPERATOR_HEADER_VALUE,
  };
  if (opts.operatorUser) headers['X-Operator-User'] = opts.operatorUser;
  if (init.body) headers['content-type'] = 'application/json';
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<CallResult<T>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ ok: false, status: 0, error: `No answer within ${timeoutMs} ms.` });
    }, timeoutMs);
  });
  const call = (async (): Promise<CallResult<T>> => {
    const answer = await outboundFetch(`${inst.domain}/api/masterdashboard/${path}`, opts.policy ?? strict, {
      fetcher: doFetch,
      method: init.method ?? 'GET',
      headers,
      body: init.body ? JSON.stringify(init.body) : undefined,
      signal: controller.signal,
      // The race below answers first with its own message; this bounds the lookups and the body.
      timeoutMs: timeoutMs + 1000,
      maxRedirects: 0,
      maxBytes: MAX_ANSWER_BYTES,
    });
    if (!answer.ok) {
      if (answer.kind === 'refused')
        return { ok: false, status: 0, error: `${OPERATOR_MESSAGES.domainNotPublic}: ${answer.reason}.` };
      return { ok: false, status: 0, error: answer.reason || 'The installation did not answer.' };
    }
    const location = answer.headers.get('location');
    if (answer.status >= 300 && answer.status < 400 && location)
      return {
        ok: false,
        status: answer.status,
        error: `It answered a redirect to ${location.slice(0, 200)}; register the address it redirects to.`,
      };
    if (answer.truncated)
      return { ok: false, status: answer.status, error: 'Its answer is larger than the operator reads.' };
    let body: { data?: T; message?: string } | null = null;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = null;
    }
    if (answer.status < 200 || answer.status >= 300 || !body || body.data === undefined)
      return { ok: false, status: answer.status, error: body?.message || `HTTP ${answer.status}` };
    return { ok: true, data: body.data };
  })();
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Calls every installation in parallel; answers the ones that answered and the ones that did not. */
export async function fanOut<T>(
  list: Installation[],
  path: (inst: Installation) => string,
  opts: CallOptions = {},
): Promise<{ answered: { inst: Installation; data: T }[]; unavailable: Unavailable[] }> {
  const results = await Promise.all(list.map((inst) => callInstallation<T>(inst, path(inst), {}, opts)));
  const answered: { inst: Installation; data: T }[] = [];
  const unavailable: Unavailable[] = [];
  results.forEach((r, i) => {
    const inst = list[i];
    if (r.ok) answered.push({ inst, data: r.data });
    else unavailable.push({ id_hash: inst.id_hash, name: inst.name, domain: inst.domain, error: r.error });
  });
  return { answered, unavailable };
}
