import { TARGET_PLACEHOLDER } from '../../../schema/tools-api';

// The value of a campaign link's target (ad id) parameter, one rule for the editor's Campaign URL
// and the link builder (docs/decisions/130-campaign-link-values.md).

/** The macro each source fills with the ad or creative id: the campaign's target parameter. */
export const TARGET_MACROS: Record<string, string> = {
  facebook: '{{ad.id}}',
  taboola: '{campaign_item_id}',
  mediago: `\${AD_ID}`,
  tiktok: '__CID__',
  liveintent: `\${CREATIVE_ID}`,
  google: '{creative}',
  microsoft: '{AdId}',
  outbrain: '{{ad_id}}',
  mgid: '{teaser_id}',
  revcontent: '{content_id}',
  native: '{ad_id}',
};

/** Sources whose default URL token is not the ad id (spec 2 §4: MediaGo sets a campaign-id token). */
const PARAMETER_MACROS: Record<string, Record<string, string>> = {
  mediago: { campaign_id: `\${CAMPAIGN_ID}` },
};

/**
 * What the target parameter carries: `own` (the macro the link builder's token templates give that
 * very parameter), else the source's macro for its default token, else its ad-id macro, else the
 * placeholder: never an empty value (issue 27).
 */
export function targetValue(source: string, parameter: string, own = ''): string {
  return own || PARAMETER_MACROS[source]?.[parameter] || TARGET_MACROS[source] || TARGET_PLACEHOLDER;
}

/** URL-encodes a value but leaves macro punctuation ({}, $) for the traffic source to find. */
export function encodeMacroValue(value: string): string {
  return encodeURIComponent(value).replace(/%7B/gi, '{').replace(/%7D/gi, '}').replace(/%24/g, '$');
}
