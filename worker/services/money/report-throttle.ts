import type { Env } from '../../env';
import { ApiError } from '../../lib/errors';
import { recordFailure, type ThrottleRules, throttleWait } from '../auth/login-throttle';
import { reportOffer } from './rotator-report';

// The public rotator report's guard against guessing emails (docs/decisions/125): the login
// throttle's mechanism (docs/decisions/041), counted per (offer, address), per offer, and per
// address over every offer. Only a computed answer gets here: an answer from the edge cache
// (a right email read in the last 60 s) is served before any of this (docs/decisions/053).

/** A participant who mistypes gets four free tries per offer; a guesser soon waits. */
const REPORT_RULES: ThrottleRules = {
  pairDelayFrom: 5,
  pairLockAt: 20,
  pairLockMs: 15 * 60 * 1000,
  userDelayFrom: 20,
  userDelayCapMs: 60 * 1000,
};

/** Across offers one address may miss more before it waits: it is scanning, not mistyping. */
const ANY_OFFER_RULES: ThrottleRules = { ...REPORT_RULES, pairDelayFrom: 10 };

const offerKey = (offerId: number) => `report:${Number.isSafeInteger(offerId) ? offerId : 0}`;
const ANY_OFFER = 'report:*';

export const reportThrottled = (seconds: number) =>
  `Too many report requests with a wrong email. Please try again in ${seconds} seconds.`;

/**
 * The offer of the report when `email` is its participant's, else null (the one 404); a miss is
 * counted, and an address that must wait gets 429 with Retry-After before anything is read.
 */
export async function throttledReportOffer(env: Env, offerId: number, email: string, ip: string) {
  const now = Date.now();
  const waits = await Promise.all([
    throttleWait(env, offerKey(offerId), ip, REPORT_RULES, now),
    throttleWait(env, ANY_OFFER, ip, ANY_OFFER_RULES, now),
  ]);
  const ms = Math.max(...waits.map((w) => w.ms));
  if (ms > 0) {
    const seconds = Math.ceil(ms / 1000);
    throw new ApiError(429, reportThrottled(seconds), undefined, { 'retry-after': String(seconds) });
  }
  const offer = await reportOffer(env, offerId, email);
  if (!offer) {
    await Promise.all([
      recordFailure(env, offerKey(offerId), ip, now),
      recordFailure(env, ANY_OFFER, ip, now),
    ]);
  }
  return offer;
}
