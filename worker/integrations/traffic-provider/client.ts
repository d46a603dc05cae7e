import type { Env } from '../../env';
import { isObject, platformTimeoutMs, retryAfterSeconds, toMicros } from '../http';

// The network's own traffic providers (issue 14, docs/decisions/097): Blaze (banners, zones,
// placements; tab 7) and the CPC provider (trrcpc and crane campaigns; tab 8). No public
// reference exists, so the shapes are ours: JSON envelopes {status: 'success', data} or
// {status: 'error', message}, an API key in X-Api-Key, multipart for files. Like the ad
// platforms' clients (decision 073) a client never retries: a person is waiting.

type ProviderEnv = Pick<
  Env,
  'TRAFFIC_PROVIDER_API_URL' | 'TRAFFIC_PROVIDER_API_KEY' | 'PLATFORM_TIMEOUT_MS' | 'PLATFORM_FAKES'
>;

export type ProviderErrorKind = 'auth' | 'rate_limit' | 'server' | 'timeout' | 'malformed' | 'request';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    readonly detail: string,
    readonly status = 0,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`Traffic provider: ${detail}`);
    this.name = 'ProviderError';
  }
}

const base = (env: ProviderEnv) => env.TRAFFIC_PROVIDER_API_URL.replace(/\/+$/, '');

function kindOf(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'request';
}

/** One call; answers `data` of a success envelope, throws ProviderError for everything else. */
async function call(
  env: ProviderEnv,
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown> | FormData,
): Promise<Record<string, unknown>> {
  if (!base(env)) throw new ProviderError('request', 'The traffic provider is not configured.');
  const ms = platformTimeoutMs(env);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (env.TRAFFIC_PROVIDER_API_KEY) headers['x-api-key'] = env.TRAFFIC_PROVIDER_API_KEY;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const request = new Request(`${base(env)}${path}`, {
    method,
    headers,
    body: payload,
    signal: AbortSignal.timeout(ms),
  });
  let res: Response;
  let text: string;
  try {
    // The fakes are bound in tests (docs/decisions/070); production has no such binding.
    res = env.PLATFORM_FAKES ? await env.PLATFORM_FAKES.fetch(request) : await fetch(request);
    text = await res.text();
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new ProviderError('timeout', `No answer within ${Math.round(ms / 100) / 10} s.`);
    throw new ProviderError('server', 'The provider could not be reached.');
  }
  let parsed: unknown;
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ProviderError(
      res.status >= 400 ? kindOf(res.status) : 'malformed',
      res.status >= 400
        ? `The provider answered ${res.status}.`
        : 'The provider sent an answer that could not be read.',
      res.status,
    );
  }
  const envelope = isObject(parsed) ? parsed : {};
  if (res.status >= 400 || envelope.status !== 'success') {
    const message =
      typeof envelope.message === 'string' ? envelope.message : `The provider answered ${res.status}.`;
    throw new ProviderError(
      res.status >= 400 ? kindOf(res.status) : 'request',
      message,
      res.status,
      retryAfterSeconds(res.headers.get('retry-after')),
    );
  }
  if (!isObject(envelope.data))
    throw new ProviderError('malformed', 'The provider sent an answer without data.', res.status);
  return envelope.data;
}

const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

// ---- Blaze (tab 7) ------------------------------------------------------------------------------

export type BlazeZone = { id: string; name: string; placements: string[] };

export async function blazeZones(env: ProviderEnv, publisherId: number): Promise<BlazeZone[]> {
  const data = await call(env, 'GET', `/blaze/publishers/${publisherId}/zones`);
  if (!Array.isArray(data.zones)) throw new ProviderError('malformed', 'The zones could not be read.');
  return data.zones.map((z) => {
    const zone = isObject(z) ? z : {};
    return {
      id: str(zone.id),
      name: str(zone.name),
      placements: Array.isArray(zone.placements) ? zone.placements.map(str) : [],
    };
  });
}

export type BlazeBannerInput = {
  campaignRef: string;
  name: string;
  url: string;
  placementType: string;
  width: number;
  height: number;
  active: number;
  image?: { name: string; contentType: string; bytes: Uint8Array };
};

