import { describe, expect, it } from 'vitest';
import { formatMicrosAsDollars, fromMicros, microsToDecimalString, toMicros } from '../../schema/money';
import { clip } from '../../schema/tracking';
import { dayIn } from '../../worker/services/ingest/days';
import { buildPostbackUrl, unsafePostbackReason } from '../../worker/services/postbacks/postbacks';
import { classifyUserAgent, filterReason, isPrefetch } from '../../worker/tracking/device';

describe('money in micro-units', () => {
  it.each([
    ['12.5', 12_500_000],
    [12.5, 12_500_000],
    ['0.1', 100_000],
    [0.1 + 0.2, 300_000],
    ['$3.99', 3_990_000],
    ['0.000001', 1],
    ['0.0000005', 1],
    ['0.0000004', 0],
    ['1000000', 1_000_000_000_000],
    ['-2.25', -2_250_000],
    [0, 0],
  ])('%j is %i micros', (input, micros) => {
    expect(toMicros(input)).toBe(micros);
  });

  it.each([['abc'], [''], ['1e5'], ['1,5'], [null], [undefined], [Number.NaN], ['99999999999999']])(
    'refuses %j',
    (input) => {
      expect(toMicros(input)).toBeNull();
    },
  );

  it('formats and converts back', () => {
    expect(microsToDecimalString(12_500_000)).toBe('12.50');
    expect(microsToDecimalString(1)).toBe('0.000001');
    expect(microsToDecimalString(-2_250_000)).toBe('-2.25');
    expect(formatMicrosAsDollars(1_234_567_890)).toBe('$1,234.57');
    expect(formatMicrosAsDollars(-2_500_000)).toBe('-$2.50');
    expect(formatMicrosAsDollars(4_999)).toBe('$0.00');
    expect(formatMicrosAsDollars(0)).toBe('$0.00');
    expect(fromMicros(3_990_000)).toBe(3.99);
    // Summing micros never drifts: a thousand 0.1 payouts are exactly 100.
    let sum = 0;
    for (let i = 0; i < 1000; i++) sum += toMicros('0.1')!;
    expect(sum).toBe(100_000_000);
  });
});

describe('days in the installation time zone', () => {
  it('cuts days at local midnight, DST included', () => {
    const t = Date.UTC(2026, 2, 8, 4, 30); // 2026-03-08 04:30 UTC = 23:30 EST on the 7th
    expect(dayIn(t, 'America/New_York')).toBe('2026-03-07');
    expect(dayIn(t, 'UTC')).toBe('2026-03-08');
    expect(dayIn(t, 'Asia/Tokyo')).toBe('2026-03-08');
    // After the DST switch New York is UTC-4: 04:30 UTC on 2026-03-09 is 00:30 local.
    expect(dayIn(Date.UTC(2026, 2, 9, 4, 30), 'America/New_York')).toBe('2026-03-09');
  });

  it('counts in UTC when the zone is unknown rather than failing', () => {
    expect(dayIn(Date.UTC(2026, 0, 1, 23, 0), 'Mars/Olympus')).toBe('2026-01-01');
  });
});

describe('outbound postback URLs', () => {
  it.each([
    'https://ts.example.com/pb?cid={clickid}',
    'http://tracker.traffic-source.io:8080/x',
    'https://sub.domain.co.uk/postback',
  ])('allows %s', (url) => {
    expect(unsafePostbackReason(url)).toBeNull();
  });

  it.each([
    ['ftp://ts.example.com/x', 'only http and https are allowed'],
    ['javascript:alert(1)', 'only http and https are allowed'],
    ['http://127.0.0.1/x', 'IP addresses are not allowed'],
    ['http://2130706433/x', 'IP addresses are not allowed'],
    ['http://0x7f.1/x', 'IP addresses are not allowed'],
    ['http://169.254.169.254/latest/meta-data', 'IP addresses are not allowed'],
    ['http://10.0.0.5/x', 'IP addresses are not allowed'],
    ['http://[::1]/x', 'IP addresses are not allowed'],
    ['http://localhost/x', 'single-label host names are not allowed'],
    ['http://api.localhost/x', 'private host names are not allowed'],
    ['http://metadata.google.internal/x', 'private host names are not allowed'],
    ['http://printer.local/x', 'private host names are not allowed'],
    ['https://user:pw@ts.example.com/x', 'credentials in the URL are not allowed'],
    ['not a url', 'not a valid URL'],
  ])('blocks %s', (url, reason) => {
    expect(unsafePostbackReason(url)).toBe(reason);
  });

  it('fills the macros URL-encoded', () => {
    const url = buildPostbackUrl(
      'https://ts.example.com/pb?cid={clickid}&sum={payout}&t={target}&tx={txid}&e={event}&c={campaignid}&s={sub1}&x={nope}',
      {
        clickId: 'abc',
        payoutMicros: 12_500_000,
        target: 'ad 7&8',
        keyword: '',
        transactionId: 'T-1',
        event: 'purchase',
        campaignId: 3,
        offerId: 4,
        landingId: 5,
        country: 'US',
        device: 'mobile',
        tokens: { sub1: 'z z' },
      },
    );
    expect(url).toBe(
      'https://ts.example.com/pb?cid=abc&sum=12.50&t=ad%207%268&tx=T-1&e=purchase&c=3&s=z%20z&x={nope}',
    );
  });
});

describe('stored text', () => {
  it('drops control characters and cuts at the limit', () => {
    expect(clip('ad\u0000-1\n\u001f\u007f2')).toBe('ad-12');
    expect(clip('x'.repeat(300))).toHaveLength(255);
    expect(clip('abcdef', 3)).toBe('abc');
    expect(clip(null)).toBe('');
    expect(clip('plain')).toBe('plain');
    expect(clip('again\u0001')).toBe('again');
  });
});

describe('visitors', () => {
  const chrome =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
  const iphone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
  const ipad =
    'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

  it('tells devices and bots apart', () => {
    expect(classifyUserAgent(chrome)).toEqual({ device: 'desktop', bot: false });
    expect(classifyUserAgent(iphone)).toEqual({ device: 'mobile', bot: false });
    expect(classifyUserAgent(ipad)).toEqual({ device: 'tablet', bot: false });
    expect(classifyUserAgent('Googlebot/2.1 (+http://www.google.com/bot.html)').bot).toBe(true);
    expect(classifyUserAgent('curl/8.5.0').bot).toBe(true);
    expect(classifyUserAgent('').bot).toBe(true);
  });

  it('flags HEAD and prefetch requests', () => {
    const human = classifyUserAgent(chrome);
    expect(filterReason(new Request('https://t.example/go/1', { method: 'HEAD' }), human)).toBe('head');
    const prefetch = new Request('https://t.example/go/1', {
      headers: { 'sec-purpose': 'prefetch;prerender' },
    });
    expect(isPrefetch(prefetch.headers)).toBe(true);
    expect(filterReason(prefetch, human)).toBe('prefetch');
    expect(
      filterReason(new Request('https://t.example/go/1', { headers: { purpose: 'prefetch' } }), human),
    ).toBe('prefetch');
    expect(filterReason(new Request('https://t.example/go/1'), human)).toBeNull();
    expect(filterReason(new Request('https://t.example/go/1'), classifyUserAgent('Googlebot/2.1'))).toBe(
      'bot',
    );
  });
});
