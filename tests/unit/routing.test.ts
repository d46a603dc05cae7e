import { describe, expect, it } from 'vitest';
import { AFFILIATE_NETWORK_PARAMS } from '../../schema/campaigns';
import {
  buildDestination,
  type CompiledCampaign,
  eligible,
  offerClickIdParam,
  pickWeighted,
  type RoutedLanding,
  type RoutedOffer,
  routeOffer,
  routeVisit,
  seededRng,
} from '../../worker/services/hot-path/routing';

const ANY = [1];
const DESKTOP = [2];
const MOBILE = [3];
const TABLET = [4];

function landing(id: number, share: number, agents = ANY, pathId = 0): RoutedLanding {
  return { id, share, agents, pathId, url: `https://lp.example/${id}` };
}
function offer(id: number, share: number, agents = ANY, pathId = 0, optionId = 0): RoutedOffer {
  return { id, share, agents, pathId, optionId, url: `https://offer.example/${id}`, postbackParameter: '' };
}
function campaign(overrides: Partial<CompiledCampaign>): CompiledCampaign {
  return {
    id: 7,
    type: 'landing_page',
    active: true,
    customUrl: '',
    redirectType: '302',
    targetParam: 'tid',
    keywordParam: 'keyword',
    lpClickIdParam: 'clickid',
    offerClickIdParam: 'clickid',
    goal: 'purchase',
    paths: [],
    landings: [],
    offers: [],
    options: [],
    tokens: [],
    ...overrides,
  };
}

/** A multiple_path_type campaign of two paths, 100 and 200, that take every device at these shares. */
function twoPaths(
  shares: [number, number],
  items: Pick<CompiledCampaign, 'landings'> & Partial<CompiledCampaign>,
) {
  return campaign({
    type: 'multiple_path_type',
    paths: [
      { id: 100, share: shares[0], agents: ANY },
      { id: 200, share: shares[1], agents: ANY },
    ],
    ...items,
  });
}

/** Pearson's chi-square statistic of observed counts against expected shares. */
function chiSquare(counts: Map<number, number>, shares: Record<number, number>, n: number): number {
  const total = Object.values(shares).reduce((a, b) => a + b, 0);
  let chi = 0;
  for (const [id, share] of Object.entries(shares)) {
    const expected = (n * share) / total;
    const observed = counts.get(Number(id)) ?? 0;
    chi += (observed - expected) ** 2 / expected;
  }
  return chi;
}
// Critical values of the chi-square distribution at the 0.1 % level: a fair picker fails one
// seed in a thousand, a biased one (a share off by a few points over 10,000 picks) every time.
const CRITICAL = { 1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467 } as Record<number, number>;

describe('weighted picks', () => {
  it('follows the shares over 10,000 seeded picks (chi-square at 0.1 %)', () => {
    const items = [landing(1, 50), landing(2, 30), landing(3, 20)];
    const rng = seededRng(20261121);
    const counts = new Map<number, number>();
    for (let i = 0; i < 10_000; i++) {
      const picked = pickWeighted(items, rng)!;
      counts.set(picked.id, (counts.get(picked.id) ?? 0) + 1);
    }
    const chi = chiSquare(counts, { 1: 50, 2: 30, 3: 20 }, 10_000);
    expect(chi).toBeLessThan(CRITICAL[2]);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(10_000);
    // Each share within 2 percentage points as a plain sanity check.
    expect(Math.abs(counts.get(1)! / 10_000 - 0.5)).toBeLessThan(0.02);
    expect(Math.abs(counts.get(3)! / 10_000 - 0.2)).toBeLessThan(0.02);
  });

  it('follows the shares of five offers with unequal weights through routeVisit', () => {
    const shares = { 11: 10, 12: 20, 13: 30, 14: 25, 15: 15 };
    const c = campaign({
      type: 'direct_link',
      offers: Object.entries(shares).map(([id, share]) => offer(Number(id), share)),
    });
    const rng = seededRng(7);
    const counts = new Map<number, number>();
    for (let i = 0; i < 10_000; i++) {
      const route = routeVisit(c, 'desktop', rng);
      if (route.kind !== 'offer') throw new Error('expected an offer');
      counts.set(route.offer.id, (counts.get(route.offer.id) ?? 0) + 1);
    }
    expect(chiSquare(counts, shares, 10_000)).toBeLessThan(CRITICAL[4]);
  });

  it('never picks a zero share and answers null for nothing to pick', () => {
    const rng = seededRng(1);
    const items = [landing(1, 0), landing(2, 5)];
    for (let i = 0; i < 1000; i++) expect(pickWeighted(items, rng)!.id).toBe(2);
    expect(pickWeighted([], rng)).toBeNull();
    expect(pickWeighted([landing(1, 0)], rng)).toBeNull();
  });

  it('answers the same sequence for the same seed', () => {
    const a = seededRng(99);
    const b = seededRng(99);
    const items = [landing(1, 1), landing(2, 1), landing(3, 1)];
    const seqA = Array.from({ length: 20 }, () => pickWeighted(items, a)!.id);
    const seqB = Array.from({ length: 20 }, () => pickWeighted(items, b)!.id);
    expect(seqA).toEqual(seqB);
  });
});

