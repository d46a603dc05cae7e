import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import type { FilterReason } from '../../schema/tracking';
import type { Device } from '../services/hot-path/routing';

// Device and bot detection from the User-Agent (ua-parser-js, isbot). User agents repeat a
// lot, so answers are kept in a per-isolate map; a miss on the common shapes (iPhone, iPad,
// desktop Windows/macOS/Linux) skips ua-parser's device regexes, which cost about 30 us.

export type Visitor = { device: Device; bot: boolean };

const MAX_ENTRIES = 4_000;
const seen = new Map<string, Visitor>();

const DESKTOP_PREFIXES = ['Mozilla/5.0 (Windows NT ', 'Mozilla/5.0 (Macintosh; ', 'Mozilla/5.0 (X11; '];
const NOT_DESKTOP =
  /Mobile|Tablet|Touch|Android|iPhone|iPad|Windows Phone|Xbox|PlayStation|Nintendo|SmartTV|Tizen/;

/** The device of an unambiguous user agent without ua-parser; null when ua-parser must decide. */
export function quickDevice(ua: string): Device | null {
  if (ua.includes('iPad')) return 'tablet';
  if (ua.includes('iPhone') || ua.includes('iPod')) return 'mobile';
  for (const prefix of DESKTOP_PREFIXES) {
    if (ua.startsWith(prefix)) return NOT_DESKTOP.test(ua) ? null : 'desktop';
  }
  return null;
}

/** ua-parser's answer, the reference for quickDevice. */
export function parsedDevice(ua: string): Device {
  const type = new UAParser(ua).getDevice().type;
  return type === 'tablet' ? 'tablet' : type === 'mobile' || type === 'wearable' ? 'mobile' : 'desktop';
}

export function classifyUserAgent(ua: string): Visitor {
  const hit = seen.get(ua);
  if (hit) return hit;
  const device = quickDevice(ua) ?? parsedDevice(ua);
  // An empty user agent is not a browser.
  const visitor = { device, bot: ua.trim() === '' || isbot(ua) };
  if (seen.size >= MAX_ENTRIES) seen.delete(seen.keys().next().value as string);
  seen.set(ua, visitor);
  return visitor;
}

/** Prefetch and prerender requests announce themselves (Sec-Purpose, Purpose, X-Moz, X-Purpose). */
const PURPOSE_HEADERS = ['sec-purpose', 'purpose', 'x-purpose', 'x-moz'];
const PREFETCH = /prefetch|prerender|preview/i;

export function isPrefetch(headers: Headers): boolean {
  for (const name of PURPOSE_HEADERS) {
    const value = headers.get(name);
    if (value !== null && PREFETCH.test(value)) return true;
  }
  return false;
}

/** Why a request is stored but not counted, or null for a counted one. */
export function filterReason(request: Request, visitor: Visitor): FilterReason | null {
  if (request.method === 'HEAD') return 'head';
  if (isPrefetch(request.headers)) return 'prefetch';
  if (visitor.bot) return 'bot';
  return null;
}
