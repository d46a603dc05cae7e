import { describe, expect, it } from 'vitest';
import {
  adClickBase,
  adCtr,
  cpa,
  cpc,
  cplpc,
  cr,
  deriveMetrics,
  epc,
  graphValue,
  lpCtr,
  netProfit,
  roi,
  round,
  safeDiv,
} from '../../schema/metrics';

describe('metric formulas', () => {
  it('gives 0 for a zero denominator, never NaN or Infinity', () => {
    expect(safeDiv(5, 0)).toBe(0);
    expect(adCtr(3, 0)).toBe(0);
    expect(roi(500, 0)).toBe(0);
    expect(cpa(1000, 0)).toBe(0);
    expect(cpc(1000, 0)).toBe(0);
    expect(epc(1000, 0)).toBe(0);
    expect(cplpc(1000, 0)).toBe(0);
    expect(lpCtr(1, 0)).toBe(0);
  });

  it('rounds half away from zero without float drift', () => {
    expect(round(1.005, 2)).toBe(1.01);
    expect(round(-1.005, 2)).toBe(-1.01);
    expect(round(2.675, 2)).toBe(2.68);
    expect(round(33.333333, 1)).toBe(33.3);
  });

  it('computes the spec definitions', () => {
    expect(adCtr(7, 300)).toBe(2.33); // 2.333..%
    expect(lpCtr(1, 3)).toBe(33.3); // 1 decimal on screens
    expect(lpCtr(1, 3, 2)).toBe(33.33);
    expect(cr(10, 200)).toBe(5);
    expect(netProfit(15_000, 10_000)).toBe(5_000);
    expect(roi(15_000, 10_000)).toBe(50);
    expect(roi(5_000, 10_000)).toBe(-50);
    expect(cpa(10_000, 4)).toBe(2_500);
    expect(cpc(10_000, 200)).toBe(50);
    expect(epc(15_000, 200)).toBe(75);
    expect(cplpc(10_000, 40)).toBe(250);
  });

  it('derives every metric from the base counts, and the graph series agree', () => {
    const base = {
      impressions: 1000,
      adClicks: 25,
      visits: 200,
      lpClicks: 50,
      conversions: 10,
      revenue: 40_000,
      spend: 30_000,
    };
    expect(deriveMetrics(base)).toEqual({
      adCtr: 2.5,
      lpCtr: 25,
      cr: 5,
      net: 10_000,
      roi: 33.33,
      cpa: 3_000,
      cpc: 150,
      epc: 200,
      cplpc: 600,
    });
    expect(graphValue('ad_spent', base)).toBe(30_000);
    expect(graphValue('net_profit', base)).toBe(10_000);
    expect(graphValue('roi', base)).toBe(33.33);
    expect(graphValue('ad_ctr', base)).toBe(2.5);
    expect(graphValue('revenue', base)).toBe(40_000);
    expect(graphValue('cpc', base)).toBe(150);
    expect(graphValue('cplpc', base)).toBe(600);
    expect(graphValue('cpa', base)).toBe(3_000);
    expect(graphValue('epc', base)).toBe(200);
  });
});

describe('the clicks an ad’s CPC and CTR divide by (decision 158)', () => {
  it('takes the platform’s clicks where the import brought some', () => {
    // Issue 25: $12.50 of imported spend over 50 platform clicks, no tracked visit yet.
    const base = adClickBase(50, 0);
    expect(base).toEqual({ clicks: 50, from: 'platform' });
    expect(cpc(12_500_000, base.clicks)).toBe(250_000);
    expect(adCtr(base.clicks, 2_000)).toBe(2.5);
  });

  it('falls back to the tracked visits, and says so, where the platform reported no clicks', () => {
    const base = adClickBase(0, 40);
    expect(base).toEqual({ clicks: 40, from: 'visits' });
    expect(cpc(10_000_000, base.clicks)).toBe(250_000);
    expect(adCtr(base.clicks, 1_000)).toBe(4);
    expect(adClickBase(0, 0)).toEqual({ clicks: 0, from: 'visits' });
  });
});
