import { isObject, PlatformError } from '../http';
import { call, type LiveIntentEnv } from './client';

// LiveIntent's management calls (issue 13; shapes after LiveIntent/sdk-php's resource services,
// docs/decisions/090): one resource per kind under /<kind>/<refId>. An update sends the version
// the platform last answered, as the SDK does, so it never overwrites someone else's change.

export type LiKind = 'campaign' | 'strategy' | 'segment' | 'creative';
export type LiObject = Record<string, unknown> & { refId: string };

const json = (token: string, method: string, body?: unknown): RequestInit => ({
  method,
  headers: { Authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
  body: body ? JSON.stringify(body) : undefined,
});

function toObject(v: unknown, kind: LiKind): LiObject {
  if (!isObject(v) || typeof v.refId !== 'string') {
    throw new PlatformError('liveintent', 'malformed', `LiveIntent sent a ${kind} without a refId.`);
  }
  return v as LiObject;
}

function toList(body: Record<string, unknown>, kind: LiKind): LiObject[] {
  if (!Array.isArray(body.output))
    throw new PlatformError('liveintent', 'malformed', `LiveIntent sent ${kind} objects without a list.`);
  return body.output.map((v) => toObject(v, kind));
}

const path = (kind: LiKind, refId?: string, action?: string) =>
  `/${kind}${refId ? `/${encodeURIComponent(refId)}` : ''}${action ? `/${action}` : ''}`;

export async function getObject(env: LiveIntentEnv, token: string, kind: LiKind, refId: string) {
  return toObject((await call(env, path(kind, refId), json(token, 'GET'))).output, kind);
}

export async function createObject(
  env: LiveIntentEnv,
  token: string,
  kind: LiKind,
  fields: Record<string, unknown>,
) {
  return toObject((await call(env, path(kind), json(token, 'POST', fields))).output, kind);
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
  const body = { ...fields, version: current.version };
  return toObject((await call(env, path(kind, refId), json(token, 'POST', body))).output, kind);
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
  const list = kind === 'segment' ? 'segments' : 'creatives';
  const body = await call(env, `/${list}?advertiser=${encodeURIComponent(advertiser)}`, json(token, 'GET'));
  return toList(body, kind);
}

export async function lineItemsOfCampaign(env: LiveIntentEnv, token: string, campaignRefId: string) {
  const body = await call(env, `/strategy?campaign=${encodeURIComponent(campaignRefId)}`, json(token, 'GET'));
  return toList(body, 'strategy');
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
