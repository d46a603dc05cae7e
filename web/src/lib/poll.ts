// The polling client of the statistics protocol (docs/statistics.md): POST statistics answers a
// queue id, the result is fetched with that id until the job says done. The first poll goes out
// after 100 ms and the wait doubles, capped at 3 s, so a fast job feels instant and a slow one
// costs few requests; after the last try the caller's message is raised.

export const POLL_MESSAGES = {
  target: 'Exceed number of retries.',
  landing: 'Exceed number of retries for landing page performance table',
  totals: 'Exceed number of retries for totals.',
} as const;

export type PollOptions = {
  /** Raised as PollExhaustedError's message once `maxTries` polls found no result. */
  exhaustedMessage: string;
  maxTries?: number;
  /** Wait before the first poll, in ms. */
  initialDelay?: number;
  /** Wait before the very first poll when it differs from initialDelay (0: poll at once). */
  firstDelay?: number;
  /** Longest wait between polls, in ms. */
  maxDelay?: number;
  /** Multiplier of the wait after each empty poll (1 = a fixed interval). */
  factor?: number;
  signal?: AbortSignal;
};

/** One poll's answer: null or done=false means "not yet". */
export type PollAnswer<T> = { done: boolean; error?: string | null; result?: T } | null;

export class PollExhaustedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PollExhaustedError';
  }
}

/** The job finished with an error the server reported. */
export class PollJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PollJobError';
  }
}

/** The waits between polls: 100, 200, 400, 800, 1600, 3000, 3000 ... (ms). */
export function pollDelays({
  maxTries = 100,
  initialDelay = 100,
  firstDelay,
  maxDelay = 3000,
  factor = 2,
}: Omit<PollOptions, 'exhaustedMessage' | 'signal'> = {}): number[] {
  const out: number[] = [];
  let wait = initialDelay;
  for (let i = 0; i < maxTries; i++) {
    out.push(i === 0 && firstDelay !== undefined ? firstDelay : Math.min(wait, maxDelay));
    if (i > 0 || firstDelay === undefined) wait *= factor;
  }
  return out;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

/**
 * Calls `once` until it answers done, waiting between tries as `pollDelays` says. Answers the
 * result; throws PollJobError when the job failed, PollExhaustedError after the last try, and
 * the abort reason when `signal` fires (a newer search replaced this one).
 */
export async function pollUntilDone<T>(
  once: (signal?: AbortSignal) => Promise<PollAnswer<T>>,
  options: PollOptions,
): Promise<T> {
  for (const wait of pollDelays(options)) {
    await sleep(wait, options.signal);
    const answer = await once(options.signal);
    if (options.signal?.aborted) throw options.signal.reason ?? new DOMException('Aborted', 'AbortError');
    if (answer?.done) {
      if (answer.error) throw new PollJobError(answer.error);
      return answer.result as T;
    }
  }
  throw new PollExhaustedError(options.exhaustedMessage);
}

export const isAbort = (err: unknown) =>
  (err instanceof DOMException && err.name === 'AbortError') ||
  (err instanceof Error && err.name === 'AbortError');
