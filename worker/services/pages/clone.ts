import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { campaignForUser, refuseDirectLinkLandings } from '../campaigns';
import type { ItemKind } from '../campaigns/item-switch';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import { checkOwned, IN_IDS, TABLES } from './items';
import { LANDING_INSERT, OFFER_INSERT } from './rows';

/**
 * Copies the items (in id order) as new, live items; a copy never shares a row with its
 * original. Cloning a path or an option also copies its live landing pages and offers, so the
 * copy routes traffic like the original.
 */
export async function cloneItems(
  env: Env,
  user: AuthUser,
  kind: ItemKind,
  campaignId: number,
  ids: number[],
) {
  const campaign = await campaignForUser(env, user, campaignId);
  if (kind === 'landing') refuseDirectLinkLandings(campaign);
  await checkOwned(env, kind, campaign.id, ids);
  const now = Date.now();
  const idsJson = JSON.stringify(ids);
  const db = env.DB;
  const statements: D1PreparedStatement[] = [];
  if (kind === 'landing') {
    statements.push(
      db
        .prepare(
          `${LANDING_INSERT} SELECT campaign_id, path_id, name || ' (copy)', url, share, active, agents, 0, ?3, ?4, ?4
           FROM landing_pages WHERE campaign_id = ?1 AND ${IN_IDS} ORDER BY id`,
        )
        .bind(campaign.id, idsJson, user.id, now),
    );
  } else if (kind === 'offer') {
    statements.push(
      db
        .prepare(
          `${OFFER_INSERT} SELECT campaign_id, path_id, option_id, name || ' (copy)', url, share, payout_micros, active,
             postback_parameter, agents, li_conversion_name, rotator_participant_email, 0, ?3, ?4, ?4
           FROM offer_pages WHERE campaign_id = ?1 AND ${IN_IDS} ORDER BY id`,
        )
        .bind(campaign.id, idsJson, user.id, now),
    );
  } else {
    // The copy's id is the campaign's largest of its table right after the insert: ids only grow
    // (AUTOINCREMENT) and the batch is one transaction, so no other write comes in between.
    const newId = `(SELECT max(id) FROM ${TABLES[kind]} WHERE campaign_id = ?1)`;
    for (const id of [...ids].sort((a, b) => a - b)) {
      if (kind === 'path') {
        statements.push(
          db
            .prepare(
              `INSERT INTO paths (campaign_id, name, share, active, agents, deleted, created_by, created_at, updated_at)
               SELECT campaign_id, name || ' (copy)', share, active, agents, 0, ?3, ?4, ?4 FROM paths WHERE id = ?2 AND campaign_id = ?1`,
            )
            .bind(campaign.id, id, user.id, now),
          db
            .prepare(
              `${LANDING_INSERT} SELECT campaign_id, ${newId}, name, url, share, active, agents, 0, ?3, ?4, ?4
               FROM landing_pages WHERE campaign_id = ?1 AND path_id = ?2 AND deleted = 0 ORDER BY id`,
            )
            .bind(campaign.id, id, user.id, now),
          db
            .prepare(
              `${OFFER_INSERT} SELECT campaign_id, ${newId}, option_id, name, url, share, payout_micros, active,
                 postback_parameter, agents, li_conversion_name, rotator_participant_email, 0, ?3, ?4, ?4
               FROM offer_pages WHERE campaign_id = ?1 AND path_id = ?2 AND deleted = 0 ORDER BY id`,
            )
            .bind(campaign.id, id, user.id, now),
        );
      } else {
        statements.push(
          db
            .prepare(
              `INSERT INTO options (campaign_id, name, active, deleted, created_by, created_at, updated_at)
               SELECT campaign_id, name || ' (copy)', active, 0, ?3, ?4, ?4 FROM options WHERE id = ?2 AND campaign_id = ?1`,
            )
            .bind(campaign.id, id, user.id, now),
          db
            .prepare(
              `${OFFER_INSERT} SELECT campaign_id, path_id, ${newId}, name, url, share, payout_micros, active,
                 postback_parameter, agents, li_conversion_name, rotator_participant_email, 0, ?3, ?4, ?4
               FROM offer_pages WHERE campaign_id = ?1 AND option_id = ?2 AND deleted = 0 ORDER BY id`,
            )
            .bind(campaign.id, id, user.id, now),
        );
      }
    }
  }
  await db.batch(statements);
  invalidateCompiledCampaign(campaign.id);
}
