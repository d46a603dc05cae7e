import type { Platform } from '../../../schema/integrations';
import type { CampaignAlert } from '../../../schema/stats-api';
import type { Env } from '../../env';
import { type AdReport, PLATFORM_LABELS } from '../../integrations/http';
import { raiseAlert } from '../campaigns/alerts';

// Money and days in the platform's terms (docs/decisions/147). A platform bills in its ad account's
// currency and counts days in the account's time zone. The statistics add up US dollars on the
// installation's days, so before a sync stores anything:
// - spend in US dollars is stored as it is;
// - spend in another currency is converted only with the rate the user entered on the link; with
//   none, nothing is stored (never a foreign amount as dollars) and the campaign gets an alert
//   that names the currency and says what to enter;
// - a time zone other than the installation's is stored as the platform's dates (a platform day is
//   never split or shifted), and the campaign gets an alert that says so.

/** The currency the statistics add up. */
const STATS_CURRENCY = 'USD';
const MICROS = 1_000_000n;

export const currencyAlertKey = (platform: Platform) => `platform-currency:${platform}`;
export const timeZoneAlertKey = (platform: Platform) => `platform-timezone:${platform}`;
export const expiryAlertKey = (platform: Platform) => `platform-token:${platform}`;
/** A token that runs out within this long is announced on every campaign it syncs (decision 146). */
const EXPIRY_WARNING_MS = 7 * 86_400_000;

export type Terms = {
  /** The platform's currency (ISO 4217, upper case). */
  currency: string;
  /** US-dollar micros for one unit of `currency` (1,000,000 for USD). */
  rateMicros: number;
  /** The platform's time zone ('' when it did not say). */
  timeZone: string;
};

export type TermsOutcome = { status: 'ok'; terms: Terms } | { status: 'needs_rate'; currency: string };

/** The platform's amount in US-dollar micros at `rateMicros` per unit (rounded half up). */
export function toUsdMicros(platformMicros: number, rateMicros: number): number {
  const product = BigInt(Math.round(platformMicros)) * BigInt(rateMicros);
  const half = product >= 0n ? MICROS / 2n : -MICROS / 2n;
  return Number((product + half) / MICROS);
}

const UTC_NAMES = new Set(['UTC', 'ETC/UTC', 'GMT', 'ETC/GMT', 'Z', 'ETC/ZULU']);
/** Whether two IANA names are the same zone (the names of UTC count as one). */
function sameZone(a: string, b: string): boolean {
  const x = a.trim().toUpperCase();
  const y = b.trim().toUpperCase();
  return x === y || (UTC_NAMES.has(x) && UTC_NAMES.has(y));
}

export function currencyMessage(platform: Platform, currency: string): string {
  const name = PLATFORM_LABELS[platform];
  return (
    `${name} bills this ad account in ${currency}, and its spend is not imported as US dollars. ` +
    `Enter on the campaign's ${name} link how many US dollars one ${currency} is worth; the next sync ` +
    'then imports the spend converted at that rate.'
  );
}

function timeZoneMessage(platform: Platform, platformZone: string, installationZone: string): string {
  const name = PLATFORM_LABELS[platform];
  return (
    `${name} counts this ad account's days in ${platformZone}; this installation counts days in ` +
    `${installationZone}. Each ${name} day's spend is stored on the same date here, so a date's spend ` +
    'and its visits cover different hours. Set the installation time zone or the ad account time ' +
    'zone so that they match.'
  );
}

/** The terms of one report: the rate to use, or that a rate is missing. */
export function termsOf(report: AdReport, usdRateMicros: number | null): TermsOutcome {
  const currency = (report.currency ?? STATS_CURRENCY).trim().toUpperCase() || STATS_CURRENCY;
  const timeZone = report.timeZone?.trim() ?? '';
  if (currency === STATS_CURRENCY)
    return { status: 'ok', terms: { currency, rateMicros: 1_000_000, timeZone } };
  if (!usdRateMicros || usdRateMicros <= 0) return { status: 'needs_rate', currency };
  return { status: 'ok', terms: { currency, rateMicros: usdRateMicros, timeZone } };
}

/** Raises one of these warnings on the campaign (once per key; type sync, as the sync's own). */
const warn = (env: Pick<Env, 'DB'>, campaignId: number, key: string, message: string, now = Date.now()) =>
  raiseAlert(env, campaignId, { type: 'sync', key, message, created_at: now } satisfies CampaignAlert);

/** Raises the time-zone alert when the platform's zone differs from the installation's. */
export async function warnOnTimeZone(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  platform: Platform,
  platformZone: string,
  installationZone: string,
): Promise<boolean> {
  if (!platformZone || sameZone(platformZone, installationZone)) return false;
  await warn(
    env,
    campaignId,
    timeZoneAlertKey(platform),
    timeZoneMessage(platform, platformZone, installationZone),
  );
  return true;
}

/** Raises the alert of spend in a currency without a rate. */
export const warnOnCurrency = (
  env: Pick<Env, 'DB'>,
  campaignId: number,
  platform: Platform,
  currency: string,
) => warn(env, campaignId, currencyAlertKey(platform), currencyMessage(platform, currency));

function expiryMessage(platform: Platform, expiresAt: number): string {
  const name = PLATFORM_LABELS[platform];
  const day = new Date(expiresAt).toISOString().slice(0, 10);
  return (
    `The ${name} connection that imports this campaign's spend runs out on ${day} (UTC). ` +
    `Connect ${name} again in Integrations before then, or the cost import stops.`
  );
}

/** Raises the alert of a credential that runs out within a week; answers whether it did. */
export async function warnOnExpiry(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  platform: Platform,
  expiresAt: number | null | undefined,
  now = Date.now(),
): Promise<boolean> {
  if (!expiresAt || expiresAt - now > EXPIRY_WARNING_MS) return false;
  await warn(env, campaignId, expiryAlertKey(platform), expiryMessage(platform, expiresAt), now);
  return true;
}
