import { describe, expect, it } from 'vitest';
import { aggregateElements, type LandingStat } from '../../worker/services/aggregator';

const page = (
  id: number,
  name: string,
  visits: number,
  lpClicks: number,
  conversions: number,
  active = true,
  deleted = false,
): LandingStat => ({
  id,
  name,
  active,
  deleted,
  visits,
  lpClicks,
  conversions,
  spend: visits * 10,
  revenue: conversions * 500,
});

describe('landing element aggregator', () => {
  it('groups pages by the element at each position of their names and sums their numbers', () => {
    const rows = aggregateElements([
      page(1, 'h1_imgA', 100, 40, 4),
      page(2, 'h1_imgB', 50, 10, 1, false),
      page(3, 'h2_imgA', 200, 20, 2, false),
      page(4, 'single', 999, 999, 99),
    ]);
    expect(rows).toHaveLength(2);
    const [headlines, images] = rows;
    expect(headlines.map((r) => [r.page, r.visits, r.lpClicks, r.conversions, r.status])).toEqual([
      ['h2', 200, 20, 2, 0],
      ['h1', 150, 50, 5, 1],
    ]);
    const h1 = headlines[1];
    expect(h1.landingIds).toEqual([1, 2]);
    expect(h1.lpCTR).toBe(33.33);
    expect(h1.cr).toBe(3.33);
    expect(h1.adSpent).toBe(1500);
    expect(h1.revenue).toBe(2500);
    expect(h1.netProfit).toBe(1000);
    expect(h1.cpa).toBe(300);
    expect(images.map((r) => [r.page, r.visits, r.status])).toEqual([
      ['imgA', 300, 1],
      ['imgB', 50, 0],
    ]);
  });

  it('ignores deleted pages for the status and honours another separator', () => {
    const rows = aggregateElements(
      [page(1, 'a-b', 10, 1, 0, true, true), page(2, 'a-c', 10, 1, 0, false)],
      '-',
    );
    expect(rows[0]).toHaveLength(1);
    expect(rows[0][0]).toMatchObject({ page: 'a', visits: 20, status: 0 });
  });
});
