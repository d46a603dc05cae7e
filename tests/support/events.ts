// Tracking events as the tracking routes queue them, for tests that feed the ingest consumer
// directly: each builder fills what a test does not care about (a US desktop visit with no
// filter and no tokens, an LP click of option 0, a postback conversion at the offer's payout).
import type { ConversionEvent, LpClickEvent, VisitEvent } from '../../schema/tracking';

type Given<E, K extends keyof E> = Pick<E, K> & Partial<Omit<E, 'k'>>;

export function visitEvent(given: Given<VisitEvent, 'id' | 'c' | 'at'>): VisitEvent {
  return {
    p: 0,
    l: 0,
    o: 0,
    tgt: '',
    kw: '',
    dev: 'desktop',
    cc: 'US',
    ref: '',
    ua: 'test',
    f: null,
    d: 0,
    tok: {},
    ...given,
    k: 'v',
  };
}

export function lpClickEvent(given: Given<LpClickEvent, 'id' | 'c' | 'at'>): LpClickEvent {
  return { p: 0, l: 0, o: 0, opt: 0, f: null, ...given, k: 'l' };
}

export function conversionEvent(given: Given<ConversionEvent, 'id' | 'c' | 'at'>): ConversionEvent {
  return { p: 0, l: 0, o: 0, ev: null, tx: '', pay: null, src: 'postback', ...given, k: 'c' };
}
