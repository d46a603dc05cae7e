// Answer shapes of the campaign editor's calls (the `data` of each envelope; spec 2 §3, §7).
import type { CampaignType } from '../../../../schema/campaigns';

export type Agent = { id: number; agent_name: string };

export type Landing = {
  landingPageId: number;
  campaignId: number;
  name: string;
  url: string;
  share: number;
  active: number;
  pathId: number | null;
  path: string;
  agents: string;
  deleted: number;
};

export type Offer = {
  offerPageId: number;
  campaignId: number;
  name: string;
  url: string;
  share: number;
  payout: number;
  active: number;
  pathId: number | null;
  path: string;
  optionId: number | null;
  option: string;
  postback: string;
  agents: string;
  liConversionName: string;
  rotator_participant_email: string;
  deleted: number;
};

export type PathItem = {
  pathId: number;
  campaignId: number;
  name: string;
  share: number;
  active: number;
  agents: string;
  deleted: number;
};

export type OptionItem = {
  optionId: number;
  campaignId: number;
  name: string;
  active: number;
  deleted: number;
};

export type ExtraToken = {
  extraTokenId?: number | null;
  slot?: number;
  token_name: string;
  parameter: string;
  url_append: string;
  landing_page_enabled: number;
  offer_page_enabled: number;
  deleted: number;
};

export type LinkPixel = {
  campaignURL: string;
  lpofferlink_simple: string;
  lpofferlink_options: { optionId: number; name: string; url: string }[];
  postback: string;
  postback_event: string;
  pixel: string;
  pixel_url: string;
  iframe: string;
  script: string;
  direct_tracking: string;
};

export type CampaignDetail = {
  campaignId: number;
  name: string;
  dir: number;
  urlAppendToken: string;
  keywordParameter: string;
  custom_url: string;
  rotator_base_url: string;
  rotator_requires_signed_contract: number;
  custom_url_result: string;
  offerPromotion: string;
  trafficSource: string;
  affiliate_network: string;
  postback_enabled: number;
  postback: string;
  active: number;
  campaignType: CampaignType;
  lpTargetParam: string;
  opTargetParam: string;
  cpc: number;
  li_conversion_image_pixel: string;
  li_conversion_lp: string;
  li_conversion_atc1: string;
  li_conversion_atc2: string;
  customConversionGoal: string;
  li_custom_name_enabled: number;
  landing_pages_auto_optimized: number;
  enable_lp_test_reporting: number;
  landing_pages_optimization_goal: string;
  landing_pages_optimization_metric: string;
  landing_pages_optimization_threshold: number;
  landing_pages_optimization_min_visits: number;
  redirectType: string;
  metainfo: Record<string, unknown>;
  deleted: number;
  currentDomain: string;
  agents: Agent[];
  linkpixel: LinkPixel;
  extratokens: ExtraToken[];
};

export type CampaignData = {
  campaignId: number;
  name: string;
  urlAppendToken: string;
  keywordParameter: string;
  campaignType: CampaignType;
  active: number;
};
export type CampaignSaveAnswer = { message: string; campaign: { campaignData: CampaignData } };

export type ListAnswer<T> = { result: T[]; message?: string };
export type OptimizationAnswer = {
  message: string;
  result: Landing[];
  campaign: Pick<
    CampaignDetail,
    | 'landing_pages_auto_optimized'
    | 'enable_lp_test_reporting'
    | 'landing_pages_optimization_goal'
    | 'landing_pages_optimization_metric'
    | 'landing_pages_optimization_threshold'
    | 'landing_pages_optimization_min_visits'
  >;
};
export type ExportAnswer<T> = { message: string; downloadLink: string; result: T[] };
export type UploadAnswer<T> = { message: string; uploaded: number; result: T[] };
export type TokenTemplate = {
  key: string;
  label: string;
  tokens: { token_name: string; parameter: string; url_append: string }[];
};
export type TemplateAnswer = { message: string; result: ExtraToken[]; added?: number; removed?: number };
