// The basic tab's form model: defaults, the detail -> form -> payload mapping, and the rules of
// spec 2 §4 that depend on nothing but the form (default name, URL token, source effects).
import { AFFILIATE_NETWORK_PARAMS, type CampaignType } from '../../../../schema/campaigns';
import type { LiCampaignEntry, LiLineItemEntry } from '../../../../schema/liveintent-lists';
import type { OptimizationSettings } from '../../../../schema/pages-operations-api';
import type { CampaignDetail, ExtraToken } from './types';

/** The basic tab's form: its fields' element ids are `basic-<field>`, which error messages focus. */
export const BASIC_FORM = 'basic';
export const basicId = (name: string) => `${BASIC_FORM}-${name}`;

export type CampaignForm = {
  name: string;
  dir: number | null;
  campaignType: CampaignType;
  active: number;
  trafficSource: string;
  offerPromotion: string;
  affiliate_network: string;
  urlAppendToken: string;
  keywordParameter: string;
  custom_url: string;
  redirectType: string;
  cpc: string;
  postback_enabled: number;
  postback: string;
  lpTargetParam: string;
  opTargetParam: string;
  customConversionGoal: string;
  li_custom_name_enabled: number;
  li_conversion_image_pixel: string;
  li_conversion_lp: string;
  li_conversion_atc1: string;
  li_conversion_atc2: string;
  rotator_base_url: string;
  rotator_requires_signed_contract: number;
  custom_url_result: string;
  metainfo: Record<string, unknown>;
  extratokens: ExtraToken[];
  // The LiveIntent lists (decision 092), saved with the campaign.
  liCampaigns: LiCampaignEntry[];
  liLineItems: LiLineItemEntry[];
  // With the landing tab's optimisation settings: saved by their own verbs there, carried so that a
  // save of the basic tab keeps them.
} & OptimizationSettings;

export const CAMPAIGN_TYPE_OPTIONS: { value: CampaignType; label: string; hint: string }[] = [
  { value: 'direct_link', label: 'Direct link', hint: 'Visitors go straight to an offer page.' },
  {
    value: 'landing_page',
    label: 'Landing page',
    hint: 'Visitors see a landing page, then click through to an offer.',
  },
  { value: 'rotator', label: 'Rotator', hint: 'Offers of several participants share the traffic.' },
  {
    value: 'multiple_path_type',
    label: 'Multiple paths',
    hint: 'Traffic is split across paths, each with its own landing pages and offers.',
  },
  {
    value: 'multiple_option_type',
    label: 'Multiple options',
    hint: 'A landing page offers several options, each leading to its own offers.',
  },
];

export const TRAFFIC_SOURCE_OPTIONS = [
  { value: '', label: 'None' },
  { value: 'facebook', label: 'Facebook' },
  { value: 'tiktok', label: 'TikTok' },
  { value: 'taboola', label: 'Taboola' },
  { value: 'mediago', label: 'MediaGo' },
  { value: 'liveintent', label: 'LiveIntent' },
  { value: 'blaze', label: 'Blaze' },
  { value: 'trrcpc', label: 'CPC email network (TRR CPC)' },
  { value: 'crane', label: 'Apple News (Crane)' },
  { value: 'trrde', label: 'TRR DE' },
  { value: 'apple-news-feed', label: 'Apple News feed' },
  { value: 'cdsp', label: 'CDSP' },
  { value: 'jeeng', label: 'Jeeng' },
];

export const PROMOTION_OPTIONS = [
  { value: 'other', label: 'Other' },
  { value: 'affiliate-mentorship', label: 'Affiliate mentorship' },
];

export const NETWORK_OPTIONS = [
  { value: '', label: 'None' },
  { value: 'clickbank', label: 'ClickBank' },
  { value: 'mediamaven', label: 'MediaMaven' },
  { value: 'maxweb', label: 'MaxWeb' },
  { value: 'sellhealth', label: 'SellHealth' },
  { value: 'oasisads', label: 'OasisAds' },
];

export const REDIRECT_OPTIONS = [
  { value: '302', label: '302 redirect' },
  { value: 'meta', label: 'Meta refresh' },
  { value: 'double_meta', label: 'Double meta refresh (hides the referrer)' },
];

export const labelOf = (options: readonly { value: string; label: string }[], value: string) =>
  options.find((o) => o.value === value)?.label ?? value;

/** 'New Campaign #' plus 4 random letters and digits (spec 2 §4). */
function defaultCampaignName(random: () => number = Math.random): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += chars[Math.floor(random() * chars.length)];
  return `New Campaign #${suffix}`;
}

const DEFAULT_URL_TOKEN = 'tid';

/**
 * The URL token of a new campaign, built from its name (spec 2 §4): uppercase, non-alphanumerics
 * stripped, spaces turned to underscores, prefixed with the keyword parameter. A name with
 * nothing left gives the default, tid. Capped at 64 characters, the parameter limit.
 */
export function urlTokenFromName(name: string, keywordParameter: string): string {
  const body = name
    .toUpperCase()
    .replace(/[^A-Z0-9 ]+/g, '')
    .trim()
    .replace(/\s+/g, '_');
  if (!body) return DEFAULT_URL_TOKEN;
  const prefix = keywordParameter.replace(/[^A-Za-z0-9_.-]+/g, '');
  return (prefix ? `${prefix}_${body}` : body).slice(0, 64);
}

/** The URL token the source's defaults set (spec 2 §4). */
export const SOURCE_URL_TOKENS: Record<string, { token: string; macro: string }> = {
  facebook: { token: 'ad_id', macro: '{{ad.id}}' },
  taboola: { token: 'campaign_item_id', macro: '{campaign_item_id}' },
  mediago: { token: 'campaign_id', macro: `\${CAMPAIGN_ID}` },
};

