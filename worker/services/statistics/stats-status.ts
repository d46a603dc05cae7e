import type { LiveIntentStatus } from '../../../schema/stats-api';
import type { Env } from '../../env';
import { TOKEN_TEMPLATES } from '../campaigns/token-templates';

// The parts of POST /api/statistics' answer that describe a campaign's state rather than its
// numbers (spec 3 §3, §7, §8; docs/decisions/169): the force sync's completed message, the
// LiveIntent sync's last error and whether the user dismissed it, and which extra tokens are the
// traffic source's defaults.

const VALID = `CASE WHEN json_valid(metainfo) AND json_type(metainfo) = 'object' THEN metainfo ELSE '{}' END`;
/** The metainfo key holding the time (ms) of the LiveIntent sync error the user dismissed. */
const DISMISSED = '$.liveintentErrorDismissedAt';

const NO_STATUS: LiveIntentStatus = { error: false, hideNotif: true, message: '' };

/** The force sync's completed message while it is not dismissed, else null (spec 3 §4). */
export async function forceSyncCompletedStatus(
  env: Pick<Env, 'DB'>,
  campaign: { id: number; trafficSource: string },
): Promise<string | null> {
  if (campaign.trafficSource !== 'liveintent') return null;
  const row = await env.DB.prepare(
    'SELECT completed_message FROM liveintent_force_sync WHERE campaign_id = ?1',
  )
    .bind(campaign.id)
    .first<{ completed_message: string }>();
  return row?.completed_message || null;
}

/**
 * The LiveIntent cost sync's last error (spec 3 §8: an error toast unless hideNotif): none for
 * other sources or when the last sync succeeded; hideNotif once the user dismissed that error
 * (a later error shows again).
 */
export async function liveIntentStatus(
  env: Pick<Env, 'DB'>,
  campaign: { id: number; trafficSource: string },
): Promise<LiveIntentStatus> {
  if (campaign.trafficSource !== 'liveintent') return NO_STATUS;
  const row = await env.DB.prepare(
    `SELECT s.last_error, s.last_error_at, json_extract(${VALID}, '${DISMISSED}') dismissed
     FROM platform_sync s JOIN campaigns c ON c.id = s.campaign_id
     WHERE s.campaign_id = ?1 AND s.platform = 'liveintent'`,
  )
    .bind(campaign.id)
    .first<{ last_error: string; last_error_at: number | null; dismissed: number | null }>();
  if (!row?.last_error) return NO_STATUS;
  const at = row.last_error_at ?? 0;
  return { error: true, hideNotif: row.dismissed !== null && row.dismissed >= at, message: row.last_error };
}

/** Records that the user dismissed the LiveIntent sync error shown now; false when there is none. */
export async function dismissLiveIntentError(env: Pick<Env, 'DB'>, campaignId: number): Promise<boolean> {
  const { meta } = await env.DB.prepare(
    `UPDATE campaigns SET metainfo = json_set(${VALID}, '${DISMISSED}',
       (SELECT coalesce(last_error_at, 0) FROM platform_sync WHERE campaign_id = ?1 AND platform = 'liveintent'))
     WHERE id = ?1 AND EXISTS (SELECT 1 FROM platform_sync
       WHERE campaign_id = ?1 AND platform = 'liveintent' AND last_error != '')`,
  )
    .bind(campaignId)
    .run();
  return meta.changes > 0;
}

/** The parameters of the traffic source's token template: the campaign's default extra tokens. */
export function defaultTokenParameters(trafficSource: string): Set<string> {
  const template = TOKEN_TEMPLATES.find((t) => t.key === trafficSource.toLowerCase());
  return new Set(template?.tokens.map((t) => t.parameter) ?? []);
}
