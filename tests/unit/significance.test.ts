import { describe, expect, it } from 'vitest';
import { normalCdf, twoProportionTest } from '../../worker/services/statistics/significance';

describe('normal CDF', () => {
  it('matches the standard table', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 4);
    expect(normalCdf(-1.96)).toBeCloseTo(0.025, 4);
    expect(normalCdf(1)).toBeCloseTo(0.841345, 5);
    expect(normalCdf(3)).toBeCloseTo(0.99865, 5);
  });
});

describe('two-proportion z-test', () => {
  it('reproduces the textbook example: 100/1000 against 130/1000 is significant at 95 %', () => {
    // Pooled p = 0.115, SE = sqrt(0.115 * 0.885 * 2/1000) = 0.014267, z = -0.03 / SE = -2.1027, p = 0.0355.
    const r = twoProportionTest({ successes: 100, trials: 1000 }, { successes: 130, trials: 1000 });
    expect(r.z).toBeCloseTo(-2.1027, 3);
    expect(r.pValue).toBeCloseTo(0.0355, 3);
    expect(r.isSignificant).toBe(true);
    expect(r.bestVariant).toBe(2);
  });

  it('is not significant for 100/1000 against 110/1000 (z = -0.729, p = 0.466)', () => {
    const r = twoProportionTest({ successes: 100, trials: 1000 }, { successes: 110, trials: 1000 });
    expect(r.z).toBeCloseTo(-0.7294, 3);
    expect(r.pValue).toBeCloseTo(0.467, 2);
    expect(r.isSignificant).toBe(false);
    expect(r.bestVariant).toBe(2);
  });

  it('needs the minimum sample on both sides', () => {
    const r = twoProportionTest({ successes: 9, trials: 9 }, { successes: 0, trials: 9 }, { minTrials: 10 });
    expect(r.isSignificant).toBe(false);
    expect(r.bestVariant).toBe(1);
  });

  it('handles empty and identical variants without NaN', () => {
    const empty = twoProportionTest({ successes: 0, trials: 0 }, { successes: 0, trials: 0 });
    expect(empty).toEqual({ z: 0, pValue: 1, isSignificant: false, bestVariant: 0 });
    const same = twoProportionTest({ successes: 50, trials: 500 }, { successes: 50, trials: 500 });
    expect(same.pValue).toBe(1);
    expect(same.bestVariant).toBe(0);
  });
});
