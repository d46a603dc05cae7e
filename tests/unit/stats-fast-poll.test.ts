import { describe, expect, it } from 'vitest';
import { pollDelays, pollUntilDone } from '../../web/src/lib/poll';

// Issue 17 item 1: the statistics screen polls at once, then with a short backoff.

describe('the statistics poll schedule', () => {
  it('polls at once, then after 50 ms doubling to at most 1 s', () => {
    expect(pollDelays({ firstDelay: 0, initialDelay: 50, maxDelay: 1000, maxTries: 8 })).toEqual([
      0, 50, 100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('keeps the old schedule when no first delay is given', () => {
    expect(pollDelays({ maxTries: 4 })).toEqual([100, 200, 400, 800]);
  });

  it('answers a job done at the first poll without waiting', async () => {
    const started = Date.now();
    let calls = 0;
    const result = await pollUntilDone(async () => ({ done: true, result: ++calls }), {
      exhaustedMessage: 'x',
      firstDelay: 0,
      initialDelay: 50,
    });
    expect(result).toBe(1);
    expect(Date.now() - started).toBeLessThan(40);
  });
});
