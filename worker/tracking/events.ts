import { EVENT_SOURCES, type EventSource, FILTER_REASONS, type FilterReason } from '../../schema/tracking';

// The events the hot path hands to the ingest queue. Short keys keep micro-batches small
// (a Queue message holds at most 128 KB). Ids of path, landing and offer are 0 when none.

export type VisitEvent = {
  k: 'v';
  /** Click id. */
  id: string;
  c: number;
  p: number;
  l: number;
  o: number;
  /** UTC milliseconds. */
  at: number;
  tgt: string;
  kw: string;
  dev: string;
  cc: string;
  ref: string;
  ua: string;
  f: FilterReason | null;
  /** 1 when recorded by the direct-tracking script. */
  d: 0 | 1;
  /** Extra-token values by slot (1..20). */
  tok: Record<string, string>;
};

export type LpClickEvent = {
  k: 'l';
  id: string;
  c: number;
  p: number;
  l: number;
  /** The offer the visitor was sent to. */
  o: number;
  opt: number;
  at: number;
  f: FilterReason | null;
};

export type ConversionEvent = {
  k: 'c';
  id: string;
  c: number;
  p: number;
  l: number;
  o: number;
  at: number;
  /** Event name; null means the campaign's conversion goal. */
  ev: string | null;
  tx: string;
  /** Payout in micros; null means the offer's payout (for the goal) or 0 (other events). */
  pay: number | null;
  src: EventSource;
};

export type TrackEvent = VisitEvent | LpClickEvent | ConversionEvent;
export type IngestMessage = { v: 1; events: TrackEvent[] };

/** Limits on stored text, so that one event never grows a message beyond reason. */
export const LIMITS = { text: 255, referrer: 1024, userAgent: 512 } as const;

// Control characters have no place in stored text, and each would grow six-fold in JSON.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL = /[\x00-\x1f\x7f]/g;

/** Text for storage: control characters dropped, cut at `max` characters. */
export function clip(value: string | null | undefined, max: number = LIMITS.text): string {
  if (!value) return '';
  const clean = CONTROL.test(value) ? value.replace(CONTROL, '') : value;
  CONTROL.lastIndex = 0;
  return clean.length > max ? clean.slice(0, max) : clean;
}

const isId = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isStr = (v: unknown) => typeof v === 'string';
const filters = new Set<unknown>([null, ...FILTER_REASONS]);
const sources = new Set<unknown>(EVENT_SOURCES);

/** Checks an event's shape; anything else is poison and goes to the dead letters. */
export function isTrackEvent(e: unknown): e is TrackEvent {
  if (typeof e !== 'object' || e === null) return false;
  const x = e as Record<string, unknown>;
  if (!isStr(x.id) || !(x.id as string).length || !isId(x.c) || (x.c as number) < 1) return false;
  if (!isId(x.p) || !isId(x.l) || !isId(x.o) || !isId(x.at)) return false;
  switch (x.k) {
    case 'v':
      return (
        isStr(x.tgt) &&
        isStr(x.kw) &&
        isStr(x.dev) &&
        isStr(x.cc) &&
        isStr(x.ref) &&
        isStr(x.ua) &&
        filters.has(x.f) &&
        (x.d === 0 || x.d === 1) &&
        typeof x.tok === 'object' &&
        x.tok !== null
      );
    case 'l':
      return isId(x.opt) && filters.has(x.f);
    case 'c':
      return (
        (x.ev === null || isStr(x.ev)) &&
        isStr(x.tx) &&
        (x.pay === null || (typeof x.pay === 'number' && Number.isSafeInteger(x.pay))) &&
        sources.has(x.src)
      );
    default:
      return false;
  }
}
