import { afterAll, beforeAll } from 'vitest';

// The outgoing requests of a test file (the Worker's, in the test's isolate) sent to a stand-in.

/** Sends the file's outgoing requests to `standIn` from its first test on, then gives fetch back. */
export function withFetchStandIn(
  standIn: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
) {
  const real = globalThis.fetch;
  beforeAll(() => {
    globalThis.fetch = standIn as typeof fetch;
  });
  afterAll(() => {
    globalThis.fetch = real;
  });
}
