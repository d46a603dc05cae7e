import { describe, expect, it } from 'vitest';
import { type PageNumbers, pagesToDeactivate } from '../../worker/services/pages/optimizer-rules';

const p = (id: number, visits: number, conversions: number, active = true, lpClicks = 0): PageNumbers => ({
  id,
  name: `LP ${id}`,
  active,
  visits,
  lpClicks,
  conversions,
  revenue: conversions * 1000,
  spend: visits * 10,
});

const settings = { metric: 'cr' as const, threshold: 2, minVisits: 100, goal: 'conversion_rate' as const };

describe('auto-optimiser decisions', () => {
  it('switches off a page below the threshold once it has the minimum visits', () => {
    const d = pagesToDeactivate([p(1, 200, 10), p(2, 200, 2), p(3, 50, 0)], settings);
    expect(d.map((x) => x.id)).toEqual([2]);
    expect(d[0].reason).toBe('cr 1 below threshold 2');
  });

  it('never switches off the last active page', () => {
    const d = pagesToDeactivate([p(1, 500, 1), p(2, 500, 2), p(3, 500, 50, false)], settings);
    expect(d.map((x) => x.id)).toEqual([1]);
    expect(pagesToDeactivate([p(1, 500, 0)], settings)).toEqual([]);
  });

  it('switches off a page that loses significantly even above the threshold', () => {
    // 30/1000 = 3 % against 60/1000 = 6 %: z = -3.24, p = 0.001.
    const d = pagesToDeactivate([p(1, 1000, 30), p(2, 1000, 60)], settings);
    expect(d.map((x) => [x.id, x.reason])).toEqual([[1, 'loses significantly to LP 2 on conversion rate']]);
  });

  it('keeps pages whose difference is not significant', () => {
    expect(pagesToDeactivate([p(1, 1000, 50), p(2, 1000, 55)], settings)).toEqual([]);
  });

  it('uses LP CTR as the goal when asked', () => {
    const d = pagesToDeactivate([p(1, 1000, 50, true, 100), p(2, 1000, 50, true, 200)], {
      ...settings,
      threshold: 0,
      goal: 'lp_ctr',
    });
    expect(d.map((x) => x.id)).toEqual([1]);
  });

  it('never judges a page without spend on ROI, earning or not', () => {
    const roi = { ...settings, metric: 'roi' as const, threshold: 10, minVisits: 10 };
    const free = { ...p(1, 100, 0), revenue: 0, spend: 0 };
    const gift = { ...p(2, 100, 0), revenue: 5_000_000, spend: 0 };
    const losing = { ...p(3, 100, 0), revenue: 0, spend: 5_000_000 };
    const earning = { ...p(4, 100, 0), revenue: 60_000_000, spend: 5_000_000 };
    const d = pagesToDeactivate([free, gift, losing, earning], roi);
    expect(d.map((x) => [x.id, x.reason])).toEqual([[3, 'roi -100 below threshold 10']]);
  });

  it('compares EPC in dollars, as the editor takes the threshold', () => {
    const epc = { ...settings, metric: 'epc' as const, threshold: 0.5, minVisits: 10 };
    const rich = { ...p(1, 100, 0), revenue: 80_000_000 };
    const poor = { ...p(2, 100, 0), revenue: 20_000_000 };
    expect(pagesToDeactivate([rich, poor], epc).map((x) => [x.id, x.reason])).toEqual([
      [2, 'epc 0.2 below threshold 0.5'],
    ]);
  });
});
