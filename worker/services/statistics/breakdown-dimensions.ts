import { STORED_DIMENSIONS } from '../../../schema/stats-reports-api';
import type { TrackEvent, VisitEvent } from '../../../schema/tracking';
import { dayIn } from '../ingest/days';

// The breakdown dimensions of a visit worked out in JS, for the ingest's fast path
// (breakdown-ingest.ts, docs/decisions/112 and 180): the same rules as the SQL expressions there,
// which stay for the slow path, landing-page clicks and conversions. SQLite's LIKE and lower()
// fold ASCII letters only, and its trim() removes spaces only: so do these.

const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

const OS_RULES: [string, string[]][] = [
  ['Windows', ['windows']],
  ['iOS', ['iphone', 'ipad', 'ipod']],
  ['Android', ['android']],
  ['Chrome OS', ['cros']],
  ['macOS', ['macintosh', 'mac os x']],
  ['Linux', ['linux']],
];

const BROWSER_RULES: [string, string[]][] = [
  ['Edge', ['edg/', 'edge/', 'edgios']],
  ['Opera', ['opr/', 'opera']],
  ['Samsung Internet', ['samsungbrowser']],
  ['In-app (Meta)', ['fban', 'fbav', 'instagram']],
  ['Firefox', ['firefox/', 'fxios']],
  ['Chrome', ['crios', 'chrome/']],
  ['Safari', ['safari/']],
];

function firstRule(lowered: string, rules: [string, string[]][]): string {
  for (const [name, needles] of rules) if (needles.some((n) => lowered.includes(n))) return name;
  return 'Other';
}

/** The host of a referrer without scheme, path, query, fragment, port and a leading www. */
export function referrerDomainOf(referrer: string): string {
  let host = asciiLower(referrer.replace(/^ +| +$/g, ''));
  const scheme = host.indexOf('://');
  if (scheme >= 0) host = host.slice(scheme + 3);
  for (const ch of ['/', '?', '#', ':']) {
    const at = host.indexOf(ch);
    if (at >= 0) host = host.slice(0, at);
  }
  return host.startsWith('www.') ? host.slice(4) : host;
}

type AgentDimensions = { os: string; browser: string };
const agents = new Map<string, AgentDimensions>();

/** OS and browser of a user agent; the answers of a batch's many repeats are kept (bounded). */
function agentDimensions(ua: string): AgentDimensions {
  let known = agents.get(ua);
  if (!known) {
    const lowered = asciiLower(ua);
    known = { os: firstRule(lowered, OS_RULES), browser: firstRule(lowered, BROWSER_RULES) };
    if (agents.size >= 2_000) agents.clear();
    agents.set(ua, known);
  }
  return known;
}

const DIMS = [...STORED_DIMENSIONS].sort();
/** Each dimension alone (dim2 '') and each pair once (dim < dim2): 21 keys for 6 dimensions. */
export const BREAKDOWN_KEYS: [string, string][] = [
  ...DIMS.map((d): [string, string] => [d, '']),
  ...DIMS.flatMap((d, i) => DIMS.slice(i + 1).map((d2): [string, string] => [d, d2])),
];

/**
 * The visits rows of breakdown_daily that the counted visit events of a batch add, as JSON rows
 * [campaign_id, day, dim, value, dim2, value2, visits], and how many distinct visits the batch
 * holds (the ingest's count of visit rows: the first event of a click id is the one stored).
 * `hours` maps each quarter-hour of the batch ('b' + ms / 900000) to its local hour.
 */
export function visitBreakdownRows(
  events: readonly TrackEvent[],
  timeZone: string,
  hours: Record<string, number>,
): { rows: string; visits: number } {
  const seen = new Set<string>();
  const groups = new Map<string, [number, string, string, string, string, string, number]>();
  for (const e of events) {
    if (e.k !== 'v' || seen.has(e.id)) continue;
    seen.add(e.id);
    if (e.f !== null) continue;
    const values = visitDimensions(e, hours);
    const day = dayIn(e.at, timeZone);
    for (const [dim, dim2] of BREAKDOWN_KEYS) {
      const value = values[dim];
      const value2 = dim2 ? values[dim2] : '';
      const key = `${e.c}\u0000${day}\u0000${dim}\u0000${value}\u0000${dim2}\u0000${value2}`;
      const group = groups.get(key);
      if (group) group[6] += 1;
      else groups.set(key, [e.c, day, dim, value, dim2, value2, 1]);
    }
  }
  return { rows: JSON.stringify([...groups.values()]), visits: seen.size };
}

function visitDimensions(e: VisitEvent, hours: Record<string, number>): Record<string, string> {
  const { os, browser } = agentDimensions(e.ua);
  const hour = hours[`b${Math.floor(e.at / 900_000)}`];
  return {
    browser,
    country: e.cc,
    device: e.dev,
    hour: String(hour).padStart(2, '0'),
    os,
    referrer: referrerDomainOf(e.ref),
  };
}
