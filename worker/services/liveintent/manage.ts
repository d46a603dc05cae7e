import { eq } from 'drizzle-orm';
import { liveintentObjects } from '../../../schema/liveintent';
import {
  type ConversionTracker,
  type LiAd,
  type LiCampaign,
  type LiCampaignInput,
  type LiLineItem,
  type LineItemInput,
  lineItemCampaignErrors,
  LIVEINTENT_MESSAGES as M,
} from '../../../schema/liveintent-api';
import type { Env } from '../../env';
import {
  createObject,
  createPixel,
  deleteObject,
  getObject,
  type LiKind,
  type LiObject,
  lineItemsOfCampaign,
  listObjects,
  trackerActive,
  updateObject,
} from '../../integrations/liveintent/manage';
import { getDb } from '../../lib/db';
import { ApiError, validationError } from '../../lib/errors';
import { isDataUrl, storeAdImage } from './ad-images';
import { link, linkedRow, linkedRows, toAd, toLiCampaign, toLineItem, toTracker, unlink } from './objects';
import { type LiSession, platformFailure } from './session';

// The manage-liveintent calls (spec 4 §7): each one talks to the platform in the account of the
// session and keeps the tracker's links (which platform campaigns and ads belong to which
// campaign) in step. Platform failures become the envelope in platformFailure.

export type LiContext = { env: Env; session: LiSession; campaignId: number; origin: string };

async function platform<T>(work: () => Promise<T>, notFound?: string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw platformFailure(err, notFound);
  }
}

const get = (ctx: LiContext, kind: LiKind, refId: string, notFound: string) =>
  platform(() => getObject(ctx.env, ctx.session.token, kind, refId), notFound);

// ---- campaigns ----------------------------------------------------------------------------------

async function ownCampaign(ctx: LiContext, refId: string): Promise<LiObject> {
  if (!(await linkedRow(ctx.env, ctx.campaignId, 'campaign', refId)))
    throw new ApiError(404, M.campaignNotFound);
  return get(ctx, 'campaign', refId, M.campaignNotFound);
}

export async function listCampaigns(ctx: LiContext): Promise<LiCampaign[]> {
  const rows = await linkedRows(ctx.env, ctx.campaignId, 'campaign');
  const out: LiCampaign[] = [];
  for (const row of rows) {
    try {
      out.push(toLiCampaign(await getObject(ctx.env, ctx.session.token, 'campaign', row.refId)));
    } catch (err) {
      // A campaign deleted on the platform itself is left out, not an error of the list.
      const failure = platformFailure(err, M.campaignNotFound);
      if (failure.status !== 404) throw failure;
    }
  }
  return out;
}

export async function campaign(ctx: LiContext, refId: string) {
  return toLiCampaign(await ownCampaign(ctx, refId));
}

const campaignFields = (ctx: LiContext, v: LiCampaignInput) => ({
  name: v.name,
  advertiser: ctx.session.advertiser,
  strategy: v.strategyType,
  bid: v.bidAmount,
  category: v.category,
  conversion: v.conversionPixel,
  startDate: v.startDate,
  endDate: v.endDate,
});

export async function createCampaign(ctx: LiContext, v: LiCampaignInput) {
  const created = await platform(() =>
    createObject(ctx.env, ctx.session.token, 'campaign', campaignFields(ctx, v)),
  );
  await link(ctx.env, ctx.campaignId, 'campaign', created.refId);
  return toLiCampaign(created);
}

export async function editCampaign(ctx: LiContext, refId: string, v: LiCampaignInput) {
  await ownCampaign(ctx, refId);
  const saved = await platform(() =>
    updateObject(ctx.env, ctx.session.token, 'campaign', refId, campaignFields(ctx, v)),
  );
  return toLiCampaign(saved);
}

export async function deleteCampaign(ctx: LiContext, refId: string) {
  await ownCampaign(ctx, refId);
  await platform(() => deleteObject(ctx.env, ctx.session.token, 'campaign', refId), M.campaignNotFound);
  await unlink(ctx.env, ctx.campaignId, 'campaign', refId);
}

// ---- line items ---------------------------------------------------------------------------------

export async function listLineItems(ctx: LiContext): Promise<LiLineItem[]> {
  const out: LiLineItem[] = [];
  for (const row of await linkedRows(ctx.env, ctx.campaignId, 'campaign')) {
    try {
      const items = await lineItemsOfCampaign(ctx.env, ctx.session.token, row.refId);
      out.push(...items.map(toLineItem));
    } catch (err) {
      const failure = platformFailure(err);
      throw new ApiError(failure.status, M.lineItemsFailed, {
        message: [M.lineItemsFailed, failure.message],
      });
    }
  }
  return out;
}

