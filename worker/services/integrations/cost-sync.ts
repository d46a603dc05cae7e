import { PLATFORMS, type Platform } from '../../../schema/integrations';
import type { PlatformSyncStatus } from '../../../schema/integrations-api';
import { COST_PRIORITY } from '../../../schema/stats';
import type { CampaignAlert } from '../../../schema/stats-api';
import type { Env } from '../../env';
import { type AdDay, type AdReport, PLATFORM_LABELS, PlatformError, toMicros } from '../../integrations/http';
import { raiseAlert } from '../campaigns/alerts';
import { dayIn } from '../ingest/days';
import { getSettings } from '../settings/settings';
import { liveIntentAccounts } from '../settings/settings-form';
import { refreshEffectiveCosts } from '../statistics/costs';
import {
  currencyAlertKey,
  expiryAlertKey,
  type Terms,
  termsOf,
  timeZoneAlertKey,
  toUsdMicros,
  warnOnCurrency,
  warnOnExpiry,
  warnOnTimeZone,
} from './cost-terms';
import { credentialFor } from './credentials';
import { fetchAdReport, type PlatformLink } from './platform-reports';

// The scheduled cost import (docs/decisions/073). The cron queues one message per linked
// campaign on the statistics queue; each run asks the platform for the trailing window of days
// and replaces that platform's cost rows of those days in one D1 batch, so a re-run never
// doubles and a platform's correction of a past day replaces the old numbers. Hand entries keep
// their rows; the platform's rows win over them per key (docs/statistics.md).

/** Platforms revise the last days' costs: each run re-imports this many days up to today. */
const SYNC_WINDOW_DAYS = 3;
/** A linked campaign is synced about this often (the cron runs every five minutes). */
export const SYNC_INTERVAL_MS = 60 * 60 * 1000;
const ROWS_PER_STATEMENT = 400;

export type PlatformSyncMessage = {
  kind: 'platform-sync';
  campaignId: number;
  platform: Platform;
  since?: string;
  until?: string;
};

const alertKey = (platform: Platform) => `platform-sync:${platform}`;

