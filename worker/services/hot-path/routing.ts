import { AFFILIATE_NETWORK_PARAMS, type CampaignType, type RedirectType } from '../../../schema/campaigns';

// Routing semantics, one module, pure: which path, landing page and offer a visitor gets
// (docs/tracking.md "Routing"). Loading and caching the compiled campaign lives in
// services/campaigns.ts; the hot path in worker/tracking/.

export type Device = 'desktop' | 'mobile' | 'tablet';
/** Agent ids seeded by the migration: 1 any, 2 desktop, 3 mobile, 4 tablet. */
export const DEVICE_AGENT_IDS: Record<Device, number> = { desktop: 2, mobile: 3, tablet: 4 };
const ANY_AGENT = 1;

/** A random number in [0, 1). Injectable so that tests can seed the picks. */
export type Rng = () => number;

export type WeightedItem = { id: number; share: number; agents: number[] };
type RoutedPath = WeightedItem;
export type RoutedLanding = WeightedItem & { pathId: number; url: string };
export type RoutedOffer = WeightedItem & {
  pathId: number;
  optionId: number;
  url: string;
  postbackParameter: string;
};
type RoutedToken = { slot: number; parameter: string; toLanding: boolean; toOffer: boolean };

/** A campaign as the hot path needs it: only its active, non-deleted items. */
export type CompiledCampaign = {
  id: number;
  type: CampaignType;
  active: boolean;
  customUrl: string;
  redirectType: RedirectType;
  /** Campaign-link parameter carrying the target, and the one carrying the keyword. */
  targetParam: string;
  keywordParam: string;
  /** Landing-page URL parameter receiving the click id. */
  lpClickIdParam: string;
  /** Offer URL parameter receiving the click id (the affiliate network's, unless overridden). */
  offerClickIdParam: string;
  goal: string;
  paths: RoutedPath[];
  landings: RoutedLanding[];
  offers: RoutedOffer[];
  /** Active option ids in id order. */
  options: number[];
  tokens: RoutedToken[];
};

export type VisitRoute =
  | { kind: 'landing'; pathId: number; landing: RoutedLanding }
  | { kind: 'offer'; pathId: number; offer: RoutedOffer }
  | { kind: 'none' };

export const DEFAULT_CLICK_ID_PARAM = 'clickid';

/** The offer parameter for the click id: the campaign's, else its affiliate network's, else clickid. */
export function offerClickIdParam(opTargetParam: string, affiliateNetwork: string): string {
  if (opTargetParam) return opTargetParam;
  const network = AFFILIATE_NETWORK_PARAMS[affiliateNetwork as keyof typeof AFFILIATE_NETWORK_PARAMS];
  return network ?? DEFAULT_CLICK_ID_PARAM;
}

/** Items that may serve a visitor on `device`: a positive share and 'any' or that device among its agents. */
export function eligible<T extends WeightedItem>(items: readonly T[], device: Device): T[] {
  const agent = DEVICE_AGENT_IDS[device];
  return items.filter(
    (item) => item.share > 0 && (item.agents.includes(ANY_AGENT) || item.agents.includes(agent)),
  );
}

/** One item chosen with probability share / total share; null when there is none. */
export function pickWeighted<T extends WeightedItem>(items: readonly T[], rng: Rng): T | null {
  let total = 0;
  for (const item of items) total += item.share;
  if (items.length === 0 || total <= 0) return null;
  let point = rng() * total;
  for (const item of items) {
    point -= item.share;
    if (point < 0) return item;
  }
  return items[items.length - 1];
}

/** Where a visitor on the campaign link goes (spec 2 §4 campaign types). */
export function routeVisit(campaign: CompiledCampaign, device: Device, rng: Rng): VisitRoute {
  switch (campaign.type) {
    case 'direct_link':
    case 'rotator': {
      const offer = pickWeighted(eligible(campaign.offers, device), rng);
      return offer ? { kind: 'offer', pathId: 0, offer } : { kind: 'none' };
    }
    case 'multiple_path_type': {
      const landings = eligible(campaign.landings, device);
      // Only paths that can serve this visitor take part, so an empty path never strands one.
      const paths = eligible(campaign.paths, device).filter((p) => landings.some((l) => l.pathId === p.id));
      const path = pickWeighted(paths, rng);
      if (!path) return { kind: 'none' };
      const landing = pickWeighted(
        landings.filter((l) => l.pathId === path.id),
        rng,
      );
      return landing ? { kind: 'landing', pathId: path.id, landing } : { kind: 'none' };
    }
    default: {
      const landing = pickWeighted(eligible(campaign.landings, device), rng);
      return landing ? { kind: 'landing', pathId: 0, landing } : { kind: 'none' };
    }
  }
}