/** A line item of one of this campaign's platform campaigns, else 404 in the spec's words. */
async function ownLineItem(ctx: LiContext, refId: string): Promise<LiObject> {
  const item = await get(ctx, 'strategy', refId, M.lineItemNotFound);
  const parent = typeof item.campaign === 'string' ? item.campaign : '';
  if (!parent || !(await linkedRow(ctx.env, ctx.campaignId, 'campaign', parent))) {
    throw new ApiError(404, M.lineItemNotFound);
  }
  return item;
}

export async function lineItem(ctx: LiContext, refId: string) {
  return toLineItem(await ownLineItem(ctx, refId));
}

async function checkAgainstCampaign(ctx: LiContext, v: LineItemInput) {
  if (!(await linkedRow(ctx.env, ctx.campaignId, 'campaign', v.liCampaignId))) {
    throw validationError({ liCampaignId: [M.campaignNotFound] });
  }
  const parent = toLiCampaign(await get(ctx, 'campaign', v.liCampaignId, M.campaignNotFound));
  const errors = lineItemCampaignErrors(v, {
    strategyType: parent.perf_goal,
    startDate: parent.li_start_date,
    endDate: parent.li_end_date,
  });
  if (Object.keys(errors).length) throw validationError(errors);
}

const lineItemFields = (v: LineItemInput) => ({
  name: v.name,
  campaign: v.liCampaignId,
  status: v.status,
  startDate: v.startDate,
  endDate: v.endDate,
  dailyCap: v.dailyCap,
  dailyBudget: v.dailyBudget,
  segments: v.dataProviderSegments,
  ageTargetType: v.ageTargetType,
  ageTarget: v.ageTarget,
  genderTargetType: v.genderTargetType,
  genderTarget: v.genderTarget,
});

export async function createLineItem(ctx: LiContext, v: LineItemInput) {
  await checkAgainstCampaign(ctx, v);
  return toLineItem(
    await platform(() => createObject(ctx.env, ctx.session.token, 'strategy', lineItemFields(v))),
  );
}

export async function editLineItem(ctx: LiContext, v: LineItemInput) {
  await ownLineItem(ctx, v.lineItemRefId);
  await checkAgainstCampaign(ctx, v);
  return toLineItem(
    await platform(() =>
      updateObject(ctx.env, ctx.session.token, 'strategy', v.lineItemRefId, lineItemFields(v)),
    ),
  );
}

export async function deleteLineItem(ctx: LiContext, refId: string) {
  await ownLineItem(ctx, refId);
  await platform(() => deleteObject(ctx.env, ctx.session.token, 'strategy', refId), M.lineItemNotFound);
}

// ---- conversion trackers (the advertiser's, shared by its campaigns) ---------------------------

export async function listTrackers(ctx: LiContext): Promise<ConversionTracker[]> {
  const list = await platform(() =>
    listObjects(ctx.env, ctx.session.token, 'segment', ctx.session.advertiser),
  );
  return list.map(toTracker);
}

async function ownTracker(ctx: LiContext, segmentId: string) {
  const segment = await get(ctx, 'segment', segmentId, M.trackerNotFound);
  if (String(segment.advertiser ?? '') !== ctx.session.advertiser) throw new ApiError(404, M.trackerNotFound);
  return segment;
}

export async function tracker(ctx: LiContext, segmentId: string) {
  return toTracker(await ownTracker(ctx, segmentId));
}

export async function saveTracker(
  ctx: LiContext,
  v: { segmentId: string; termRegex: string; segmentName: string },
) {
  const fields = { name: v.segmentName, termRegex: v.termRegex, advertiser: ctx.session.advertiser };
  if (!v.segmentId) {
    const created = await platform(() => createObject(ctx.env, ctx.session.token, 'segment', fields));
    // A new tracker gets its pixel at once, so it can be chosen for a campaign.
    return toTracker(await platform(() => createPixel(ctx.env, ctx.session.token, created.refId)));
  }
  await ownTracker(ctx, v.segmentId);
  return toTracker(
    await platform(() => updateObject(ctx.env, ctx.session.token, 'segment', v.segmentId, fields)),
  );
}

/** edit-conversiontracker-pixel: the pixel of a tracker whose conversion reference is 0. */
export async function trackerPixel(ctx: LiContext, segmentId: string) {
  const segment = await ownTracker(ctx, segmentId);
  if (segment.conversion) return toTracker(segment);
  return toTracker(await platform(() => createPixel(ctx.env, ctx.session.token, segmentId)));
}

export async function trackerStatus(ctx: LiContext, segmentId: string) {
  await ownTracker(ctx, segmentId);
  return platform(() => trackerActive(ctx.env, ctx.session.token, segmentId), M.trackerNotFound);
}

