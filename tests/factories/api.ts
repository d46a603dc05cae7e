import { expect } from 'vitest';
import { workerFetch } from '../worker-fetch';

export type ApiAnswer<T = any> = { status: number; body: T; headers: Headers };

let ipCounter = 0;
/** A distinct client address per call site, so the login rate limit of one test spares the others. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}

/** One API call through the Worker's own fetch handler. JSON in and out. */
export async function api<T = any>(
  path: string,
  init: {
    method?: string;
    body?: unknown | FormData;
    token?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: BodyInit | undefined;
  if (init.body instanceof FormData) {
    body = init.body;
  } else if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await workerFetch(`http://tracker.test${path}`, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** A 422 answer whose field errors are exactly `errors`, the fields in that order (the spec's). */
export function expectFieldErrors(res: ApiAnswer, errors: Record<string, string[]>) {
  expect(res.status).toBe(422);
  expect(Object.keys(res.body.errors)).toEqual(Object.keys(errors));
  expect(res.body.errors).toEqual(errors);
}