describe('device filtering', () => {
  const items = [landing(1, 1, ANY), landing(2, 1, DESKTOP), landing(3, 1, MOBILE), landing(4, 1, [3, 4])];

  it("keeps 'any' and the visitor's own device", () => {
    expect(eligible(items, 'desktop').map((i) => i.id)).toEqual([1, 2]);
    expect(eligible(items, 'mobile').map((i) => i.id)).toEqual([1, 3, 4]);
    expect(eligible(items, 'tablet').map((i) => i.id)).toEqual([1, 4]);
  });

  it('routes a mobile visitor only to mobile pages over 2,000 picks', () => {
    const c = campaign({ landings: [landing(1, 1, DESKTOP), landing(2, 1, MOBILE), landing(3, 1, TABLET)] });
    const rng = seededRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const route = routeVisit(c, 'mobile', rng);
      if (route.kind !== 'landing') throw new Error('expected a landing page');
      seen.add(route.landing.id);
    }
    expect([...seen]).toEqual([2]);
  });

  it('answers none when no page serves the device', () => {
    const c = campaign({ landings: [landing(1, 1, DESKTOP)] });
    expect(routeVisit(c, 'tablet', seededRng(1))).toEqual({ kind: 'none' });
  });
});

describe('campaign types', () => {
  const rng = () => seededRng(42);

  it('landing_page: a landing page, then any offer at the click', () => {
    const c = campaign({ landings: [landing(1, 1)], offers: [offer(5, 1)] });
    const visit = routeVisit(c, 'desktop', rng());
    expect(visit).toMatchObject({ kind: 'landing', pathId: 0, landing: { id: 1 } });
    expect(routeOffer(c, { pathId: 0, optionId: 0 }, 'desktop', rng())).toMatchObject({ offer: { id: 5 } });
  });

  it('direct_link and rotator: an offer at the visit, no landing page', () => {
    for (const type of ['direct_link', 'rotator'] as const) {
      const c = campaign({ type, landings: [landing(1, 1)], offers: [offer(5, 1)] });
      expect(routeVisit(c, 'mobile', rng())).toMatchObject({ kind: 'offer', pathId: 0, offer: { id: 5 } });
    }
  });

  it('multiple_path_type: path by share, then the landing page and offers of that path', () => {
    const c = twoPaths([1, 3], {
      landings: [landing(1, 1, ANY, 100), landing(2, 1, ANY, 200)],
      offers: [offer(5, 1, ANY, 100), offer(6, 1, ANY, 200)],
    });
    const r = seededRng(5);
    const counts = new Map<number, number>();
    for (let i = 0; i < 10_000; i++) {
      const route = routeVisit(c, 'desktop', r);
      if (route.kind !== 'landing') throw new Error('expected a landing page');
      expect(route.landing.pathId).toBe(route.pathId);
      counts.set(route.pathId, (counts.get(route.pathId) ?? 0) + 1);
    }
    expect(chiSquare(counts, { 100: 1, 200: 3 }, 10_000)).toBeLessThan(CRITICAL[1]);
    for (let i = 0; i < 50; i++) {
      expect(routeOffer(c, { pathId: 200, optionId: 0 }, 'desktop', r)!.offer.id).toBe(6);
      expect(routeOffer(c, { pathId: 100, optionId: 0 }, 'desktop', r)!.offer.id).toBe(5);
    }
  });

  it('multiple_path_type: a path without an eligible landing page never takes the visitor', () => {
    const c = twoPaths([99, 1], { landings: [landing(1, 1, DESKTOP, 100), landing(2, 1, ANY, 200)] });
    const r = seededRng(8);
    for (let i = 0; i < 500; i++) expect(routeVisit(c, 'mobile', r)).toMatchObject({ pathId: 200 });
  });

  it('multiple_option_type: the named option decides the offers; unknown falls back to the first option', () => {
    const c = campaign({
      type: 'multiple_option_type',
      landings: [landing(1, 1)],
      options: [10, 20],
      offers: [offer(5, 1, ANY, 0, 10), offer(6, 1, ANY, 0, 20), offer(7, 1, ANY, 0, 20)],
    });
    const r = seededRng(11);
    for (let i = 0; i < 200; i++) {
      expect(routeOffer(c, { pathId: 0, optionId: 10 }, 'desktop', r)).toMatchObject({
        offer: { id: 5 },
        optionId: 10,
      });
      expect([6, 7]).toContain(routeOffer(c, { pathId: 0, optionId: 20 }, 'desktop', r)!.offer.id);
      expect(routeOffer(c, { pathId: 0, optionId: 999 }, 'desktop', r)).toMatchObject({ optionId: 10 });
    }
  });

  it('a landing-page click still reaches an offer when its path or option has none left', () => {
    const c = campaign({ type: 'multiple_path_type', offers: [offer(9, 1, ANY, 300)] });
    expect(routeOffer(c, { pathId: 100, optionId: 0 }, 'desktop', seededRng(1))!.offer.id).toBe(9);
    expect(
      routeOffer(campaign({ offers: [] }), { pathId: 0, optionId: 0 }, 'desktop', seededRng(1)),
    ).toBeNull();
  });

  it('an empty campaign routes nowhere, without throwing', () => {
    for (const type of [
      'landing_page',
      'direct_link',
      'rotator',
      'multiple_path_type',
      'multiple_option_type',
    ] as const) {
      expect(routeVisit(campaign({ type }), 'desktop', seededRng(1))).toEqual({ kind: 'none' });
    }
  });
});