/** delete-conversiontracker names the conversion; a tracker without one ('0') by its segment. */
export async function deleteTracker(ctx: LiContext, conversionRefId: string) {
  const list = await listTrackers(ctx);
  const found = list.find(
    (t) => t.li_conversion_refid === conversionRefId || t.li_segment_id === conversionRefId,
  );
  if (!found) throw new ApiError(404, M.trackerNotFound);
  await platform(
    () => deleteObject(ctx.env, ctx.session.token, 'segment', found.li_segment_id),
    M.trackerNotFound,
  );
}

// ---- ads ---------------------------------------------------------------------------------------

export async function listAds(ctx: LiContext): Promise<LiAd[]> {
  const rows = await linkedRows(ctx.env, ctx.campaignId, 'ad');
  if (rows.length === 0) return [];
  const list = await platform(() =>
    listObjects(ctx.env, ctx.session.token, 'creative', ctx.session.advertiser),
  );
  const byRef = new Map(list.map((o) => [o.refId, o]));
  return rows
    .filter((r) => byRef.has(r.refId))
    .map((r) => toAd(byRef.get(r.refId) as LiObject, r.createdAt))
    .reverse();
}

async function ownAd(ctx: LiContext, refId: string) {
  const row = await linkedRow(ctx.env, ctx.campaignId, 'ad', refId);
  if (!row) throw new ApiError(404, M.adNotFound);
  return { row, ad: await get(ctx, 'creative', refId, M.adNotFound) };
}

export async function ad(ctx: LiContext, refId: string) {
  const { row, ad: found } = await ownAd(ctx, refId);
  return toAd(found, row.createdAt);
}

const publicUrl = (ctx: LiContext, key: string) => `${ctx.origin}/files/${key}`;

export async function createAd(
  ctx: LiContext,
  v: {
    lineitem_ref_id: string;
    adName: string;
    clickUrl: string;
    mediaUrl: string;
    width: number;
    height: number;
  },
) {
  await ownLineItem(ctx, v.lineitem_ref_id).catch((err) => {
    if (err instanceof ApiError && err.status === 404)
      throw validationError({ lineitem_ref_id: [M.lineItemNotFound] });
    throw err;
  });
  const key = await storeAdImage(ctx.env, ctx.campaignId, v.mediaUrl);
  const fields = {
    name: v.adName,
    clickUrl: v.clickUrl,
    mediaUrl: publicUrl(ctx, key),
    strategy: v.lineitem_ref_id,
    width: v.width,
    height: v.height,
    advertiser: ctx.session.advertiser,
    active: true,
  };
  let created: LiObject;
  try {
    created = await platform(() => createObject(ctx.env, ctx.session.token, 'creative', fields));
  } catch (err) {
    // Nothing half-written: the image of a refused ad does not stay behind.
    await ctx.env.BUCKET.delete(key);
    throw err;
  }
  await link(ctx.env, ctx.campaignId, 'ad', created.refId, { parentRefId: v.lineitem_ref_id, imageKey: key });
  const row = await linkedRow(ctx.env, ctx.campaignId, 'ad', created.refId);
  return toAd(created, row?.createdAt ?? Date.now());
}

export async function editAd(
  ctx: LiContext,
  v: { refId: string; adName: string; clickUrl: string; mediaUrl: string },
) {
  const { row } = await ownAd(ctx, v.refId);
  const fields: Record<string, unknown> = { name: v.adName, clickUrl: v.clickUrl };
  let key = '';
  if (isDataUrl(v.mediaUrl)) {
    key = await storeAdImage(ctx.env, ctx.campaignId, v.mediaUrl);
    fields.mediaUrl = publicUrl(ctx, key);
  }
  const saved = await platform(() =>
    updateObject(ctx.env, ctx.session.token, 'creative', v.refId, fields),
  ).catch(async (err) => {
    if (key) await ctx.env.BUCKET.delete(key);
    throw err;
  });
  if (key) {
    if (row.imageKey) await ctx.env.BUCKET.delete(row.imageKey);
    await getDb(ctx.env)
      .update(liveintentObjects)
      .set({ imageKey: key })
      .where(eq(liveintentObjects.id, row.id))
      .run();
  }
  return toAd(saved, row.createdAt);
}

export async function deleteAd(ctx: LiContext, refId: string) {
  const { row } = await ownAd(ctx, refId);
  await platform(() => deleteObject(ctx.env, ctx.session.token, 'creative', refId), M.adNotFound);
  await unlink(ctx.env, ctx.campaignId, 'ad', refId);
  if (row.imageKey) await ctx.env.BUCKET.delete(row.imageKey);
}

export async function toggleAd(ctx: LiContext, refId: string, status: boolean) {
  const { row } = await ownAd(ctx, refId);
  return toAd(
    await platform(() => updateObject(ctx.env, ctx.session.token, 'creative', refId, { active: status })),
    row.createdAt,
  );
}
