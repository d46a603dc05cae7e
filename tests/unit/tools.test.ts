import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../worker/services/settings/settings';
import { encodeMacroValue } from '../../worker/services/tools/link-builder';
import { parseCampaignLink } from '../../worker/services/tools/link-test';
import { chiSquareCritical, tolerancePct } from '../../worker/services/tools/split';

// The small rules of the Tools screen: the split's tolerance and chi-square bound, reading a
// pasted campaign link, and keeping macros readable in a built link.

describe('split tolerance and chi-square bound', () => {
  it('states ±4 points at 1,000 picks, scaled by 1/√n', () => {
    expect(tolerancePct(1000)).toBe(4);
    expect(tolerancePct(250)).toBe(8);
    expect(tolerancePct(4000)).toBe(2);
    expect(tolerancePct(0)).toBe(0);
  });

  it('answers the p = 0.001 chi-square bounds of the tables', () => {
    expect(chiSquareCritical(1)).toBe(10.828);
    expect(chiSquareCritical(2)).toBe(13.816);
    expect(chiSquareCritical(10)).toBe(29.588);
    expect(chiSquareCritical(30)).toBe(59.703);
    // Wilson–Hilferty beyond the table: within 0.5% of the published 73.402 at 40 degrees.
    expect(Math.abs(chiSquareCritical(40) / 73.402 - 1)).toBeLessThan(0.005);
    expect(chiSquareCritical(0)).toBe(0);
  });
});

describe('a pasted campaign link', () => {
  const settings = { ...DEFAULT_SETTINGS, route_main: 'go' } as Settings;
  it('reads the campaign id from the path or the campaign parameter, and keeps the query', () => {
    const parsed = parseCampaignLink('https://t.example.com/go/12?tid=ad-1&sub1=x', settings);
    expect(parsed?.campaignId).toBe(12);
    expect(parsed?.query.get('sub1')).toBe('x');
    expect(parseCampaignLink('t.example.com/go?campaign=7', settings)?.campaignId).toBe(7);
    expect(parseCampaignLink('https://t.example.com/go/', settings)).toBeNull();
    expect(parseCampaignLink('https://t.example.com/gone/12', settings)).toBeNull();
    expect(parseCampaignLink('https://t.example.com/go/0', settings)).toBeNull();
    expect(parseCampaignLink('not a url at all', settings)).toBeNull();
    expect(
      parseCampaignLink('https://t.example.com/r/5', { ...settings, route_main: '/r/' })?.campaignId,
    ).toBe(5);
  });
});

describe('macro values in a built link', () => {
  it('encodes what breaks a URL but leaves the macros for the source to find', () => {
    expect(encodeMacroValue('{{ad.id}}')).toBe('{{ad.id}}');
    expect(encodeMacroValue(`\${CAMPAIGN_ID}`)).toBe(`\${CAMPAIGN_ID}`);
    expect(encodeMacroValue('a b&c=d#e')).toBe('a%20b%26c%3Dd%23e');
    expect(encodeMacroValue('__CID__')).toBe('__CID__');
  });
});