/** Creates a banner (or updates `providerId`); answers the provider's id. */
export async function blazeSaveBanner(
  env: ProviderEnv,
  input: BlazeBannerInput,
  providerId?: string,
): Promise<string> {
  const form = new FormData();
  form.set('campaign_ref', input.campaignRef);
  form.set('name', input.name);
  form.set('url', input.url);
  form.set('placement_type', input.placementType);
  form.set('width', String(input.width));
  form.set('height', String(input.height));
  form.set('active', String(input.active));
  if (input.image)
    form.set('image', new File([input.image.bytes], input.image.name, { type: input.image.contentType }));
  const data = await call(
    env,
    'POST',
    providerId ? `/blaze/banners/${encodeURIComponent(providerId)}` : '/blaze/banners',
    form,
  );
  const id = str(data.id);
  if (!id) throw new ProviderError('malformed', 'The provider sent a banner without an id.');
  return id;
}

export async function blazeSetBannersActive(
  env: ProviderEnv,
  campaignRef: string,
  ids: string[],
  active: number,
) {
  await call(env, 'POST', '/blaze/banners/activation', { campaign_ref: campaignRef, ids, active });
}

export async function blazeDeleteBanners(env: ProviderEnv, campaignRef: string, ids: string[]) {
  await call(env, 'POST', '/blaze/banners/delete', { campaign_ref: campaignRef, ids });
}

export async function blazeSavePlacement(env: ProviderEnv, campaignRef: string, placement: string) {
  await call(env, 'POST', '/blaze/placements', { campaign_ref: campaignRef, placement });
}

// ---- CPC provider (tab 8) -----------------------------------------------------------------------

/** Whether each traffic source's provider takes campaigns now: { trrcpc: 'online', ... }. */
export async function cpcStatus(env: ProviderEnv): Promise<Record<string, string>> {
  const data = await call(env, 'GET', '/cpc/status');
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, str(v)]));
}

export async function cpcOffers(env: ProviderEnv): Promise<{ name: string }[]> {
  const data = await call(env, 'GET', '/cpc/offers');
  if (!Array.isArray(data.offers)) throw new ProviderError('malformed', 'The offers could not be read.');
  return data.offers.map((o) => ({ name: str(isObject(o) ? o.name : '') })).filter((o) => o.name);
}

export type CpcSubmission = {
  campaignRef: string;
  source: string;
  info: Record<string, unknown>;
  headlines: { headline: string; image: string }[];
  lines: { id: string; cpm: number }[];
  assets: { name: string; contentType: string; bytes: Uint8Array }[];
};

/** Sends the whole campaign; answers the provider's campaign id. */
export async function cpcSubmit(env: ProviderEnv, s: CpcSubmission): Promise<string> {
  const form = new FormData();
  form.set('campaign_ref', s.campaignRef);
  form.set('source', s.source);
  form.set('info', JSON.stringify(s.info));
  form.set('headlines', JSON.stringify(s.headlines));
  form.set('lines', JSON.stringify(s.lines));
  for (const a of s.assets) form.append('assets[]', new File([a.bytes], a.name, { type: a.contentType }));
  const data = await call(env, 'POST', '/cpc/campaigns', form);
  const id = str(data.id);
  if (!id) throw new ProviderError('malformed', 'The provider sent a campaign without an id.');
  return id;
}

/** What the provider says a submitted campaign has spent, in micro-units. */
export async function cpcSpend(env: ProviderEnv, providerCampaignId: string): Promise<number> {
  const data = await call(env, 'GET', `/cpc/campaigns/${encodeURIComponent(providerCampaignId)}`);
  const micros = toMicros(data.spend);
  if (!Number.isFinite(micros)) throw new ProviderError('malformed', 'The spend could not be read.');
  return micros;
}

/** The ads of a submitted campaign the provider was told about: { id, status } (active, paused, removed). */
export async function cpcAds(
  env: ProviderEnv,
  providerCampaignId: string,
): Promise<{ id: string; status: string }[]> {
  const data = await call(env, 'GET', `/cpc/campaigns/${encodeURIComponent(providerCampaignId)}/ads`);
  if (!Array.isArray(data.ads)) throw new ProviderError('malformed', 'The ads could not be read.');
  return data.ads.map((a) => {
    const ad = isObject(a) ? a : {};
    return { id: str(ad.id), status: str(ad.status) };
  });
}

/** Runs (active) or pauses one ad of a submitted campaign. */
export async function cpcSetAdStatus(
  env: ProviderEnv,
  providerCampaignId: string,
  adId: string,
  status: 'active' | 'paused',
) {
  const campaign = encodeURIComponent(providerCampaignId);
  await call(env, 'POST', `/cpc/campaigns/${campaign}/ads/${encodeURIComponent(adId)}/status`, { status });
}
