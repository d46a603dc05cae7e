import { describe, expect, it } from 'vitest';
import { AFFILIATE_NETWORKS } from '../../schema/campaigns';
import { affiliateNetworkFields, NETWORK_OPTIONS } from '../../web/src/routes/basic-info/campaign-form';

// Spec 2 §4: choosing an affiliate network rewrites the token parameter name and the keyword and
// target parameters: clickbank gives tid, mediamaven and maxweb give subid, sellhealth gives t1,
// oasisads gives s1.

const SPEC: Record<string, string> = {
  clickbank: 'tid',
  mediamaven: 'subid',
  maxweb: 'subid',
  sellhealth: 't1',
  oasisads: 's1',
};

describe('affiliate network parameters', () => {
  it.each(Object.entries(SPEC))(
    '%s sets the URL token, keyword and both target parameters to %s',
    (network, parameter) => {
      expect(affiliateNetworkFields(network)).toEqual({
        affiliate_network: network,
        urlAppendToken: parameter,
        keywordParameter: parameter,
        lpTargetParam: parameter,
        opTargetParam: parameter,
      });
    },
  );

  it('covers exactly the networks the spec lists, and the editor offers each of them', () => {
    expect([...AFFILIATE_NETWORKS].sort()).toEqual(Object.keys(SPEC).sort());
    expect(NETWORK_OPTIONS.map((o) => o.value).sort()).toEqual(['', ...Object.keys(SPEC)].sort());
  });

  it('None clears the offer click id parameter and leaves the campaign link parameters alone', () => {
    expect(affiliateNetworkFields('')).toEqual({ affiliate_network: '', opTargetParam: '' });
  });
});
