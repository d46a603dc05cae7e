import type { LegacyCampaignUse, LegacyGrace } from '../../../schema/postback-secret-api';
import type { Env } from '../../env';
import { hmacKey, randomToken, timingSafeEqual, toBase64Url } from '../../lib/crypto';
import { raiseAlert } from '../campaigns/alerts';
import { getSettings, invalidateSettings, type Settings } from '../settings/settings';

// The postback secret (docs/tracking.md "Postback secret", docs/decisions/042 and 120). A click
// id is public (anyone gets one by opening the campaign link), so it cannot prove that a
// conversion came from the network: the secret does. Each campaign has its own: derived from the
// installation's secret (an HMAC of it and the campaign id, so no row per campaign and rotating
// the installation's rotates them all), or one stored for the campaign alone. Only that secret
// converts the campaign's clicks, so the secret of one campaign never books a conversion on
// another. The installation's secret itself is an admin's; it converts every campaign without a
// stored one only during the grace period that migration 0020 opens on existing installations.

export const SECRET_PARAM = 'secret';
const CACHE_MS = 5_000;
let campaignCache = new Map<number, { at: number; secret: string | null }>();
let derivedKey: { secret: string; key: Promise<CryptoKey> } | null = null;

const newSecret = () => randomToken(18);
const encoder = new TextEncoder();

/** The installation's secret; the first caller makes it (concurrent callers agree on one). */
export async function installationSecret(env: Pick<Env, 'DB'>): Promise<string> {
  const current = (await getSettings(env)).postback_secret;
  if (current) return current;
  await env.DB.prepare(
    `INSERT INTO settings (key, value) VALUES ('postback_secret', ?1) ON CONFLICT(key) DO NOTHING`,
  )
    .bind(newSecret())
    .run();
  invalidateSettings();
  return (await getSettings(env, { fresh: true })).postback_secret;
}

/** The campaign's own stored secret, or null when its secret is derived. */
export async function campaignSecret(env: Pick<Env, 'DB'>, campaignId: number): Promise<string | null> {
  const hit = campaignCache.get(campaignId);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.secret;
  const row = await env.DB.prepare('SELECT secret FROM campaign_postback_secrets WHERE campaign_id = ?1')
    .bind(campaignId)
    .first<{ secret: string }>();
  if (campaignCache.size > 10_000) campaignCache = new Map();
  campaignCache.set(campaignId, { at: Date.now(), secret: row?.secret ?? null });
  return row?.secret ?? null;
}

/**
 * The campaign's derived secret: HMAC-SHA256(installation secret, "postback:<id>"), its first 18
 * bytes in base64url (24 characters, like a stored one). Without the installation's secret
 * nobody can compute another campaign's.
 */
async function derivedSecret(env: Pick<Env, 'DB'>, campaignId: number): Promise<string> {
  const secret = await installationSecret(env);
  if (derivedKey?.secret !== secret) derivedKey = { secret, key: hmacKey(secret) };
  const mac = await crypto.subtle.sign(
    'HMAC',
    await derivedKey.key,
    encoder.encode(`postback:${campaignId}`),
  );
  return toBase64Url(new Uint8Array(mac).slice(0, 18));
}

/** The secret a conversion of `campaignId` must carry: its stored one, else its derived one. */
export async function expectedSecret(env: Pick<Env, 'DB'>, campaignId: number): Promise<string> {
  return (await campaignSecret(env, campaignId)) ?? (await derivedSecret(env, campaignId));
}

/** The end of the grace period (ms), or null when there is none or it is over. */
function legacyUntil(settings: Settings, now = Date.now()): number | null {
  const until = Number(settings.postback_legacy_until);
  return Number.isFinite(until) && until > now ? until : null;
}

/**
 * How a given secret matches the campaign: `campaign` (its own, stored or derived), `legacy`
 * (the installation's, during the grace period, for a campaign without a stored secret), or
 * null. Every comparison is constant-time.
 */
export async function matchSecret(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  given: string,
): Promise<'campaign' | 'legacy' | null> {
  if (!given) return null;
  const stored = await campaignSecret(env, campaignId);
  if (stored !== null) return timingSafeEqual(given, stored) ? 'campaign' : null;
  if (timingSafeEqual(given, await derivedSecret(env, campaignId))) return 'campaign';
  if (legacyUntil(await getSettings(env)) === null) return null;
  return timingSafeEqual(given, await installationSecret(env)) ? 'legacy' : null;
}

/** Counts a conversion accepted with the installation's secret during the grace period. */
export async function recordLegacyUse(env: Pick<Env, 'DB'>, campaignId: number, now = Date.now()) {
  await env.DB.prepare(
    `INSERT INTO postback_legacy_uses (campaign_id, day, count, last_at) VALUES (?1, ?2, 1, ?3)
     ON CONFLICT(campaign_id, day) DO UPDATE SET count = count + 1, last_at = max(last_at, excluded.last_at)`,
  )
    .bind(campaignId, new Date(now).toISOString().slice(0, 10), now)
    .run();
}

