import { clip, LIMITS, type VisitEvent } from '../../schema/tracking';
import type { Env } from '../env';
import {
  mintClickId,
  type ParsedClickId,
  parseClickId,
  signText,
  verifyText,
} from '../services/hot-path/click-ids';
import { compiledCampaign } from '../services/hot-path/compiled-campaigns';
import {
  buildDestination,
  type CompiledCampaign,
  DEFAULT_CLICK_ID_PARAM,
  routeOffer,
  routeVisit,
  seededRng,
} from '../services/hot-path/routing';
import { type Settings, trackingSettings } from '../services/settings/settings';
import { track } from './batcher';
import { conversion } from './conversion';
import { COOKIE_PREFIX, clickCookie, cookieValue } from './cookies';
import { classifyUserAgent, filterReason } from './device';
import * as pages from './pages';
import { type QueryParams, RequestUrl } from './request-url';

// The public tracking routes (docs/tracking.md). Paths come from settings, so they cannot be
// static routes: worker/index.ts asks handleTracking once, before the app (the API and the
// SPA); null means "not a tracking path". Nothing here writes to D1: events go to the ingest
// queue in micro-batches (batcher.ts).

const HOP = '_hop';

type Route = 'main' | 'click' | 'image' | 'iframe' | 'script' | 'postback';

function trim(route: string): string {
  return route.replace(/^\/+|\/+$/g, '');
}

const compiledRoutes = new WeakMap<Settings, [Route, string][]>();

/** The settings' route prefixes ('/go', '/click'...), worked out once per settings object. */
function routePrefixes(settings: Settings): [Route, string][] {
  let prefixes = compiledRoutes.get(settings);
  if (!prefixes) {
    const routes: [Route, string][] = [
      ['main', settings.route_main],
      ['click', settings.route_click],
      ['image', settings.route_image],
      ['iframe', settings.route_iframe],
      ['script', settings.route_script],
      ['postback', settings.route_postback],
    ];
    prefixes = routes
      .map(([route, raw]): [Route, string] => [route, `/${trim(raw)}`])
      .filter(([, prefix]) => prefix !== '/' && prefix !== '/api' && !prefix.startsWith('/api/'));
    compiledRoutes.set(settings, prefixes);
  }
  return prefixes;
}

/** Which tracking route `pathname` is, and the rest of the path after it. */
function matchRoute(pathname: string, settings: Settings): { route: Route; rest: string } | null {
  for (const [route, prefix] of routePrefixes(settings)) {
    if (!pathname.startsWith(prefix)) continue;
    if (pathname.length === prefix.length) return { route, rest: '' };
    if (pathname.charCodeAt(prefix.length) === 47 /* / */)
      return { route, rest: pathname.slice(prefix.length + 1) };
  }
  return null;
}

/** Answers a tracking request, or null when the path is not a tracking route. */
export async function handleTracking(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  known?: Settings,
): Promise<Response | null> {
  const url = new RequestUrl(request.url);
  if (url.pathname.startsWith('/api/')) return null;
  let settings = known ?? trackingSettings(env, ctx);
  if (settings instanceof Promise) settings = await settings;
  const match = matchRoute(url.pathname, settings);
  if (!match) return null;
  try {
    switch (match.route) {
      case 'main':
        return match.rest === HOP
          ? await secondHop(url, env)
          : await campaignLink(request, url, match.rest, env, ctx, settings);
      case 'click':
        return await landingClick(request, url, match.rest, env, ctx, settings);
      case 'script':
        if (url.searchParams.get('mode') === 'visit') {
          return await directVisit(request, url, match.rest, env, ctx, settings);
        }
        return await conversion(request, url, env, ctx, 'script');
      case 'image':
        return await conversion(request, url, env, ctx, 'pixel');
      case 'iframe':
        return await conversion(request, url, env, ctx, 'iframe');
      default:
        return await conversion(request, url, env, ctx, 'postback');
    }
  } catch (err) {
    // The routing read failed (D1 unreachable): a plain page, never a stack trace or a JSON error.
    console.error('tracking request failed', url.pathname, err);
    return pages.temporarilyUnavailable();
  }
}

/** The campaign's routing, without a wait (nor a microtask) when a cached copy exists. */
async function campaignById(env: Env, id: number | null, ctx: ExecutionContext) {
  if (!id) return null;
  const hit = compiledCampaign(env, id, ctx);
  return hit instanceof Promise ? await hit : hit;
}

/** A positive id of up to 12 digits, else null. */
function parseId(raw: string | null): number | null {
  if (!raw || raw.length > 12) return null;
  let id = 0;
  for (let i = 0; i < raw.length; i++) {
    const digit = raw.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return null;
    id = id * 10 + digit;
  }
  return id > 0 ? id : null;
}

