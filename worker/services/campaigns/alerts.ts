import type { CampaignAlert } from '../../../schema/stats-api';
import type { Env } from '../../env';

// Campaign alerts live in the campaign's metainfo (spec 3 §3: an alerts array). The system
// raises them; the statistics screen shows them and the user dismisses them one by one.

const VALID = `CASE WHEN json_valid(metainfo) AND json_type(metainfo) = 'object' THEN metainfo ELSE '{}' END`;
const ALERTS = `coalesce(json_extract(${VALID}, '$.alerts'), '[]')`;

/**
 * Appends an alert in one statement (no read-modify-write race with other writers), once per
 * key: an alert whose key is already there is not raised again. Answers whether it was added.
 */
export async function raiseAlert(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  alert: CampaignAlert,
): Promise<boolean> {
  const { meta } = await env.DB.prepare(
    `UPDATE campaigns SET metainfo = json_set(${VALID}, '$.alerts', json_insert(json(${ALERTS}), '$[#]', json(?2)))
     WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM json_each(${ALERTS}) WHERE json_extract(value, '$.key') = ?3)`,
  )
    .bind(campaignId, JSON.stringify(alert), alert.key)
    .run();
  return meta.changes > 0;
}