/** The grace period and its use over the last `days` days, the campaigns that still use it first. */
export async function legacyState(env: Pick<Env, 'DB'>, days = 30, now = Date.now()): Promise<LegacyGrace> {
  const since = new Date(now - days * 86_400_000).toISOString().slice(0, 10);
  const { results } = await env.DB.prepare(
    `SELECT u.campaign_id AS id, coalesce(c.name, '') AS name, sum(u.count) AS uses, max(u.last_at) AS lastUsedAt
     FROM postback_legacy_uses u LEFT JOIN campaigns c ON c.id = u.campaign_id
     WHERE u.day >= ?1 GROUP BY u.campaign_id ORDER BY lastUsedAt DESC LIMIT 50`,
  )
    .bind(since)
    .all<LegacyCampaignUse>();
  return {
    until: legacyUntil(await getSettings(env, { fresh: true }), now),
    uses: results.reduce((sum, r) => sum + r.uses, 0),
    lastUsedAt: results.length ? Math.max(...results.map((r) => r.lastUsedAt)) : null,
    campaigns: results,
  };
}

/** Ends the grace period now: from then on only each campaign's own secret converts it. */
export async function endLegacyGrace(env: Pick<Env, 'DB'>): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO settings (key, value) VALUES ('postback_legacy_until', '0')
     ON CONFLICT(key) DO UPDATE SET value = '0', updated_at = unixepoch() * 1000`,
  ).run();
  invalidateSettings();
}

/**
 * A new installation secret: every derived campaign secret changes with it, and (during the
 * grace period) URLs with the old installation secret stop converting at once.
 */
export async function rotateInstallationSecret(env: Pick<Env, 'DB'>): Promise<string> {
  const secret = newSecret();
  await env.DB.prepare(
    `INSERT INTO settings (key, value) VALUES ('postback_secret', ?1)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = unixepoch() * 1000`,
  )
    .bind(secret)
    .run();
  invalidateSettings();
  return secret;
}

/** Gives a campaign a (new) stored secret of its own, or, with `own` false, returns it to its derived one. */
export async function setCampaignSecret(env: Pick<Env, 'DB'>, campaignId: number, own: boolean) {
  if (own) {
    await env.DB.prepare(
      `INSERT INTO campaign_postback_secrets (campaign_id, secret) VALUES (?1, ?2)
       ON CONFLICT(campaign_id) DO UPDATE SET secret = excluded.secret, created_at = unixepoch() * 1000`,
    )
      .bind(campaignId, newSecret())
      .run();
  } else {
    await env.DB.prepare('DELETE FROM campaign_postback_secrets WHERE campaign_id = ?1')
      .bind(campaignId)
      .run();
  }
  campaignCache.delete(campaignId);
  return expectedSecret(env, campaignId);
}

export type RejectionReason = 'secret' | 'negative_payout' | 'click_limit';

const ALERT_TEXT: Record<RejectionReason, string> = {
  secret: 'without the right postback secret',
  negative_payout: 'with a negative payout that reverses no earlier conversion',
  click_limit: 'past the conversion limit of their click',
};

/**
 * Counts a refused conversion for the campaign and keeps one alert per campaign, day and reason
 * whose text carries the count, so the owner sees forged or misconfigured postbacks.
 */
export async function recordRejection(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  reason: RejectionReason,
  now = Date.now(),
): Promise<number> {
  const day = new Date(now).toISOString().slice(0, 10);
  const row = await env.DB.prepare(
    `INSERT INTO conversion_rejections (campaign_id, day, reason, count) VALUES (?1, ?2, ?3, 1)
     ON CONFLICT(campaign_id, day, reason) DO UPDATE SET count = count + 1 RETURNING count`,
  )
    .bind(campaignId, day, reason)
    .first<{ count: number }>();
  const count = row?.count ?? 1;
  await rejectionAlert(env, campaignId, reason, day, count, now);
  return count;
}

/**
 * Keeps one alert per campaign, day and reason whose text carries `count` (the day's total of
 * conversion_rejections): raised the first time, its text updated after that.
 */
export async function rejectionAlert(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  reason: RejectionReason,
  day: string,
  count: number,
  now = Date.now(),
): Promise<void> {
  const key = `rejected-${reason}-${day}`;
  const message = (n: number) =>
    `${n} ${n === 1 ? 'conversion was' : 'conversions were'} refused on ${day} (UTC) ${ALERT_TEXT[reason]}.`;
  if (
    !(await raiseAlert(env, campaignId, { type: 'postback', key, message: message(count), created_at: now }))
  ) {
    // The alert is there already: its text follows the count, in one statement.
    await env.DB.prepare(
      `UPDATE campaigns SET metainfo = json_set(metainfo, '$.alerts', (
         SELECT json_group_array(CASE WHEN json_extract(value, '$.key') = ?2
           THEN json_set(value, '$.message', ?3) ELSE json(value) END)
         FROM json_each(json_extract(metainfo, '$.alerts'))))
       WHERE id = ?1 AND json_valid(metainfo)`,
    )
      .bind(campaignId, key, message(count))
      .run();
  }
}