describe('destination URLs', () => {
  const values = {
    clickId: 'abc123',
    campaignId: 7,
    target: 'ad 1',
    keyword: 'shoes',
    tokens: { sub1: 'x&y' },
  };

  it('sets the click id parameter and forwards tokens without touching the page query', () => {
    const url = buildDestination('https://lp.example/page?utm=1', 'clickid', values, { sub1: 'x&y' });
    expect(url).toBe('https://lp.example/page?utm=1&clickid=abc123&sub1=x%26y');
  });

  it('replaces macros and does not add the click id twice', () => {
    const url = buildDestination(
      'https://offer.example/?aff=1&s2={clickid}&t={target}&k={keyword}&c={campaignid}&s={sub1}&u={unknown}',
      'tid',
      values,
      {},
    );
    expect(url).toBe('https://offer.example/?aff=1&s2=abc123&t=ad%201&k=shoes&c=7&s=x%26y&u={unknown}');
  });

  it('replaces a static click id parameter, keeps the fragment and adds nothing twice', () => {
    expect(
      buildDestination('https://lp.example/p?clickid=STATIC&a=1#top', 'clickid', values, { a: '2' }),
    ).toBe('https://lp.example/p?clickid=abc123&a=1#top');
    expect(buildDestination('https://lp.example/p#top', 'clickid', values, {})).toBe(
      'https://lp.example/p?clickid=abc123#top',
    );
    expect(buildDestination('https://lp.example/p?', 'sub id', values, {})).toBe(
      'https://lp.example/p?sub%20id=abc123',
    );
    expect(buildDestination('https://lp.example/p?x=1&', 'clickid', values, {})).toBe(
      'https://lp.example/p?x=1&clickid=abc123',
    );
  });

  it('puts the click id in each affiliate network parameter', () => {
    expect(AFFILIATE_NETWORK_PARAMS).toEqual({
      clickbank: 'tid',
      mediamaven: 'subid',
      maxweb: 'subid',
      sellhealth: 't1',
      oasisads: 's1',
    });
    for (const [network, param] of Object.entries(AFFILIATE_NETWORK_PARAMS)) {
      expect(offerClickIdParam('', network)).toBe(param);
      const url = new URL(
        buildDestination('https://offer.example/buy', offerClickIdParam('', network), values, {}),
      );
      expect(url.searchParams.get(param)).toBe('abc123');
    }
    expect(offerClickIdParam('', '')).toBe('clickid');
    expect(offerClickIdParam('aff_sub', 'clickbank')).toBe('aff_sub');
  });
});