/** A campaign route's handler: the request, its URL, the path after the route's prefix. */
type CampaignRoute = (
  request: Request,
  url: RequestUrl,
  rest: string,
  env: Env,
  ctx: ExecutionContext,
  settings: Settings,
) => Promise<Response>;

/** The link's campaign: the cached copy itself (no wait on the hot path), else its promise. */
function campaignOfLink(rest: string, url: RequestUrl, env: Env, ctx: ExecutionContext) {
  const campaignId = campaignIdFrom(rest, url);
  return campaignId ? compiledCampaign(env, campaignId, ctx) : null;
}

function campaignIdFrom(rest: string, url: RequestUrl): number | null {
  const slash = rest.indexOf('/');
  const segment = slash < 0 ? rest : rest.slice(0, slash);
  if (segment) return parseId(segment);
  return parseId(url.searchParams.get('campaign') || url.searchParams.get('campaignId'));
}

/**
 * The visitor's country: Cloudflare's CF-IPCountry header (on by default), else request.cf.
 * The header comes first because reading request.cf builds the whole cf object, which costs
 * more than the rest of the redirect.
 */
function country(request: Request): string {
  let value = request.headers.get('cf-ipcountry');
  if (value === null) {
    const cf = (request as { cf?: { country?: unknown } }).cf;
    value = typeof cf?.country === 'string' ? cf.country : '';
  }
  return clip(value.toUpperCase(), 8);
}

/** What differs between the three ways a visit is recorded (link, LP click without one, script). */
type VisitFacts = {
  clickId: string;
  campaignId: number;
  pathId: number;
  landingId: number;
  offerId: number;
  target: string;
  keyword: string;
  filter: VisitEvent['f'];
  tokens: Record<string, string>;
  /** The page that sent the visitor; the direct-tracking script passes its own document.referrer. */
  referrer?: string | null;
  direct?: 0 | 1;
};

/** The one visit event builder: the request's device, country, referrer and user agent, clipped. */
function visitEvent(
  request: Request,
  ua: string,
  device: string,
  v: VisitFacts,
  at = Date.now(),
): VisitEvent {
  return {
    k: 'v',
    id: v.clickId,
    c: v.campaignId,
    p: v.pathId,
    l: v.landingId,
    o: v.offerId,
    at,
    tgt: v.target,
    kw: v.keyword,
    dev: device,
    cc: country(request),
    ref: clip(v.referrer ?? request.headers.get('referer'), LIMITS.referrer),
    ua: clip(ua, LIMITS.userAgent),
    f: v.filter,
    d: v.direct ?? 0,
    tok: v.tokens,
  };
}

type Placement = Pick<VisitFacts, 'campaignId' | 'pathId' | 'landingId' | 'offerId'>;

/**
 * A visit that has no click id yet: mints one that carries its placement, tracks the visit under
 * it and answers it.
 */
function trackNewVisit(
  env: Env,
  ctx: ExecutionContext,
  request: Request,
  ua: string,
  device: string,
  placement: Placement,
  facts: Omit<VisitFacts, 'clickId' | keyof Placement>,
  at = Date.now(),
): string {
  const clickId = mintClickId(env, placement);
  track(env, ctx, visitEvent(request, ua, device, { clickId, ...placement, ...facts }, at));
  return clickId;
}

function tokenValues(campaign: CompiledCampaign, query: QueryParams) {
  const bySlot: Record<string, string> = {};
  const byParameter: Record<string, string> = {};
  for (const token of campaign.tokens) {
    const value = query.get(token.parameter);
    if (value === null) continue;
    bySlot[token.slot] = clip(value);
    byParameter[token.parameter] = clip(value);
  }
  return { bySlot, byParameter };
}

/** What the campaign link carries besides routing: its target, keyword and extra tokens, clipped. */
function linkValues(campaign: CompiledCampaign, query: QueryParams) {
  return {
    target: clip(query.get(campaign.targetParam)),
    keyword: campaign.keywordParam ? clip(query.get(campaign.keywordParam)) : '',
    tokens: tokenValues(campaign, query),
  };
}

function forwarded(campaign: CompiledCampaign, values: Record<string, string>, to: 'toLanding' | 'toOffer') {
  const out: Record<string, string> = {};
  for (const token of campaign.tokens) {
    if (token[to] && values[token.parameter] !== undefined) out[token.parameter] = values[token.parameter];
  }
  return out;
}

/** Where a visitor goes when the campaign cannot serve: its custom URL, else the 404 page. */
function fallback(campaign: CompiledCampaign | null): Response {
  if (campaign?.customUrl) {
    return new Response(null, {
      status: 302,
      headers: { location: campaign.customUrl, ...pages.noStoreHeaders() },
    });
  }
  return pages.linkNotAvailable();
}

