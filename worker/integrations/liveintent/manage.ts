import { isObject, PlatformError } from '../http';
import { call, bearer as json, type LiveIntentEnv, search } from './client';

// LiveIntent's management calls (issue 13; shapes after LiveIntent/sdk-php's resource services,
// docs/decisions/090 and 150): one resource per kind under /<kind>/<id or refId>, lists by search.
// The product keeps the refId (an integer, kept as its digits); a line item's `campaign` is the
// campaign's hex id on the platform, turned into the campaign's refId here and back. An update
// sends the version the platform last answered, as the SDK does, so it never overwrites someone
// else's change.

export type LiKind = 'campaign' | 'strategy' | 'segment' | 'creative';
export type LiObject = Record<string, unknown> & { refId: string };

const HEX = /^[0-9a-f]{32}$/;

function toObject(v: unknown, kind: LiKind): LiObject {
  if (!isObject(v) || !Number.isInteger(v.refId)) {
    throw new PlatformError('liveintent', 'malformed', `LiveIntent sent a ${kind} without a refId.`);
  }
  return { ...v, refId: String(v.refId) };
}

const path = (kind: LiKind, refId?: string, action?: string) =>
  `/${kind}${refId ? `/${encodeURIComponent(refId)}` : ''}${action ? `/${action}` : ''}`;

const read = async (env: LiveIntentEnv, token: string, kind: LiKind, key: string) =>
  toObject((await call(env, path(kind, key), json(token))).output, kind);

/** A campaign's hex id from its refId (or the hex id itself). */
async function campaignId(env: LiveIntentEnv, token: string, ref: unknown) {
  const key = String(ref ?? '');
  if (!key || HEX.test(key)) return key;
  return String((await read(env, token, 'campaign', key)).id ?? '');
}

/** A line item as the product reads it: `campaign` is the campaign's refId. */
async function withCampaignRef(env: LiveIntentEnv, token: string, item: LiObject, known?: string) {
  const hex = typeof item.campaign === 'string' ? item.campaign : '';
  if (!HEX.test(hex)) return item;
  return { ...item, campaign: known ?? (await read(env, token, 'campaign', hex)).refId };
}

/** Fields as the platform takes them: a line item's campaign by its hex id. */
async function platformFields(
  env: LiveIntentEnv,
  token: string,
  kind: LiKind,
  fields: Record<string, unknown>,
) {
  if (kind !== 'strategy' || !('campaign' in fields)) return fields;
  return { ...fields, campaign: await campaignId(env, token, fields.campaign) };
}

async function answered(env: LiveIntentEnv, token: string, kind: LiKind, v: unknown, campaignRef?: string) {
  const obj = toObject(v, kind);
  return kind === 'strategy' ? withCampaignRef(env, token, obj, campaignRef) : obj;
}

export async function getObject(env: LiveIntentEnv, token: string, kind: LiKind, refId: string) {
  return answered(env, token, kind, (await call(env, path(kind, refId), json(token))).output);
}

export async function createObject(
  env: LiveIntentEnv,
  token: string,
  kind: LiKind,
  fields: Record<string, unknown>,
) {
  const body = await platformFields(env, token, kind, fields);
  const ref =
    kind === 'strategy' && !HEX.test(String(fields.campaign ?? '')) ? String(fields.campaign) : undefined;
  return answered(env, token, kind, (await call(env, path(kind), json(token, 'POST', body))).output, ref);
}

/** Reads the current version first: LiveIntent refuses an update of a stale version (409). */
export async function updateObject(
  env: LiveIntentEnv,
  token: string,
  kind: LiKind,
  refId: string,
  fields: Record<string, unknown>,
) {
  const current = await getObject(env, token, kind, refId);
  const body = { ...(await platformFields(env, token, kind, fields)), version: current.version };
  const ref = kind === 'strategy' ? String(current.campaign) : undefined;
  return answered(
    env,
    token,
    kind,
    (await call(env, path(kind, refId), json(token, 'POST', body))).output,
    ref,
  );
}

export async function deleteObject(env: LiveIntentEnv, token: string, kind: LiKind, refId: string) {
  await call(env, path(kind, refId), json(token, 'DELETE'));
}

/** An advertiser's conversion trackers or creatives. */
export async function listObjects(
  env: LiveIntentEnv,
  token: string,
  kind: 'segment' | 'creative',
  advertiser: string,
) {
  const list = await search(env, token, kind, [{ field: 'advertiser', operator: 'eq', value: advertiser }]);
  return list.map((v) => toObject(v, kind));
}

export async function lineItemsOfCampaign(env: LiveIntentEnv, token: string, campaignRefId: string) {
  const hex = await campaignId(env, token, campaignRefId);
  const list = await search(env, token, 'strategy', [{ field: 'campaign', operator: 'eq', value: hex }]);
  return list.map((v): LiObject => ({ ...toObject(v, 'strategy'), campaign: campaignRefId }));
}

/** Creates the conversion pixel of a tracker (segment) that has none yet. */
export async function createPixel(env: LiveIntentEnv, token: string, segmentRefId: string) {
  return toObject(
    (await call(env, path('segment', segmentRefId, 'conversion'), json(token, 'POST', {}))).output,
    'segment',
  );
}

export async function trackerActive(env: LiveIntentEnv, token: string, segmentRefId: string) {
  const body = await call(env, path('segment', segmentRefId, 'status'), json(token, 'GET'));
  const out = isObject(body.output) ? body.output : {};
  return out.active === true;
}

/**
 * Links a creative to a line item or unlinks it (the statistics screen's creative switch). The
 * SDK shows no such call; the shape is ours (docs/decisions/093).
 */
export async function linkCreative(
  env: LiveIntentEnv,
  token: string,
  creativeRefId: string,
  strategyRefId: string,
  linked: boolean,
) {
  const body = { strategy: strategyRefId, linked };
  return toObject(
    (await call(env, path('creative', creativeRefId, 'link'), json(token, 'POST', body))).output,
    'creative',
  );
}
