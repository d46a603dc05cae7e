import { KEYS, readKey } from '../lib/storage';
import { ApiError, judgeAnswer, toEnvelope } from './answer';

/** The error envelope of the API (ARCHITECTURE.md, "API conventions"), schema's type. */
export type { ErrorEnvelope } from '../../../schema/envelope-api';
export { ApiError };

export const NETWORK_ERROR_MESSAGE = 'Could not reach the server. Check your connection and try again.';

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** A 401 from this call is an answer, not an expired session (login, session exchange). */
  skipAuthRedirect?: boolean;
  /**
   * The screen tells a server failure of this call in its own words (the statistics screen's
   * sentence with Retry, decision 110): no status-text warning from this layer.
   */
  quiet?: boolean;
};

type UnauthorizedHandler = (error: ApiError) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/** The app installs the global 401 behaviour here (clear session, toast, go to /login). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

/** What this layer shows by itself (spec 4 §8), as a warning: a status text or a 2xx's `data.message`. */
type NoticeHandler = (message: string) => void;
let noticeHandler: NoticeHandler | null = null;

/** The app installs the toast of the generic layer's notices here (web/src/main.tsx). */
export function setNoticeHandler(handler: NoticeHandler | null): void {
  noticeHandler = handler;
}

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const clean = path.replace(/^\/+/, '').replace(/^api\//, '');
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null) params.set(k, String(v));
  }
  const qs = params.toString();
  return `/api/${clean}${qs ? `?${qs}` : ''}`;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The one fetch of the SPA: JSON in and out under /api/, the bearer token when one is stored,
 * and the `data` of the envelope as the answer. Anything but 2xx throws ApiError.
 */
async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = readKey(KEYS.token);
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let res: Response;
  try {
    res = await fetch(apiUrl(path, options.query), {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, toEnvelope(null, NETWORK_ERROR_MESSAGE));
  }

  const verdict = judgeAnswer(res.status, res.statusText, await readBody(res), options.quiet);
  if (verdict.error) {
    // Only a call that carried a token can have timed out; anonymous 401s are plain answers.
    if (res.status === 401 && token && !options.skipAuthRedirect) unauthorizedHandler?.(verdict.error);
    if (verdict.notice) noticeHandler?.(verdict.notice);
    throw verdict.error;
  }
  return verdict.data as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body: unknown = {}, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body: unknown = {}, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'DELETE', body }),
};

/** Value of a cookie readable by scripts (the CSRF cookie of the session exchange). */
function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return rest.join('=');
  }
  return null;
}

/** GET /sanctum/csrf-cookie: sets the XSRF-TOKEN cookie (outside /api/, no envelope). */
export async function fetchCsrfCookie(): Promise<string | null> {
  const res = await fetch('/sanctum/csrf-cookie', { credentials: 'include' });
  if (!res.ok) return null;
  return readCookie('XSRF-TOKEN');
}