function redirect(
  env: Env,
  url: RequestUrl,
  campaign: CompiledCampaign,
  destination: string,
  clickId: string,
  settings: Settings,
): Response {
  let hop: string | undefined;
  if (campaign.redirectType === 'double_meta') {
    const u = btoa(destination).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const hopUrl = new URL(`/${trim(settings.route_main)}/${HOP}`, url.origin);
    hopUrl.searchParams.set('u', u);
    hopUrl.searchParams.set('s', signText(env, destination));
    hop = hopUrl.toString();
  }
  return pages.redirectResponse(campaign.redirectType, destination, hop, {
    'set-cookie': clickCookie(url, campaign.id, clickId),
  });
}

/** The ad's tracking link: /{route_main}/{campaignId}?{target param}=...&{keyword param}=... */
const campaignLink: CampaignRoute = async (request, url, rest, env, ctx, settings) => {
  const cached = campaignOfLink(rest, url, env, ctx);
  const campaign = cached instanceof Promise ? await cached : cached;
  if (!campaign) return pages.linkNotAvailable();

  const query = url.searchParams;
  const ua = request.headers.get('user-agent') ?? '';
  const visitor = classifyUserAgent(ua);
  let filter = filterReason(request, visitor);
  const route = campaign.active
    ? routeVisit(campaign, visitor.device, Math.random)
    : { kind: 'none' as const };
  if (!campaign.active) filter ??= 'inactive';
  else if (route.kind === 'none') filter ??= 'unrouted';

  const pathId = route.kind === 'none' ? 0 : route.pathId;
  const landingId = route.kind === 'landing' ? route.landing.id : 0;
  const offerId = route.kind === 'offer' ? route.offer.id : 0;
  const { target, keyword, tokens } = linkValues(campaign, query);
  const clickId = trackNewVisit(
    env,
    ctx,
    request,
    ua,
    visitor.device,
    { campaignId: campaign.id, pathId, landingId, offerId },
    { target, keyword, filter, tokens: tokens.bySlot },
  );

  if (route.kind === 'none') return fallback(campaign);
  const values = { clickId, campaignId: campaign.id, target, keyword, tokens: tokens.byParameter };
  const destination =
    route.kind === 'landing'
      ? buildDestination(
          route.landing.url,
          campaign.lpClickIdParam,
          values,
          forwarded(campaign, tokens.byParameter, 'toLanding'),
        )
      : buildDestination(
          route.offer.url,
          route.offer.postbackParameter || campaign.offerClickIdParam,
          values,
          forwarded(campaign, tokens.byParameter, 'toOffer'),
        );
  return redirect(env, url, campaign, destination, clickId, settings);
};

