import { and, eq } from 'drizzle-orm';
import { liveintentObjects } from '../../../schema/liveintent';
import type {
  ConversionTracker,
  LiAd,
  LiCampaign,
  LiLineItem,
  Strategy,
} from '../../../schema/liveintent-api';
import type { Env } from '../../env';
import type { LiObject } from '../../integrations/liveintent/manage';
import { getDb } from '../../lib/db';

// The platform's objects in the answer shapes of spec 4 §3, and the tracker's links to them.

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const num = (v: unknown) => (Number.isFinite(Number(v)) ? Number(v) : 0);
const nums = (v: unknown) => (Array.isArray(v) ? v.map(Number).filter(Number.isFinite) : []);
const targetType = (v: unknown) => (v === 'exclude' ? 'exclude' : 'include') as 'include' | 'exclude';

export function toLiCampaign(o: LiObject): LiCampaign {
  return {
    li_refid: o.refId,
    li_name: str(o.name),
    li_start_date: str(o.startDate),
    li_end_date: str(o.endDate),
    perf_goal: (str(o.strategy) || 'deliver_impression') as Strategy,
    bidAmount: num(o.bid),
    category: num(o.category) || 1,
    conversionPixel: str(o.conversion),
    li_status: str(o.status),
  };
}

export function toLineItem(o: LiObject): LiLineItem {
  return {
    li_refid: o.refId,
    li_name: str(o.name),
    li_status: str(o.status) || 'paused',
    li_start_date: str(o.startDate),
    li_end_date: str(o.endDate),
    li_daily_cap: num(o.dailyCap),
    li_daily_budget: num(o.dailyBudget),
    li_campaign_refid: str(o.campaign),
    age_target_type: targetType(o.ageTargetType),
    gender_target_type: targetType(o.genderTargetType),
    age_target: nums(o.ageTarget),
    gender_target: nums(o.genderTarget),
    data_provider_segments: Array.isArray(o.segments)
      ? o.segments.map((s) => ({ type: str(s?.type), id: str(s?.id) }))
      : [],
  };
}

export function toTracker(o: LiObject): ConversionTracker {
  const conversion = (o.conversion ?? null) as { id?: unknown; refId?: unknown; status?: unknown } | null;
  return {
    li_segment_id: o.refId,
    li_segment_name: str(o.name),
    li_term_regex: str(o.termRegex),
    li_conversion_id: conversion ? num(conversion.id) : 0,
    li_conversion_refid: conversion ? str(conversion.refId) : '0',
    li_status: conversion ? str(conversion.status) : '',
  };
}

export function toAd(o: LiObject, createdAt: number): LiAd {
  return {
    li_refid: o.refId,
    li_name: str(o.name),
    li_click_url: str(o.clickUrl),
    li_media_url: str(o.mediaUrl),
    li_status: o.active !== false,
    li_lineitem_refid: str(o.strategy),
    created_at: createdAt,
  };
}

// ---- links --------------------------------------------------------------------------------------

type Kind = (typeof liveintentObjects.$inferSelect)['kind'];

export async function linkedRows(env: Env, campaignId: number, kind: Kind) {
  return getDb(env)
    .select()
    .from(liveintentObjects)
    .where(
      and(
        eq(liveintentObjects.campaignId, campaignId),
        eq(liveintentObjects.kind, kind),
        eq(liveintentObjects.deleted, 0),
      ),
    )
    .orderBy(liveintentObjects.id)
    .all();
}

export async function linkedRow(env: Env, campaignId: number, kind: Kind, refId: string) {
  return (await linkedRows(env, campaignId, kind)).find((r) => r.refId === refId) ?? null;
}

export async function link(
  env: Env,
  campaignId: number,
  kind: Kind,
  refId: string,
  extra: { parentRefId?: string; imageKey?: string } = {},
) {
  await getDb(env)
    .insert(liveintentObjects)
    .values({ campaignId, kind, refId, ...extra })
    .run();
}

export async function unlink(env: Env, campaignId: number, kind: Kind, refId: string) {
  await getDb(env)
    .update(liveintentObjects)
    .set({ deleted: 1 })
    .where(
      and(
        eq(liveintentObjects.campaignId, campaignId),
        eq(liveintentObjects.kind, kind),
        eq(liveintentObjects.refId, refId),
      ),
    )
    .run();
}
