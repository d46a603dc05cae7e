import type { ErrorEnvelope } from '../../../schema/envelope-api';
import { KEYS, readKey } from '../lib/storage';

/** The error envelope of the API (ARCHITECTURE.md, "API conventions"), schema's type. */
export type { ErrorEnvelope };

export const NETWORK_ERROR_MESSAGE = 'Could not reach the server. Check your connection and try again.';

/** Every failed call throws this: the HTTP status and the error envelope the server sent. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorEnvelope;
  readonly statusText: string;

  constructor(status: number, body: ErrorEnvelope, statusText = '') {
    super(body.message || statusText || `Request failed (${status})`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.statusText = statusText;
  }

  /** The first message of the first entry in errors (spec 1 §8), else the message. */
  get firstMessage(): string {
    const first = Object.values(this.body.errors ?? {})[0]?.[0];
    return first || this.body.message || this.statusText || `Request failed (${this.status})`;
  }

  /** The first message of each field, in the order the server sent them (the spec's order). */
  get fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, messages] of Object.entries(this.body.errors ?? {})) {
      if (messages?.[0]) out[field] = messages[0];
    }
    return out;
  }

  get isValidation(): boolean {
    return this.status === 422 || this.status === 400;
  }
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** A 401 from this call is an answer, not an expired session (login, session exchange). */
  skipAuthRedirect?: boolean;
};

type UnauthorizedHandler = (error: ApiError) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/** The app installs the global 401 behaviour here (clear session, toast, go to /login). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
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

function toEnvelope(body: unknown, fallback: string): ErrorEnvelope {
  if (body && typeof body === 'object') {
    const b = body as Partial<ErrorEnvelope>;
    const message = typeof b.message === 'string' ? b.message : fallback;
    const errors = b.errors && typeof b.errors === 'object' ? b.errors : { message: [message] };
    return { message, errors };
  }
  return { message: fallback, errors: { message: [fallback] } };
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

  const body = await readBody(res);
  if (!res.ok) {
    const error = new ApiError(res.status, toEnvelope(body, res.statusText), res.statusText);
    // Only a call that carried a token can have timed out; anonymous 401s are plain answers.
    if (res.status === 401 && token && !options.skipAuthRedirect) unauthorizedHandler?.(error);
    throw error;
  }
  return (body && typeof body === 'object' && 'data' in body ? (body as { data: T }).data : body) as T;
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
