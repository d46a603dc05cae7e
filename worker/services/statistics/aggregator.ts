import { cpa, cr, lpCtr, round } from '../../../schema/metrics';
import { fromMicros } from '../../../schema/money';
import type { ElementRow as ElementAnswerRow } from '../../../schema/stats-api';
import type { Env } from '../../env';
import { type FetchLike, type OutboundPolicy, outboundFetch, outboundPolicy } from '../outbound/outbound';
import type { DayBounds, StatsCampaign } from './common';
import { landingTests, testSummary } from './landings';
import { placementAggregates } from './placements';

// The landing-element aggregator (spec 3): landing pages named like 'headline3_image1_cta2'
// are grouped by the element at each position of their name, so a marketer sees which
// headline or image wins across all pages that use it. Each element's content is read from
// the landing page itself (get-landing-elements-data) and classified: an image is a cta,
// anything else a header.

export type LandingStat = {
  id: number;
  name: string;
  url?: string;
  active: boolean;
  deleted: boolean;
  visits: number;
  lpClicks: number;
  conversions: number;
  /** minor units */
  spend: number;
  /** minor units */
  revenue: number;
};

/**
 * An element's sums before its tests are added: the answer's ElementRow (schema/stats-api.ts)
 * without test_data and test_summary; money in micro-units until aggregateResult converts it.
 */
export type ElementRow = Omit<ElementAnswerRow, 'test_data' | 'test_summary'>;

/** Splits names on `separator`; names with fewer than 2 parts take no part. */
export function aggregateElements(pages: LandingStat[], separator = '_'): ElementRow[][] {
  const positions: Map<string, ElementRow>[] = [];
  for (const page of pages) {
    const parts = page.name.split(separator).map((p) => p.trim());
    if (parts.length < 2 || parts.some((p) => p === '')) continue;
    parts.forEach((part, position) => {
      positions[position] ??= new Map();
      const row = positions[position].get(part) ?? {
        position,
        page: part,
        landingIds: [],
        urls: [],
        visits: 0,
        lpClicks: 0,
        lpCTR: 0,
        conversions: 0,
        cr: 0,
        cpa: 0,
        adSpent: 0,
        revenue: 0,
        netProfit: 0,
        status: 0 as 0 | 1,
      };
      row.landingIds.push(page.id);
      if (page.url && !row.urls.includes(page.url)) row.urls.push(page.url);
      row.visits += page.visits;
      row.lpClicks += page.lpClicks;
      row.conversions += page.conversions;
      row.adSpent += page.spend;
      row.revenue += page.revenue;
      if (page.active && !page.deleted) row.status = 1;
      positions[position].set(part, row);
    });
  }
  return positions.map((byElement) =>
    [...byElement.values()]
      .map((row) => ({
        ...row,
        lpCTR: lpCtr(row.lpClicks, row.visits, 2),
        cr: cr(row.conversions, row.visits),
        cpa: cpa(row.adSpent, row.conversions),
        netProfit: row.revenue - row.adSpent,
      }))
      .sort((a, b) => b.visits - a.visits || a.page.localeCompare(b.page)),
  );
}

/** The aggregator's result: elements per name position, money in dollars, each with its tests. */
export async function aggregateResult(
  env: Pick<Env, 'DB'>,
  c: StatsCampaign,
  bounds: DayBounds,
  separator: string,
) {
  const aggs = await placementAggregates(env, c, bounds);
  const { results: pages } = await env.DB.prepare(
    'SELECT id, name, url, active, deleted FROM landing_pages WHERE campaign_id = ?1 ORDER BY id',
  )
    .bind(c.id)
    .all<{ id: number; name: string; url: string; active: number; deleted: number }>();
  const sums = new Map<
    number,
    { visits: number; lpClicks: number; conversions: number; revenue: number; spend: number }
  >();
  for (const a of aggs) {
    const s = sums.get(a.landingId) ?? { visits: 0, lpClicks: 0, conversions: 0, revenue: 0, spend: 0 };
    s.visits += a.visits;
    s.lpClicks += a.lpClicks;
    s.conversions += a.conversions;
    s.revenue += a.revenue;
    s.spend += a.spend;
    sums.set(a.landingId, s);
  }
  const positions = aggregateElements(
    pages.map((p) => ({
      id: p.id,
      name: p.name,
      url: p.url,
      active: p.active === 1,
      deleted: p.deleted === 1,
      ...(sums.get(p.id) ?? { visits: 0, lpClicks: 0, conversions: 0, revenue: 0, spend: 0 }),
    })),
    separator,
  );
  return {
    separator,
    positions: positions.map((elements) => {
      const tests = landingTests(
        elements.map((e, i) => ({
          id: i,
          active: 1,
          deleted: 0,
          visits: e.visits,
          lpClicks: e.lpClicks,
          conversions: e.conversions,
        })),
        c.optimizationGoal || 'conversion_rate',
        c.minVisits,
      );
      return elements.map((e, i) => {
        const testData = (tests.get(i) ?? []).map((t) => ({
          ...t,
          against: elements[Number(t.against)].page,
        }));
        return {
          ...e,
          adSpent: round(fromMicros(e.adSpent), 2),
          revenue: round(fromMicros(e.revenue), 2),
          netProfit: round(fromMicros(e.netProfit), 2),
          cpa: round(fromMicros(e.cpa), 2),
          test_data: testData,
          test_summary: testSummary(testData),
        };
      });
    }),
  };
}