export function isPlatform(value: unknown): value is Platform {
  return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The trailing window of days in the installation's time zone, today included. */
async function syncWindow(env: Env, now = Date.now()) {
  const today = dayIn(now, (await getSettings(env)).time_zone);
  return { since: addDays(today, 1 - SYNC_WINDOW_DAYS), until: today };
}

/** Links a campaign to its campaign on a platform (the link is what the cron syncs). */
export async function linkCampaign(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  platform: Platform,
  link: { externalCampaignId: string; externalAccountId?: string; enabled?: boolean; usdRate?: string },
) {
  // usdRate: absent keeps the rate entered before, '' removes it (docs/decisions/147).
  const rate = link.usdRate === undefined ? null : link.usdRate === '' ? 0 : toMicros(link.usdRate);
  await env.DB.prepare(
    `INSERT INTO platform_sync (campaign_id, platform, external_campaign_id, external_account_id, enabled, usd_rate_micros)
     VALUES (?1, ?2, ?3, ?4, ?5, nullif(?6, 0))
     ON CONFLICT (campaign_id, platform) DO UPDATE SET external_campaign_id = excluded.external_campaign_id,
       external_account_id = excluded.external_account_id, enabled = excluded.enabled,
       usd_rate_micros = CASE WHEN ?6 IS NULL THEN platform_sync.usd_rate_micros ELSE excluded.usd_rate_micros END,
       updated_at = unixepoch() * 1000`,
  )
    .bind(
      campaignId,
      platform,
      link.externalCampaignId,
      link.externalAccountId ?? '',
      link.enabled === false ? 0 : 1,
      rate,
    )
    .run();
}

type LinkRow = {
  campaign_id: number;
  platform: Platform;
  external_account_id: string;
  external_campaign_id: string;
  enabled: number;
  created_by: number | null;
  deleted: number;
  usd_rate_micros: number | null;
};

async function linkOf(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  platform: Platform,
): Promise<(PlatformLink & { usdRateMicros: number | null }) | null> {
  const row = await env.DB.prepare(
    `SELECT ps.*, c.created_by, c.deleted FROM platform_sync ps JOIN campaigns c ON c.id = ps.campaign_id
     WHERE ps.campaign_id = ?1 AND ps.platform = ?2`,
  )
    .bind(campaignId, platform)
    .first<LinkRow>();
  if (row?.enabled !== 1 || row.deleted === 1 || !row.external_campaign_id) return null;
  return {
    campaignId,
    platform,
    externalAccountId: row.external_account_id,
    externalCampaignId: row.external_campaign_id,
    ownerId: row.created_by,
    usdRateMicros: row.usd_rate_micros,
  };
}

/**
 * A Facebook campaign verified in the editor (metainfo.facebook_campaign_id, verified) is linked
 * without a separate step; a link made by hand for another platform is left alone.
 */
export async function adoptVerifiedFacebookLinks(env: Pick<Env, 'DB'>, campaignId?: number) {
  await env.DB.prepare(
    `INSERT INTO platform_sync (campaign_id, platform, external_campaign_id)
     SELECT id, 'facebook', CAST(json_extract(metainfo, '$.facebook_campaign_id') AS TEXT) FROM campaigns
     WHERE deleted = 0 AND traffic_source = 'facebook' AND (?1 IS NULL OR id = ?1) AND json_valid(metainfo)
       AND json_extract(metainfo, '$.verified') = 1 AND coalesce(json_extract(metainfo, '$.facebook_campaign_id'), '') != ''
     ON CONFLICT (campaign_id, platform) DO UPDATE SET external_campaign_id = excluded.external_campaign_id,
       updated_at = unixepoch() * 1000 WHERE platform_sync.external_campaign_id != excluded.external_campaign_id`,
  )
    .bind(campaignId ?? null)
    .run();
}

/** Cron: one sync message per linked campaign that is due; answers how many were queued. */
/**
 * The settings' "LiveIntent fetch" switch (liFetchEnable, spec 2 §3) governs the scheduled
 * LiveIntent import that reads with the settings' own account: while it is off, a LiveIntent
 * link whose owner has no credential of their own (Integrations) is not queued
 * (docs/decisions/174-user-lookup-and-unread-settings.md). "Sync now" still runs on request.
 */
async function withoutUnfetchedLiveIntent<T extends { platform: Platform; created_by: number | null }>(
  env: Env,
  rows: T[],
): Promise<T[]> {
  if (!rows.some((r) => r.platform === 'liveintent')) return rows;
  if ((await liveIntentAccounts(env)).own.fetchEnabled) return rows;
  const owned = new Map<number | null, boolean>();
  const out: T[] = [];
  for (const r of rows) {
    if (r.platform !== 'liveintent') {
      out.push(r);
      continue;
    }
    if (!owned.has(r.created_by))
      owned.set(r.created_by, (await credentialFor(env, 'liveintent', r.created_by)) !== null);
    if (owned.get(r.created_by)) out.push(r);
  }
  return out;
}

export async function enqueueDueSyncs(env: Env, now = Date.now()): Promise<number> {
  await adoptVerifiedFacebookLinks(env);
  const { results: due } = await env.DB.prepare(
    `SELECT ps.campaign_id, ps.platform, c.created_by FROM platform_sync ps JOIN campaigns c ON c.id = ps.campaign_id
     WHERE ps.enabled = 1 AND c.deleted = 0 AND ps.external_campaign_id != ''
       AND (ps.queued_at IS NULL OR ps.queued_at <= ?1) LIMIT 5000`,
  )
    .bind(now - SYNC_INTERVAL_MS)
    .all<{ campaign_id: number; platform: Platform; created_by: number | null }>();
  const results = await withoutUnfetchedLiveIntent(env, due);
  for (let i = 0; i < results.length; i += 100) {
    const chunk = results.slice(i, i + 100);
    await env.STATS_QUEUE.sendBatch(
      chunk.map((r) => ({
        body: {
          kind: 'platform-sync',
          campaignId: r.campaign_id,
          platform: r.platform,
        } satisfies PlatformSyncMessage,
      })),
    );
    await env.DB.batch(
      chunk.map((r) =>
        env.DB.prepare(
          'UPDATE platform_sync SET queued_at = ?3 WHERE campaign_id = ?1 AND platform = ?2',
        ).bind(r.campaign_id, r.platform, now),
      ),
    );
  }
  return results.length;
}

/** Sums rows of the same (day, ad): a platform may split one ad's day over several rows. */
function byDayAndAd(rows: AdDay[], since: string, until: string) {
  const sums = new Map<string, [string, string, number, number, number]>();
  for (const r of rows) {
    if (r.date < since || r.date > until) continue;
    const key = `${r.date}\u0000${r.adId}`;
    const s = sums.get(key) ?? [r.date, r.adId, 0, 0, 0];
    s[2] += r.impressions;
    s[3] += r.clicks;
    s[4] += r.spendMicros;
    sums.set(key, s);
  }
  return [...sums.values()];
}

const CLEAR_ALERT_SQL = `UPDATE campaigns SET metainfo = json_set(metainfo, '$.alerts', (
    SELECT json_group_array(json(value)) FROM json_each(json_extract(metainfo, '$.alerts'))
    WHERE json_extract(value, '$.key') IS NOT ?2))
  WHERE id = ?1 AND json_valid(metainfo) AND json_type(metainfo, '$.alerts') = 'array'
    AND EXISTS (SELECT 1 FROM json_each(json_extract(metainfo, '$.alerts')) WHERE json_extract(value, '$.key') = ?2)`;

/** Replaces the platform's cost rows of [since, until] with `rows`, all or nothing. */
export async function replacePlatformCosts(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  platform: Platform,
  rows: AdDay[],
  since: string,
  until: string,
  terms: Terms = { currency: 'USD', rateMicros: 1_000_000, timeZone: '' },
) {
  const now = Date.now();
  // [day, ad, impressions, clicks, platform spend, US-dollar spend]
  const tuples = byDayAndAd(rows, since, until).map((t) => [...t, toUsdMicros(t[4], terms.rateMicros)]);
  const statements: D1PreparedStatement[] = [
    env.DB.prepare('DELETE FROM costs WHERE campaign_id = ?1 AND source = ?2 AND day BETWEEN ?3 AND ?4').bind(
      campaignId,
      platform,
      since,
      until,
    ),
  ];
  for (let i = 0; i < tuples.length; i += ROWS_PER_STATEMENT) {
    statements.push(
      env.DB.prepare(
        `INSERT INTO costs (campaign_id, day, target, source, priority, impressions, ad_clicks, spend_micros,
           currency, platform_spend_micros, updated_by, updated_at)
         SELECT ?1, value ->> 0, value ->> 1, ?2, ?3, value ->> 2, value ->> 3, value ->> 5, ?6, value ->> 4, NULL, ?4
         FROM json_each(?5)`,
      ).bind(
        campaignId,
        platform,
        COST_PRIORITY[platform],
        now,
        JSON.stringify(tuples.slice(i, i + ROWS_PER_STATEMENT)),
        terms.currency,
      ),
    );
  }
  statements.push(...refreshEffectiveCosts(env.DB, campaignId, since, until));
  statements.push(
    env.DB.prepare(
      `UPDATE platform_sync SET last_sync_at = ?3, last_success_at = ?3, last_error = '', last_error_at = NULL,
         synced_from = ?4, synced_to = ?5, rows_imported = ?6, account_currency = ?7, account_time_zone = ?8,
         updated_at = ?3 WHERE campaign_id = ?1 AND platform = ?2`,
    ).bind(campaignId, platform, now, since, until, tuples.length, terms.currency, terms.timeZone),
    env.DB.prepare(CLEAR_ALERT_SQL).bind(campaignId, alertKey(platform)),
    env.DB.prepare(CLEAR_ALERT_SQL).bind(campaignId, currencyAlertKey(platform)),
  );
  await env.DB.batch(statements);
  return tuples.length;
}

/** Records a failed sync and raises (once) the campaign's alert with the platform's message. */
async function recordFailure(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  platform: Platform,
  err: PlatformError,
) {
  const now = Date.now();
  await env.DB.prepare(
    `UPDATE platform_sync SET last_sync_at = ?3, last_error = ?4, last_error_at = ?3, updated_at = ?3
     WHERE campaign_id = ?1 AND platform = ?2`,
  )
    .bind(campaignId, platform, now, err.message)
    .run();
  const alert: CampaignAlert = {
    type: 'sync',
    key: alertKey(platform),
    message: `${PLATFORM_LABELS[platform]} costs could not be imported: ${err.detail}`,
    created_at: now,
  };
  await raiseAlert(env, campaignId, alert);
}

export type SyncOutcome =
  | { status: 'done'; rows: number; since: string; until: string }
  | { status: 'skipped' }
  /** Spend in another currency and no rate entered: nothing stored, the campaign alerted. */
  | { status: 'needs_rate'; currency: string }
  | { status: 'failed'; error: PlatformError };

/**
 * One sync of one campaign. A platform failure is recorded and raised as an alert, then answered
 * (the queue consumer decides whether to retry); anything else throws.
 */
export async function syncCampaignCosts(
  env: Env,
  campaignId: number,
  platform: Platform,
  window?: { since: string; until: string },
): Promise<SyncOutcome> {
  const link = await linkOf(env, campaignId, platform);
  if (!link) return { status: 'skipped' };
  const installationZone = (await getSettings(env)).time_zone;
  const { since, until } = window ?? (await syncWindow(env));
  let report: AdReport;
  try {
    report = await fetchAdReport(env, link, since, until);
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    await recordFailure(env, campaignId, platform, err);
    return { status: 'failed', error: err };
  }
  const outcome = termsOf(report, link.usdRateMicros);
  if (outcome.status === 'needs_rate') {
    await noteCurrency(env, campaignId, platform, outcome.currency, report.timeZone ?? '');
    return outcome;
  }
  const { terms } = outcome;
  const count = await replacePlatformCosts(env, campaignId, platform, report.rows, since, until, terms);
  // Each warning stays while its cause does, and goes with the first sync without it.
  const cleared: string[] = [];
  if (!(await warnOnTimeZone(env, campaignId, platform, terms.timeZone, installationZone)))
    cleared.push(timeZoneAlertKey(platform));
  if (!(await warnOnExpiry(env, campaignId, platform, report.credentialExpiresAt)))
    cleared.push(expiryAlertKey(platform));
  if (cleared.length)
    await env.DB.batch(cleared.map((key) => env.DB.prepare(CLEAR_ALERT_SQL).bind(campaignId, key)));
  return { status: 'done', rows: count, since, until };
}

/** Spend in a currency without a rate: said on the link and on the campaign; nothing stored. */
async function noteCurrency(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  platform: Platform,
  currency: string,
  timeZone: string,
) {
  const now = Date.now();
  await env.DB.prepare(
    `UPDATE platform_sync SET last_sync_at = ?3, last_error = ?4, last_error_at = ?3, account_currency = ?5,
       account_time_zone = ?6, updated_at = ?3 WHERE campaign_id = ?1 AND platform = ?2`,
  )
    .bind(
      campaignId,
      platform,
      now,
      `Spend is in ${currency}: enter a US-dollar rate on the campaign's link in its editor to import it.`,
      currency,
      timeZone,
    )
    .run();
  await warnOnCurrency(env, campaignId, platform, currency);
}

/** A sync whose every retry failed: said on the link; its alert is already up. */
export async function giveUpSync(env: Pick<Env, 'DB'>, campaignId: number, platform: Platform) {
  await env.DB.prepare(
    `UPDATE platform_sync SET last_error = CASE WHEN last_error = '' THEN 'The sync failed after every retry.'
       ELSE last_error END, updated_at = ?3 WHERE campaign_id = ?1 AND platform = ?2`,
  )
    .bind(campaignId, platform, Date.now())
    .run();
}

/** A platform link's sync state, as GET /api/integrations/sync-status answers it. */
export type SyncStatusRow = PlatformSyncStatus;

/** The links of a campaign with the state of their last sync. */
export async function syncStatus(env: Pick<Env, 'DB'>, campaignId: number): Promise<SyncStatusRow[]> {
  const { results } = await env.DB.prepare(
    'SELECT * FROM platform_sync WHERE campaign_id = ?1 ORDER BY platform',
  )
    .bind(campaignId)
    .all<Record<string, unknown>>();
  return results.map((r) => ({
    platform: r.platform as Platform,
    externalCampaignId: String(r.external_campaign_id),
    externalAccountId: String(r.external_account_id),
    enabled: r.enabled === 1,
    lastSyncAt: (r.last_sync_at as number | null) ?? null,
    lastSuccessAt: (r.last_success_at as number | null) ?? null,
    lastError: String(r.last_error ?? ''),
    syncedFrom: String(r.synced_from ?? ''),
    syncedTo: String(r.synced_to ?? ''),
    rowsImported: Number(r.rows_imported ?? 0),
    accountCurrency: String(r.account_currency ?? ''),
    accountTimeZone: String(r.account_time_zone ?? ''),
    usdRate: typeof r.usd_rate_micros === 'number' ? String(r.usd_rate_micros / 1_000_000) : '',
  }));
}
