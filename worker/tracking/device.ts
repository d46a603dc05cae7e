import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import type { FilterReason } from '../../schema/tracking';
import type { Device } from '../services/routing';

// Device and bot detection from the User-Agent (ua-parser-js, isbot). User agents repeat a
// lot, so answers are kept in a small per-isolate map.

export type Visitor = { device: Device; bot: boolean };

const MAX_ENTRIES = 1_000;
const seen = new Map<string, Visitor>();

export function classifyUserAgent(ua: string): Visitor {
  const hit = seen.get(ua);
  if (hit) return hit;
  const type = new UAParser(ua).getDevice().type;
  const device: Device =
    type === 'tablet' ? 'tablet' : type === 'mobile' || type === 'wearable' ? 'mobile' : 'desktop';
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
