import type { RedirectType } from '../../../schema/campaigns';
import { fromMicros } from '../../../schema/money';
import {
  type LinkTestAnswer,
  type LinkTestInput,
  type LinkTestWarning,
  TOOLS_MESSAGES as M,
  type ToolDevice,
} from '../../../schema/tools-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { fieldError } from '../../lib/errors';
import { campaignForUser } from '../campaigns/access';
import { trackingOrigin } from '../campaigns/tracking-origin';
import { loadCompiledCampaign } from '../hot-path/compiled-campaigns';
import {
  buildDestination,
  type CompiledCampaign,
  type Device,
  eligible,
  type Rng,
  routeOffer,
  routeVisit,
  seededRng,
  type UrlValues,
} from '../hot-path/routing';
import { outboundPolicy } from '../outbound/outbound';
import { getSettings, type Settings } from '../settings/settings';
import { type CampaignItems, explainCandidates, loadItems, poolNamer } from './candidates';
import { checkLandingPages } from './page-check';
import { simulateSplit } from './split';
import { mintTestClickId, parseTestClickId } from './test-click-ids';

// The link tester: the tracking path's routing run as a dry run (docs/decisions/060). It reads
// the campaign fresh and calls the same routing functions as worker/tracking/handler.ts, but
// never the handler: no event is queued, no row written, no cookie set, and the click id it
// shows is a test id that every real route refuses.

export type Classify = (userAgent: string) => { device: Device; bot: boolean };

const REDIRECT_DESCRIPTIONS: Record<RedirectType, string> = {
  '302': 'HTTP 302 redirect straight to the page.',
  meta: 'A page that forwards the visitor with a meta refresh (no referrer).',
  double_meta: 'Two meta refreshes through this tracker: the page sees no referrer at all.',
};

const trim = (route: string) => route.replace(/^\/+|\/+$/g, '');

/** The campaign id and query of a pasted campaign link (/{route_main}/{id} or ?campaign=id). */
export function parseCampaignLink(link: string, settings: Settings) {
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(link) ? link : `https://${link}`);
  } catch {
    return null;
  }
  const main = `/${trim(settings.route_main)}`;
  if (url.pathname !== main && !url.pathname.startsWith(`${main}/`)) return null;
  const segment = url.pathname.slice(main.length + 1).split('/')[0];
  const raw = segment || url.searchParams.get('campaign') || url.searchParams.get('campaignId') || '';
  if (!/^\d{1,12}$/.test(raw) || Number(raw) <= 0) return null;
  return { campaignId: Number(raw), query: url.searchParams };
}

/** Target, keyword and the campaign's token values: typed values win over the link's. */
export function visitValues(
  campaign: CompiledCampaign,
  query: URLSearchParams | null,
  input: { target: string; keyword: string; tokens: Record<string, string> },
) {
  const target = input.target || query?.get(campaign.targetParam) || '';
  const keyword = campaign.keywordParam ? input.keyword || query?.get(campaign.keywordParam) || '' : '';
  const tokens: Record<string, string> = {};
  for (const token of campaign.tokens) {
    const value = input.tokens[token.parameter] ?? query?.get(token.parameter) ?? null;
    if (value !== null && value !== '') tokens[token.parameter] = value;
  }
  return { target, keyword, tokens };
}

function forwardedTokens(
  campaign: CompiledCampaign,
  values: Record<string, string>,
  to: 'toLanding' | 'toOffer',
) {
  const out: Record<string, string> = {};
  for (const token of campaign.tokens) {
    if (token[to] && values[token.parameter] !== undefined) out[token.parameter] = values[token.parameter];
  }
  return out;
}

/** The visitor's device: chosen, else read from the user agent, else desktop. */
function toolVisitor(input: { device: '' | ToolDevice; userAgent: string }, classify: Classify) {
  const read = input.userAgent ? classify(input.userAgent) : null;
  const device: Device = input.device || read?.device || 'desktop';
  const deviceFrom = input.device ? 'chosen' : read ? 'user_agent' : 'default';
  return { device, deviceFrom, bot: read?.bot ?? false } as const;
}

