import type { Env } from '../env';
import { randomToken, timingSafeEqual } from '../lib/crypto';
import { raiseAlert } from './alerts';
import { getSettings, invalidateSettings } from './settings';

// The postback secret (docs/tracking.md "Postback secret", docs/decisions/042). A click id is
// public (anyone gets one by opening the campaign link), so it cannot prove that a conversion
// came from the network: the secret does. One per installation, made at first need; a campaign
// may have its own instead. Every postback and pixel URL the product shows carries it.

export const SECRET_PARAM = 'secret';
const CACHE_MS = 5_000;
let campaignCache = new Map<number, { at: number; secret: string | null }>();

const newSecret = () => randomToken(18);

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

/** The campaign's own secret, or null when it uses the installation's. */
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

/** The secret a conversion of `campaignId` must carry. */
export async function expectedSecret(env: Pick<Env, 'DB'>, campaignId: number): Promise<string> {
  return (await campaignSecret(env, campaignId)) ?? (await installationSecret(env));
}

export async function secretMatches(env: Pick<Env, 'DB'>, campaignId: number, given: string | null) {
  if (!given) return false;
  return timingSafeEqual(given, await expectedSecret(env, campaignId));
}

/** A new installation secret: every URL with the old one stops converting at once. */
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

/** Gives a campaign a (new) secret of its own, or, with `own` false, returns it to the installation's. */
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
  return count;
}
