import { afterAll, beforeAll, beforeEach } from 'vitest';

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

/** An outgoing request a stand-in host answered. */
export type StandInCall = { url: string; init?: RequestInit };

/**
 * Stand-in hosts for the file's outgoing requests: a request to a host `passes` lets through
 * goes to the real fetch (the tracker itself, the fake resolver); any other is recorded and
 * answered by `answer` (a throw is a network failure). Answers the record, emptied before
 * each test.
 */
export function standInHosts(
  passes: (host: string) => boolean,
  answer: (host: string) => Response,
): StandInCall[] {
  const calls: StandInCall[] = [];
  const real = globalThis.fetch;
  withFetchStandIn(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const host = new URL(url).hostname;
    if (passes(host)) return real(input, init);
    calls.push({ url, init });
    return answer(host);
  });
  beforeEach(() => {
    calls.length = 0;
  });
  return calls;
}