export type ElementTag = 'cta' | 'header';

/**
 * Spec 3: an element is a cta when its content starts with an image tag, otherwise a header.
 * Leading whitespace is ignored and the tag name may be in any case ('  <IMG src=…>' is a cta);
 * the name must end there ('<imgx>' and '<image>' are not image tags).
 */
export function classifyElement(content: string): ElementTag {
  return /^<img(?=[\s/>])/i.test(content.trimStart()) ? 'cta' : 'header';
}

const VOID_TAGS = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'source', 'track', 'wbr']);
const CONTENT_LIMIT = 2000;

/**
 * The named elements of a landing page: every tag carrying `data-element="name"`. The content of
 * an element is what it holds (from its opening to its matching closing tag); a void element such
 * as an image is its own content. The first element of a name wins.
 */
export function extractElements(html: string): { name: string; content: string }[] {
  const out: { name: string; content: string }[] = [];
  const open = /<([a-zA-Z][\w-]*)\b[^>]*?\bdata-element\s*=\s*(?:"([^"]*)"|'([^']*)')[^>]*>/g;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const name = (m[2] ?? m[3] ?? '').trim();
    if (!name || out.some((e) => e.name === name)) continue;
    const tag = m[1].toLowerCase();
    let content: string;
    if (VOID_TAGS.has(tag) || m[0].endsWith('/>')) content = m[0];
    else {
      // Walk to the closing tag that matches this one, counting nested tags of the same name.
      const scan = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'gi');
      scan.lastIndex = m.index + m[0].length;
      let depth = 1;
      let end = html.length;
      for (let t = scan.exec(html); t; t = scan.exec(html)) {
        depth += t[1] ? -1 : 1;
        if (depth === 0) {
          end = t.index;
          break;
        }
      }
      content = html.slice(m.index + m[0].length, end).trim();
    }
    out.push({ name, content: content.slice(0, CONTENT_LIMIT) });
  }
  return out;
}

export const ELEMENTS_MESSAGES = {
  urlRequired: 'Landing page URL is required.',
  urlNotLanding: "This URL is not one of the campaign's landing pages.",
  unreadable: 'The landing page could not be read',
  notPublic: 'its address is not a public http or https address',
} as const;

const FETCH_TIMEOUT_MS = 5000;
const MAX_REDIRECTS = 3;
const PAGE_LIMIT = 1_000_000;

/**
 * Reads a landing page's HTML through the outbound guard (docs/decisions/122): an answer or the
 * reason there is none. A page on a private, loopback or metadata address is never called.
 */
async function readLandingPage(
  url: string,
  policy: OutboundPolicy,
  fetcher?: FetchLike,
): Promise<{ html: string } | { error: string }> {
  const answer = await outboundFetch(url, policy, {
    fetcher,
    headers: { accept: 'text/html', 'user-agent': 'EdgeTracker-Aggregator/1.0' },
    timeoutMs: FETCH_TIMEOUT_MS,
    maxRedirects: MAX_REDIRECTS,
    maxBytes: PAGE_LIMIT,
  });
  if (answer.ok)
    return answer.status >= 200 && answer.status < 300
      ? { html: answer.text }
      : { error: `${ELEMENTS_MESSAGES.unreadable} (HTTP ${answer.status}).` };
  switch (answer.kind) {
    case 'refused':
      return { error: `${ELEMENTS_MESSAGES.unreadable}: ${ELEMENTS_MESSAGES.notPublic} (${answer.reason}).` };
    case 'timeout':
      return {
        error: `${ELEMENTS_MESSAGES.unreadable}: it did not answer within ${FETCH_TIMEOUT_MS / 1000} seconds.`,
      };
    case 'too_many_redirects':
      return { error: `${ELEMENTS_MESSAGES.unreadable}: it redirects more than ${MAX_REDIRECTS} times.` };
    default:
      return { error: `${ELEMENTS_MESSAGES.unreadable}.` };
  }
}

/**
 * get-landing-elements-data: the named elements of one of the campaign's landing pages with their
 * content and class (variations), and the aggregator's tests of each element in the range
 * (test_datas). `url` must be the URL of one of the campaign's landing pages (checked by the route).
 */
export async function landingElementsData(
  env: Pick<Env, 'DB' | 'DNS_RESOLVER_URL' | 'ENVIRONMENT' | 'OUTBOUND_ALLOW_HOSTS'>,
  c: StatsCampaign,
  url: string,
  bounds: DayBounds,
  separator: string,
) {
  const page = await readLandingPage(url, outboundPolicy(env));
  const variations =
    'html' in page
      ? extractElements(page.html).map((e) => ({ ...e, tagType: classifyElement(e.content) }))
      : [];
  const { positions } = await aggregateResult(env, c, bounds, separator);
  const byName = new Map(positions.flat().map((e) => [e.page, e]));
  return {
    url,
    variations,
    test_datas: variations
      .filter((v) => byName.has(v.name))
      .map((v) => ({ name: v.name, data: byName.get(v.name)?.test_data ?? [] })),
    error: 'error' in page ? page.error : null,
  };
}
