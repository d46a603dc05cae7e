import { OPERATOR_HEADER, OPERATOR_HEADER_VALUE } from '../../../schema/masterdashboard-api';
import type { Unavailable } from '../../../schema/operator-api';
import type { Env } from '../../env';
import type { Installation } from './registry';

// Calls to student installations (docs/decisions/083): one request per installation, all in
// parallel, each with its own timeout, so one slow or dead installation costs at most the
// timeout and never blanks the others. Tests inject `fetch` to reach other local Workers.

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
export type CallOptions = { fetch?: FetchLike; timeoutMs?: number; operatorUser?: string };

export const DEFAULT_TIMEOUT_MS = 5000;

/**
 * The outbound fetch of the central routes. Tests replace it to reach "other installations"
 * inside the test Worker (there is no network there); production keeps the global fetch.
 */
export const outbound: { fetch: FetchLike } = { fetch: (input, init) => fetch(input, init) };

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
    try {
      const res = await doFetch(`${inst.domain}/api/masterdashboard/${path}`, {
        method: init.method ?? 'GET',
        headers,
        body: init.body ? JSON.stringify(init.body) : undefined,
        signal: controller.signal,
      });
      const text = await res.text();
      let body: { data?: T; message?: string } | null = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      if (!res.ok || !body || body.data === undefined)
        return { ok: false, status: res.status, error: body?.message || `HTTP ${res.status}` };
      return { ok: true, data: body.data };
    } catch (err) {
      return {
        ok: false,
        status: 0,
        error: err instanceof Error ? err.message : 'The installation did not answer.',
      };
    }
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