/** One routing pass as the tracking path makes it: the visit, then the landing page's click. */
export function routeOnce(
  env: Env,
  compiled: CompiledCampaign,
  device: Device,
  optionId: number,
  seed: number | null,
) {
  const rng: Rng = seed !== null ? seededRng(seed) : Math.random;
  const route = compiled.active ? routeVisit(compiled, device, rng) : ({ kind: 'none' } as const);
  const pathId = route.kind === 'none' ? 0 : route.pathId;
  const landing = route.kind === 'landing' ? route.landing : null;
  let offer = route.kind === 'offer' ? route.offer : null;
  const clickId = mintTestClickId(env, {
    campaignId: compiled.id,
    pathId,
    landingId: landing?.id ?? 0,
    offerId: offer?.id ?? 0,
  });
  if (landing) {
    // The real landing-page click seeds its offer pick with the click id: a repeat click repeats it.
    const offerRng = seed !== null ? rng : seededRng(parseTestClickId(env, clickId)?.seed ?? 0);
    offer = routeOffer(compiled, { pathId, optionId }, device, offerRng)?.offer ?? null;
  }
  return { route, pathId, landing, offer, clickId };
}

function offerWarnings(compiled: CompiledCampaign, items: CampaignItems, device: Device): LinkTestWarning[] {
  const warnings: LinkTestWarning[] = [];
  for (const o of eligible(compiled.offers, device)) {
    const param = o.postbackParameter || compiled.offerClickIdParam;
    if (/\{clickid\}/i.test(o.url) || param !== 'clickid') continue;
    const name = items.offers.find((i) => i.id === o.id)?.name ?? String(o.id);
    warnings.push({
      code: 'offer_no_click_id',
      message: `Offer “${name}” has no {clickid} macro in its URL and no network click-id parameter is set: the click id is added as clickid=…, which your affiliate network may not read, so its conversions could not be matched.`,
    });
  }
  return warnings;
}

