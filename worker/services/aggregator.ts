import { cpa, cr, lpCtr } from '../../schema/metrics';

// The landing-element aggregator (spec 3): landing pages named like 'headline3_image1_cta2'
// are grouped by the element at each position of their name, so a marketer sees which
// headline or image wins across all pages that use it.

export type LandingStat = {
  id: number;
  name: string;
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

export type ElementRow = {
  position: number;
  page: string;
  landingIds: number[];
  visits: number;
  lpClicks: number;
  lpCTR: number;
  conversions: number;
  cr: number;
  cpa: number;
  adSpent: number;
  revenue: number;
  netProfit: number;
  /** 1 when any of its non-deleted pages is active (the union, capped 0..1). */
  status: 0 | 1;
};

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
