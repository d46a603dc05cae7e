import { describe, expect, it } from 'vitest';
import { RequestUrl } from '../../worker/tracking/request-url';

// The hot path's URL reader answers what URL and URLSearchParams answer for request URLs.

const cases = [
  'http://tracker.test/go/12?tid=creative-7&keyword=running+shoes&sub1=a%26b',
  'https://Track.Example.com:443/go/12?tid=x&tid=y',
  'http://127.0.0.1:8787/click/5',
  'https://t.example/postback?clickid=abc&payout=12.50&txid=&event',
  'https://t.example/?a=%E2%82%AC&b=%ZZ&c=%',
  'https://t.example/pixel.gif?campaign=3#fragment',
  'https://t.example',
  'https://t.example?x=1',
  'http://t.example:8080/go/1?%74id=encoded-name&=empty-name',
];

describe('RequestUrl', () => {
  it.each(cases)('reads %s like URL does', (raw) => {
    const mine = new RequestUrl(raw);
    const reference = new URL(raw);
    expect(mine.protocol).toBe(reference.protocol);
    expect(mine.origin).toBe(reference.origin);
    expect(mine.pathname).toBe(reference.pathname);
    const first = new Map<string, string>();
    for (const [k, v] of reference.searchParams) if (!first.has(k)) first.set(k, v);
    expect(new Map(mine.searchParams)).toEqual(first);
    for (const name of ['tid', 'keyword', 'sub1', 'a', 'b', 'c', 'event', 'txid', 'missing', '']) {
      expect(mine.searchParams.get(name)).toBe(reference.searchParams.get(name));
      expect(mine.searchParams.has(name)).toBe(reference.searchParams.has(name));
    }
  });
});
