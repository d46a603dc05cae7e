import { and, eq } from 'drizzle-orm';
import {
  CREATIVE_MESSAGES as CM,
  type CreativeStatus,
  type LineItemLink,
  noCreative,
} from '../../../schema/creative-status-api';
import { liveintentObjects } from '../../../schema/liveintent';
import { LIVEINTENT_MESSAGES as M } from '../../../schema/liveintent-api';
import { PlatformError } from '../../integrations/http';
import {
  getObject,
  type LiObject,
  lineItemsOfCampaign,
  linkCreative,
  listObjects,
  updateObject,
} from '../../integrations/liveintent/manage';
import { getDb } from '../../lib/db';
import { ApiError } from '../../lib/errors';
import type { LiContext } from './manage';
import { linkedRows } from './objects';
import { platformFailure } from './session';

// The creative switch of a LiveIntent campaign's target rows (spec 3 §4; docs/decisions/093). A
// target names a creative by its refId or its numeric id. The line items a creative may run in
// are those of the campaign's platform campaigns, plus any it is linked to that are gone
// (deleted). Everything is read from the platform when the page asks: the switch must show what
// the platform will serve, and a page asks for at most one page of targets.

type Platform = {
  creatives: Map<string, LiObject>;
  lineItems: Map<string, { name: string; status: string }>;
};

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const linksOf = (o: LiObject) =>
  Array.isArray(o.strategies) ? o.strategies.map(str) : o.strategy ? [str(o.strategy)] : [];

async function platform<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw platformFailure(err);
  }
}

/** Every ad this campaign made, removed ones too: a removed creative still names its target. */
async function campaignAds(ctx: LiContext) {
  return getDb(ctx.env)
    .select()
    .from(liveintentObjects)
    .where(and(eq(liveintentObjects.campaignId, ctx.campaignId), eq(liveintentObjects.kind, 'ad')))
    .all();
}

async function readPlatform(ctx: LiContext): Promise<Platform> {
  const { env, session } = ctx;
  const creatives = new Map<string, LiObject>();
  for (const o of await platform(() => listObjects(env, session.token, 'creative', session.advertiser))) {
    creatives.set(o.refId, o);
    if (o.id !== undefined && o.id !== null) creatives.set(str(o.id), o);
  }
  const lineItems = new Map<string, { name: string; status: string }>();
  for (const row of await linkedRows(env, ctx.campaignId, 'campaign')) {
    const items = await platform(() => lineItemsOfCampaign(env, session.token, row.refId));
    for (const item of items)
      lineItems.set(item.refId, { name: str(item.name), status: str(item.status) || 'paused' });
  }
  return { creatives, lineItems };
}

/** A linked line item the lists no longer show: deleted, unless the platform still has it. */
async function lineItemOutsideLists(ctx: LiContext, refId: string) {
  try {
    const item = await getObject(ctx.env, ctx.session.token, 'strategy', refId);
    return { name: str(item.name), status: item.deleted === true ? 'deleted' : str(item.status) || 'paused' };
  } catch (err) {
    if (err instanceof PlatformError && err.status === 404) return { name: refId, status: 'deleted' };
    throw platformFailure(err);
  }
}

const unknownTarget = noCreative;

async function statusOf(
  ctx: LiContext,
  target: string,
  ads: Awaited<ReturnType<typeof campaignAds>>,
  p: Platform,
): Promise<CreativeStatus> {
  const creative = p.creatives.get(target);
  const row = ads.find((a) => a.refId === (creative?.refId ?? target));
  // Only this campaign's ads get a switch: another campaign's creative is not ours to change.
  if (!row) return unknownTarget(target);
  if (!creative || creative.deleted === true || row.deleted === 1) {
    return {
      ...unknownTarget(target),
      creative_id: row.refId,
      CREATIVEID_exist: false,
      ad_id: row.refId,
      ADID: row.refId,
    };
  }
  const linked = linksOf(creative);
  const items = new Map(p.lineItems);
  for (const refId of linked) if (!items.has(refId)) items.set(refId, await lineItemOutsideLists(ctx, refId));
  const lineitem_statuses: LineItemLink[] = [...items.entries()]
    .map(([refId, li]) => ({ refId, name: li.name, status: li.status, linked: linked.includes(refId) }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.refId.localeCompare(b.refId));
  const running = lineitem_statuses.filter((l) => l.linked && l.status !== 'deleted');
  // The line item the creative runs in: the first linked one, else the one it was made in.
  const own = running[0] ?? lineitem_statuses.find((l) => l.refId === str(creative.strategy));
  return {
    target,
    creative_status: creative.active !== false && running.length > 0,
    creative_id: creative.refId,
    CREATIVEID_exist: true,
    LINEITEM_status: own?.status ?? '',
    lineitem_statuses,
    ad_id: creative.refId,
    ADID: creative.refId,
  };
}

/** The creative of each target, for the page's target rows. */
export async function creativeStatuses(ctx: LiContext, targets: string[]): Promise<CreativeStatus[]> {
  const ads = await campaignAds(ctx);
  if (ads.length === 0) return targets.map(unknownTarget);
  const p = await readPlatform(ctx);
  const out: CreativeStatus[] = [];
  for (const target of targets) out.push(await statusOf(ctx, target, ads, p));
  return out;
}

/**
 * Links the creative to the line item (status true) or unlinks it (spec 3 §7
 * toggle-ad-status-stats-page). Linking also activates a creative switched off on the manage
 * screen, so the row's switch shows Active afterwards. Answers the creative's new status.
 */
export async function toggleStatsAd(
  ctx: LiContext,
  v: { adRefId: string; liRefId: string; status: boolean },
): Promise<CreativeStatus> {
  const ads = await campaignAds(ctx);
  const row = ads.find((a) => a.refId === v.adRefId && a.deleted === 0);
  if (!row) throw new ApiError(404, M.adNotFound);
  const p = await readPlatform(ctx);
  const before = await statusOf(ctx, v.adRefId, ads, p);
  if (!before.CREATIVEID_exist) throw new ApiError(404, M.adNotFound);
  const item = before.lineitem_statuses.find((l) => l.refId === v.liRefId);
  if (!item) throw new ApiError(422, CM.lineItemNotOffered, { liRefId: [CM.lineItemNotOffered] });
  if (item.status === 'deleted')
    throw new ApiError(422, CM.lineItemDeleted, { liRefId: [CM.lineItemDeleted] });
  let creative: LiObject;
  try {
    creative = await linkCreative(ctx.env, ctx.session.token, v.adRefId, v.liRefId, v.status);
    if (v.status && creative.active === false)
      creative = await updateObject(ctx.env, ctx.session.token, 'creative', v.adRefId, { active: true });
  } catch (err) {
    // The spec's words first, then what the platform said (its refusal or our 502 sentence).
    const failure = platformFailure(err);
    const said = failure.errors.message ?? [failure.message];
    throw new ApiError(failure.status, CM.unableToLink, { message: [CM.unableToLink, ...said] });
  }
  p.creatives.set(creative.refId, creative);
  return statusOf(ctx, v.adRefId, ads, p);
}
