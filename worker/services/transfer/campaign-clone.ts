import { LIST_MESSAGES as M } from '../../../schema/campaign-list-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { campaignAnswer, campaignForUser } from '../campaigns';
import {
  type CampaignRow,
  type Items,
  itemsOf,
  landingValues,
  optionValues,
  pathValues,
} from './campaign-items';
import { emptyPlan, type Plan, writePlans } from './campaign-plans';

// POST /api/clone: a copy of a campaign with its live items, inside this installation.

/** The campaign's own columns, without identity, place, ownership, state and times. */
function copyableColumns(row: CampaignRow): Plan['values'] {
  const {
    id: _id,
    parentId: _parent,
    createdBy: _owner,
    createdAt: _created,
    updatedAt: _updated,
    deleted: _deleted,
    deletedAt: _deletedAt,
    ...rest
  } = row;
  return rest;
}

/** A plan copying the campaign's live items, keyed by their current ids. */
function planFromRows(key: number, parentKey: number | null, values: Plan['values'], items: Items): Plan {
  const plan = emptyPlan(key, parentKey, values);
  const livePaths = new Set(items.paths.map((p) => p.id));
  const liveOptions = new Set(items.options.map((o) => o.id));
  plan.paths = items.paths.map((p) => ({ key: p.id, values: pathValues(p) }));
  plan.options = items.options.map((o) => ({ key: o.id, values: optionValues(o) }));
  plan.landings = items.landings.map((l) => ({
    pathKey: l.pathId !== null && livePaths.has(l.pathId) ? l.pathId : null,
    values: landingValues(l),
  }));
  plan.offers = items.offers.map((o) => ({
    pathKey: o.pathId !== null && livePaths.has(o.pathId) ? o.pathId : null,
    optionKey: o.optionId !== null && liveOptions.has(o.optionId) ? o.optionId : null,
    values: {
      name: o.name,
      url: o.url,
      share: o.share,
      payoutMicros: o.payoutMicros,
      active: o.active,
      postbackParameter: o.postbackParameter,
      agents: o.agents,
      liConversionName: o.liConversionName,
      rotatorParticipantEmail: o.rotatorParticipantEmail,
      deleted: o.deleted,
    },
  }));
  plan.tokens = items.tokens.map((t) => ({
    slot: t.slot,
    tokenName: t.tokenName,
    parameter: t.parameter,
    urlAppend: t.urlAppend,
    landingPageEnabled: t.landingPageEnabled,
    offerPageEnabled: t.offerPageEnabled,
    deleted: t.deleted,
  }));
  return plan;
}

/**
 * POST /api/clone: a copy of the campaign next to it, named '<name> (copy)', with its live
 * landing pages, offers, paths, options and extra tokens (items point at the copies of their
 * paths and options); statistics are not copied. The copy belongs to the campaign's owner.
 */
export async function cloneCampaign(env: Env, user: AuthUser, campaignId: number) {
  const source = await campaignForUser(env, user, campaignId);
  const items = await itemsOf(env, source.id, { liveOnly: true });
  const values = { ...copyableColumns(source), name: `${source.name} (copy)`.slice(0, 255) };
  const [id] = await writePlans(
    env,
    [planFromRows(source.id, null, values, items)],
    source.parentId,
    source.createdBy ?? user.id,
  );
  const row = await getDb(env).query.campaigns.findFirst({ where: (c, { eq }) => eq(c.id, id) });
  return { message: M.cloned, resultt: campaignAnswer(row!) };
}