export async function linkTest(
  env: Env,
  user: AuthUser,
  input: LinkTestInput,
  requestOrigin: string,
  classify: Classify,
  fetcher: typeof fetch = fetch,
): Promise<LinkTestAnswer> {
  const settings = await getSettings(env);
  let query: URLSearchParams | null = null;
  let campaignId = input.campaignId;
  if (input.link) {
    const parsed = parseCampaignLink(input.link, settings);
    if (!parsed) throw fieldError('link', M.linkInvalid);
    campaignId = parsed.campaignId;
    query = parsed.query;
  }
  const row = await campaignForUser(env, user, campaignId as number, { allowDeleted: true });
  const [compiled, items] = await Promise.all([loadCompiledCampaign(env, row.id), loadItems(env, row.id)]);
  const visitor = toolVisitor(input, classify);
  const origin = trackingOrigin(settings, requestOrigin);
  const base = {
    campaign: {
      campaignId: row.id,
      name: row.name,
      campaignType: row.campaignType,
      active: row.active,
      deleted: row.deleted,
      redirectType: row.redirectType,
      trafficSource: row.trafficSource,
    },
    visitor: {
      device: visitor.device,
      deviceFrom: visitor.deviceFrom,
      bot: visitor.bot,
      country: input.country,
      userAgent: input.userAgent,
    },
    redirect: { mode: row.redirectType, description: REDIRECT_DESCRIPTIONS[row.redirectType] },
  };
  if (!compiled) {
    return {
      ...base,
      values: { target: input.target, keyword: input.keyword, tokens: {} },
      result: 'not_available',
      fallback: { reason: 'deleted', status: 404, url: '' },
      path: null,
      landing: null,
      offer: null,
      clickId: '',
      landingUrl: null,
      clickThroughUrl: null,
      offerUrl: null,
      offerClickIdParam: '',
      candidates: { paths: [], landings: [], offers: [] },
      warnings: [
        {
          code: 'campaign_deleted',
          message: 'This campaign is deleted: its link answers “Link not available” and records nothing.',
        },
      ],
      split: null,
    };
  }

  const values = visitValues(compiled, query, input);
  const optionId = input.optionId ?? 0;
  const run = routeOnce(env, compiled, visitor.device, optionId, input.seed);
  const urlValues: UrlValues = { clickId: run.clickId, campaignId: compiled.id, ...values };
  const landingUrl = run.landing
    ? buildDestination(
        run.landing.url,
        compiled.lpClickIdParam,
        urlValues,
        forwardedTokens(compiled, values.tokens, 'toLanding'),
      )
    : null;
  const clickThroughUrl = run.landing
    ? `${origin}/${trim(settings.route_click)}/${compiled.id}?clickid=${run.clickId}${optionId ? `&option=${optionId}` : ''}`
    : null;
  // Behind a landing page the offer link knows only what the page passes on: the offer tokens.
  const offerTokens = forwardedTokens(compiled, values.tokens, 'toOffer');
  const offerClickIdParam = run.offer ? run.offer.postbackParameter || compiled.offerClickIdParam : '';
  const offerUrl = run.offer
    ? buildDestination(
        run.offer.url,
        offerClickIdParam,
        run.landing
          ? { clickId: run.clickId, campaignId: compiled.id, target: '', keyword: '', tokens: offerTokens }
          : urlValues,
        offerTokens,
      )
    : null;

  const warnings: LinkTestWarning[] = [];
  if (!compiled.active) {
    warnings.push({
      code: 'campaign_paused',
      message:
        'This campaign is paused: visitors go to its custom URL, else to a “Link not available” page, and are stored as filtered visits, never counted.',
    });
  } else if (run.route.kind === 'none') {
    warnings.push({
      code: 'no_eligible',
      message: `Nothing can serve a ${visitor.device} visitor: no active ${compiled.type === 'direct_link' || compiled.type === 'rotator' ? 'offer' : 'landing page'} with a share above 0 for this device.`,
    });
  }
  if (visitor.bot) {
    warnings.push({
      code: 'bot',
      message: 'This user agent is a bot: its visit would be stored as filtered and not counted.',
    });
  }
  warnings.push(...offerWarnings(compiled, items, visitor.device));
  if (input.checkPages === 1 && compiled.type !== 'direct_link' && compiled.type !== 'rotator') {
    const landings = eligible(compiled.landings, visitor.device)
      .sort((a, b) => (a.id === run.landing?.id ? -1 : b.id === run.landing?.id ? 1 : 0))
      .slice(0, 5)
      .map((l) => ({
        name: items.landings.find((i) => i.id === l.id)?.name ?? String(l.id),
        url: buildDestination(l.url, compiled.lpClickIdParam, urlValues, {}),
      }));
    warnings.push(
      ...(await checkLandingPages(landings, settings, compiled.id, outboundPolicy(env), fetcher)),
    );
  }

  const fallbackReason = !compiled.active ? 'inactive' : run.route.kind === 'none' ? 'unrouted' : null;
  const offerItem = run.offer ? items.offers.find((o) => o.id === run.offer?.id) : undefined;
  const nameOf = (list: { id: number; name: string }[], id: number) =>
    list.find((i) => i.id === id)?.name ?? '';
  const poolName = poolNamer(items);
  return {
    ...base,
    values,
    result: fallbackReason ? 'fallback' : 'routed',
    fallback: fallbackReason
      ? { reason: fallbackReason, status: compiled.customUrl ? 302 : 404, url: compiled.customUrl }
      : null,
    path: run.pathId ? { id: run.pathId, name: nameOf(items.paths, run.pathId) } : null,
    landing: run.landing ? { id: run.landing.id, name: nameOf(items.landings, run.landing.id) } : null,
    offer: run.offer
      ? { id: run.offer.id, name: offerItem?.name ?? '', payout: fromMicros(offerItem?.payout_micros ?? 0) }
      : null,
    clickId: run.clickId,
    landingUrl,
    clickThroughUrl,
    offerUrl,
    offerClickIdParam,
    candidates: explainCandidates(compiled, items, visitor.device, {
      pathId: run.pathId,
      landingId: run.landing?.id ?? 0,
      offerId: run.offer?.id ?? 0,
    }),
    warnings,
    split:
      input.runs > 1 && compiled.active
        ? simulateSplit(
            compiled,
            visitor.device,
            optionId,
            input.runs,
            input.seed !== null ? seededRng(input.seed + 1) : Math.random,
            {
              name: (level, id) =>
                nameOf(
                  level === 'path' ? items.paths : level === 'landing' ? items.landings : items.offers,
                  id,
                ),
              poolName,
            },
          )
        : null,
  };
}