/** The form fields that choosing an affiliate network rewrites. */
export type NetworkFields = Pick<
  CampaignForm,
  'affiliate_network' | 'urlAppendToken' | 'keywordParameter' | 'lpTargetParam' | 'opTargetParam'
>;

/**
 * What choosing an affiliate network does to the form (spec 2 §4): the network's parameter
 * (clickbank tid, mediamaven and maxweb subid, sellhealth t1, oasisads s1) becomes the URL token,
 * the keyword parameter and both target (click id) parameters, landing page and offer. None
 * clears only the offer's click id parameter, which is the network's; the campaign link's
 * parameters stay as they are, since ads already carry them.
 */
export function affiliateNetworkFields(network: string): Partial<NetworkFields> {
  const parameter = AFFILIATE_NETWORK_PARAMS[network as keyof typeof AFFILIATE_NETWORK_PARAMS];
  if (!parameter) return { affiliate_network: network, opTargetParam: '' };
  return {
    affiliate_network: network,
    urlAppendToken: parameter,
    keywordParameter: parameter,
    lpTargetParam: parameter,
    opTargetParam: parameter,
  };
}

export function newCampaignForm(dir: number | null): CampaignForm {
  const name = defaultCampaignName();
  return {
    name,
    dir,
    campaignType: 'direct_link',
    active: 1,
    trafficSource: '',
    offerPromotion: 'other',
    affiliate_network: '',
    urlAppendToken: urlTokenFromName(name, 'keyword'),
    keywordParameter: 'keyword',
    custom_url: '',
    redirectType: '302',
    cpc: '',
    postback_enabled: 0,
    postback: '',
    lpTargetParam: '',
    opTargetParam: '',
    customConversionGoal: 'purchase',
    li_custom_name_enabled: 0,
    li_conversion_image_pixel: '',
    li_conversion_lp: '',
    li_conversion_atc1: '',
    li_conversion_atc2: '',
    rotator_base_url: '',
    rotator_requires_signed_contract: 0,
    custom_url_result: '',
    metainfo: {},
    extratokens: [],
    liCampaigns: [],
    liLineItems: [],
    landing_pages_auto_optimized: 0,
    enable_lp_test_reporting: 0,
    landing_pages_optimization_goal: '',
    landing_pages_optimization_metric: '',
    landing_pages_optimization_threshold: 0,
    landing_pages_optimization_min_visits: 10,
  };
}

export function formFromDetail(d: CampaignDetail): CampaignForm {
  return {
    name: d.name,
    dir: d.dir || null,
    campaignType: d.campaignType,
    active: d.active,
    trafficSource: d.trafficSource,
    offerPromotion: d.offerPromotion || 'other',
    affiliate_network: d.affiliate_network,
    urlAppendToken: d.urlAppendToken,
    keywordParameter: d.keywordParameter,
    custom_url: d.custom_url,
    redirectType: d.redirectType || '302',
    cpc: d.cpc ? String(d.cpc) : '',
    postback_enabled: d.postback_enabled,
    postback: d.postback,
    lpTargetParam: d.lpTargetParam,
    opTargetParam: d.opTargetParam,
    customConversionGoal: d.customConversionGoal,
    li_custom_name_enabled: d.li_custom_name_enabled,
    li_conversion_image_pixel: d.li_conversion_image_pixel,
    li_conversion_lp: d.li_conversion_lp,
    li_conversion_atc1: d.li_conversion_atc1,
    li_conversion_atc2: d.li_conversion_atc2,
    rotator_base_url: d.rotator_base_url,
    rotator_requires_signed_contract: d.rotator_requires_signed_contract,
    custom_url_result: d.custom_url_result,
    metainfo: d.metainfo ?? {},
    extratokens: d.extratokens.map(cleanToken),
    liCampaigns: d.liCampaigns.map((c) => ({
      liCampaignId: c.liCampaignId,
      liCampaignName: c.liCampaignName,
      deleted: 0,
    })),
    liLineItems: d.liLineItems.map((l) => ({
      liLineItemId: l.liLineItemId,
      liLineItemName: l.liLineItemName,
      liDailyBudget: l.liDailyBudget.toFixed(2),
      liCampaignId: l.liCampaignId,
      status: l.status ? 1 : 0,
      deleted: 0,
    })),
    landing_pages_auto_optimized: d.landing_pages_auto_optimized,
    enable_lp_test_reporting: d.enable_lp_test_reporting,
    landing_pages_optimization_goal: d.landing_pages_optimization_goal,
    landing_pages_optimization_metric: d.landing_pages_optimization_metric,
    landing_pages_optimization_threshold: d.landing_pages_optimization_threshold,
    landing_pages_optimization_min_visits: d.landing_pages_optimization_min_visits,
  };
}

/** The fields of a token the form edits (the server's answer carries more). */
export function cleanToken(t: ExtraToken): ExtraToken {
  return {
    extraTokenId: t.extraTokenId ?? null,
    token_name: t.token_name,
    parameter: t.parameter,
    url_append: t.url_append,
    landing_page_enabled: t.landing_page_enabled,
    offer_page_enabled: t.offer_page_enabled,
    deleted: t.deleted ?? 0,
  };
}

/** The add-campaign / edit-campaign body. */
export function payloadOf(form: CampaignForm, campaignId: number | null): Record<string, unknown> {
  const { extratokens, ...rest } = form;
  return {
    ...(campaignId ? { campaignId } : {}),
    ...rest,
    extratokens: extratokens.map(cleanToken),
  };
}

export const snapshotOf = (form: CampaignForm) => JSON.stringify(payloadOf(form, null));