/** Second page of a double meta refresh: only destinations this Worker signed. */
function secondHop(url: RequestUrl, env: Env): Response {
  const u = url.searchParams.get('u') ?? '';
  const s = url.searchParams.get('s') ?? '';
  let destination = '';
  try {
    destination = atob(u.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return pages.linkNotAvailable();
  }
  if (!destination || !verifyText(env, destination, s)) return pages.linkNotAvailable();
  return pages.metaRefresh(destination);
}

/** The click id of a request: its parameter, else the campaign's cookie; forged ones are ignored. */
function requestClickId(
  env: Env,
  request: Request,
  query: QueryParams,
  names: string[],
  campaignId: number | null,
): ParsedClickId | null {
  for (const name of names) {
    const raw = query.get(name);
    if (!raw) continue;
    const parsed = parseClickId(env, raw);
    if (parsed && (campaignId === null || parsed.campaignId === campaignId)) return parsed;
  }
  if (campaignId) {
    const parsed = parseClickId(env, cookieValue(request, `${COOKIE_PREFIX}${campaignId}`));
    if (parsed && parsed.campaignId === campaignId) return parsed;
  }
  return null;
}

/**
 * The landing page's link to the offer: /{route_click}/{campaignId}?clickid=...&option=2.
 * Without a usable click id (the page dropped it, no cookie, or a forged one) the visitor
 * still reaches an offer, under a new click id whose visit is stored as 'lp_direct'.
 */
const landingClick: CampaignRoute = async (request, url, rest, env, ctx, settings) => {
  const query = url.searchParams;
  const pathCampaignId = campaignIdFrom(rest, url);
  const cached = pathCampaignId ? compiledCampaign(env, pathCampaignId, ctx) : null;
  let campaign = cached instanceof Promise ? await cached : cached;
  const names = [DEFAULT_CLICK_ID_PARAM, 'cid', 'click_id'];
  if (campaign && campaign.lpClickIdParam !== DEFAULT_CLICK_ID_PARAM) names.push(campaign.lpClickIdParam);
  let parsed = requestClickId(env, request, query, names, pathCampaignId);
  if (!campaign && parsed && !pathCampaignId) campaign = await campaignById(env, parsed.campaignId, ctx);
  if (!campaign) return pages.linkNotAvailable();
  if (parsed && parsed.campaignId !== campaign.id) parsed = null;

  const ua = request.headers.get('user-agent') ?? '';
  const visitor = classifyUserAgent(ua);
  const filter = filterReason(request, visitor);
  const optionId = Number(query.get('option') ?? 0) || 0;
  // The same visitor clicking again reaches the same offer: the pick is seeded by the click id.
  const rng = parsed ? seededRng(parsed.seed) : Math.random;
  const routed = campaign.active
    ? routeOffer(campaign, { pathId: parsed?.pathId ?? 0, optionId }, visitor.device, rng)
    : null;
  if (!routed) return fallback(campaign);

  const tokens = tokenValues(campaign, query);
  let clickId: string;
  let pathId = parsed?.pathId ?? 0;
  let landingId = parsed?.landingId ?? 0;
  const now = Date.now();
  if (parsed) {
    clickId = parsed.clickId;
  } else {
    pathId = routed.offer.pathId;
    landingId = 0;
    clickId = trackNewVisit(
      env,
      ctx,
      request,
      ua,
      visitor.device,
      { campaignId: campaign.id, pathId, landingId, offerId: routed.offer.id },
      { target: '', keyword: '', filter: filter ?? 'lp_direct', tokens: tokens.bySlot },
      now,
    );
  }
  track(env, ctx, {
    k: 'l',
    id: clickId,
    c: campaign.id,
    p: pathId,
    l: landingId,
    o: routed.offer.id,
    opt: routed.optionId,
    at: now,
    f: filter,
  });
  const destination = buildDestination(
    routed.offer.url,
    routed.offer.postbackParameter || campaign.offerClickIdParam,
    { clickId, campaignId: campaign.id, target: '', keyword: '', tokens: tokens.byParameter },
    forwarded(campaign, tokens.byParameter, 'toOffer'),
  );
  return redirect(env, url, campaign, destination, clickId, settings);
};

function directScript(clickId: string, origin: string, clickRoute: string, param: string, forward: string[]) {
  const config = JSON.stringify({ id: clickId, prefix: `${origin}/${trim(clickRoute)}`, param, forward });
  return `(function(c){window.etkClickId=c.id;function run(){var q=new URLSearchParams(location.search);var l=document.querySelectorAll('a[href]');for(var i=0;i<l.length;i++){var a=l[i];if(a.href.indexOf(c.prefix)!==0)continue;try{var u=new URL(a.href);u.searchParams.set(c.param,c.id);for(var j=0;j<c.forward.length;j++){var f=c.forward[j];if(q.has(f)&&!u.searchParams.has(f))u.searchParams.set(f,q.get(f));}a.href=u.toString();}catch(e){}}}if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',run);else run();})(${config});`;
}

/**
 * Direct (no-redirect) tracking: the landing page loads /{route_script}?mode=visit&campaign=ID
 * &lp=LANDING plus its own query string. The script records the visit (unless the page already
 * carries a valid click id) and decorates the page's links to the landing-page click route.
 */
const directVisit: CampaignRoute = async (request, url, rest, env, ctx, settings) => {
  const cached = campaignOfLink(rest, url, env, ctx);
  const campaign = cached instanceof Promise ? await cached : cached;
  if (!campaign) return pages.script('/* Link not available */', 404);
  const query = url.searchParams;
  const offerTokens = campaign.tokens.filter((t) => t.toOffer).map((t) => t.parameter);
  const names = [DEFAULT_CLICK_ID_PARAM, campaign.lpClickIdParam];
  const existing = requestClickId(env, request, query, names, campaign.id);
  if (existing) {
    return pages.script(
      directScript(existing.clickId, url.origin, settings.route_click, DEFAULT_CLICK_ID_PARAM, offerTokens),
    );
  }
  const ua = request.headers.get('user-agent') ?? '';
  const visitor = classifyUserAgent(ua);
  const landingId = Number(query.get('lp') ?? 0) || 0;
  const landing = campaign.landings.find((l) => l.id === landingId);
  const { target, keyword, tokens } = linkValues(campaign, query);
  let filter = filterReason(request, visitor);
  if (!campaign.active) filter ??= 'inactive';
  const clickId = trackNewVisit(
    env,
    ctx,
    request,
    ua,
    visitor.device,
    { campaignId: campaign.id, pathId: landing?.pathId ?? 0, landingId: landing?.id ?? 0, offerId: 0 },
    { target, keyword, filter, tokens: tokens.bySlot, referrer: query.get('_ref'), direct: 1 },
  );
  const response = pages.script(
    directScript(clickId, url.origin, settings.route_click, DEFAULT_CLICK_ID_PARAM, offerTokens),
  );
  response.headers.append('set-cookie', clickCookie(url, campaign.id, clickId));
  return response;
};