/**
 * The offer for a landing-page click. Path campaigns use the offers of the visitor's path,
 * option campaigns those of the named option (an unknown or missing option means the first
 * active option that has an eligible offer). When that narrow set is empty the visitor, who is
 * already on a landing page, gets any eligible offer of the campaign rather than a dead end.
 */
export function routeOffer(
  campaign: CompiledCampaign,
  at: { pathId: number; optionId: number },
  device: Device,
  rng: Rng,
): { offer: RoutedOffer; optionId: number } | null {
  const offers = eligible(campaign.offers, device);
  let pool = offers;
  if (campaign.type === 'multiple_path_type') {
    pool = offers.filter((o) => o.pathId === at.pathId);
  } else if (campaign.type === 'multiple_option_type') {
    const served = (id: number) => offers.some((o) => o.optionId === id);
    const optionId =
      campaign.options.includes(at.optionId) && served(at.optionId)
        ? at.optionId
        : (campaign.options.find(served) ?? 0);
    pool = offers.filter((o) => o.optionId === optionId);
  }
  const offer = pickWeighted(pool, rng) ?? pickWeighted(offers, rng);
  return offer ? { offer, optionId: offer.optionId } : null;
}

/** A small seeded generator (mulberry32) for repeatable picks. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type UrlValues = {
  clickId: string;
  campaignId: number;
  target: string;
  keyword: string;
  /** Extra-token values by query parameter name. */
  tokens: Record<string, string>;
};

const MACRO = /\{([A-Za-z0-9_.-]+)\}/g;
const enc = encodeURIComponent;

/** Whether the query of `url` (before any fragment) already has parameter `name`. */
function hasParam(url: string, name: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  const prefix = `${enc(name)}=`;
  return url
    .slice(q + 1)
    .split('&')
    .some((pair) => pair === enc(name) || pair.startsWith(prefix));
}

/**
 * A destination URL from a configured page URL: macros ({clickid}, {target}, {keyword},
 * {campaignid} and each token's {parameter}) are replaced, then the click id is added under
 * `clickIdParam` (unless the URL placed it with {clickid}) and the forwarded tokens appended.
 * Built as a string: this runs on every click, and URL objects cost more than the rest of the
 * redirect. Page URLs were checked as http(s) URLs when saved.
 */
export function buildDestination(
  pageUrl: string,
  clickIdParam: string,
  values: UrlValues,
  forward: Record<string, string>,
): string {
  let placedClickId = false;
  const replaced = !pageUrl.includes('{')
    ? pageUrl
    : pageUrl.replace(MACRO, (whole, name: string) => {
        const key = name.toLowerCase();
        if (key === 'clickid') {
          placedClickId = true;
          return enc(values.clickId);
        }
        if (key === 'target') return enc(values.target);
        if (key === 'keyword') return enc(values.keyword);
        if (key === 'campaignid') return String(values.campaignId);
        if (name in values.tokens) return enc(values.tokens[name]);
        return whole;
      });
  const hash = replaced.indexOf('#');
  const base = hash < 0 ? replaced : replaced.slice(0, hash);
  const fragment = hash < 0 ? '' : replaced.slice(hash);
  if (!placedClickId && hasParam(base, clickIdParam)) {
    // A page URL that carries the parameter already (a static value): replace it, the rare way.
    const url = new URL(replaced);
    url.searchParams.set(clickIdParam, values.clickId);
    for (const [name, value] of Object.entries(forward))
      if (!url.searchParams.has(name)) url.searchParams.set(name, value);
    return url.toString();
  }
  const params: string[] = [];
  if (!placedClickId) params.push(`${enc(clickIdParam)}=${enc(values.clickId)}`);
  for (const [name, value] of Object.entries(forward)) {
    if (!hasParam(base, name)) params.push(`${enc(name)}=${enc(value)}`);
  }
  if (params.length === 0) return replaced;
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${params.join('&')}${fragment}`;
}
