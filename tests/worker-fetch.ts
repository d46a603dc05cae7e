import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Env } from '../worker/env';
import worker from '../worker/index';

// The Worker's own fetch handler, called in the test's isolate, in place of SELF.fetch: through
// SELF.fetch each request of a test file costs more than the one before (workers-sdk issue
// 15446: a fuzz file of 1,400 requests took 10 minutes and overflowed the stack past 1,800;
// the same requests here take a second). What a request leaves to waitUntil goes on beside the
// test, as it does behind SELF.fetch, and is awaited before the test ends (tests/setup.ts).

const pending = new Set<Promise<void>>();

/** Answers a request as the deployed Worker would; its waitUntil work is awaited by `settleWorkerFetches`. */
export async function workerFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(input, init) as Parameters<typeof worker.fetch>[0];
  try {
    return await worker.fetch(request, env as unknown as Env, ctx);
  } finally {
    const done = waitOnExecutionContext(ctx).finally(() => pending.delete(done));
    pending.add(done);
  }
}

/** Waits for the waitUntil work of every request made so far (and of any it started). */
export async function settleWorkerFetches(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
