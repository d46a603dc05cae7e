import { describe, expect, it } from 'vitest';
import { PlatformError, retryAfterSeconds, toCount, toMicros } from '../../worker/integrations/http';
import { retryDelaySeconds } from '../../worker/jobs/platform-jobs';

// The small readers every platform client shares: Retry-After, money and counts as platforms
// write them, and the queue's retry delay.

describe('platform HTTP helpers', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-23T20:00:00Z');
    expect(retryAfterSeconds('42', now)).toBe(42);
    expect(retryAfterSeconds('Mon, 23 Nov 2026 20:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Mon, 23 Nov 2026 19:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
  });

  it('turns decimal amounts into exact micro-units and refuses what is not a number', () => {
    expect(toMicros('12.34')).toBe(12_340_000);
    expect(toMicros(0.1)).toBe(100_000);
    expect(toMicros('1234567.891234')).toBe(1_234_567_891_234);
    expect(toMicros('-3.5')).toBe(-3_500_000);
    expect(toMicros('0')).toBe(0);
    expect(toMicros('1,5')).toBeNaN();
    expect(toMicros('')).toBeNaN();
    expect(toMicros(null)).toBeNaN();
    expect(toCount('120')).toBe(120);
    expect(toCount(7)).toBe(7);
    expect(toCount('7.5')).toBeNaN();
    expect(toCount(-1)).toBeNaN();
  });

  it("waits the platform's Retry-After, else backs off from 30 s doubling, at most 15 minutes", () => {
    const limited = new PlatformError('tiktok', 'rate_limit', 'Too many', 429, 12);
    expect(retryDelaySeconds(limited, 1)).toBe(12);
    const broken = new PlatformError('tiktok', 'server', 'Down', 500);
    expect([1, 2, 3, 4, 10].map((n) => retryDelaySeconds(broken, n))).toEqual([30, 60, 120, 240, 900]);
    expect(broken.retryable).toBe(true);
    expect(new PlatformError('tiktok', 'auth', 'Expired', 401).retryable).toBe(false);
    expect(new PlatformError('tiktok', 'malformed', 'Bad', 200).message).toBe('TikTok: Bad');
  });
});
