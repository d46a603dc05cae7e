import { fromMicros } from '../../../schema/money';
import type { CampaignRow, LandingRow, OfferRow, OptionRow, PathRow, TokenRow } from './access';

// The answer shapes of a campaign and its items (spec 2 §3 and §7).

function parseMetainfo(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

export function campaignAnswer(row: CampaignRow) {
  return {
    campaignId: row.id,
    name: row.name,
    is_dir: row.isDir,
    dir: row.parentId ?? 0,
    urlAppendToken: row.urlAppendToken,
    keywordParameter: row.keywordParameter,
    custom_url: row.customUrl,
    rotator_base_url: row.rotatorBaseUrl,
    rotator_requires_signed_contract: row.rotatorRequiresSignedContract,
    custom_url_result: row.customUrlResult,
    offerPromotion: row.offerPromotion,
    trafficSource: row.trafficSource,
    affiliate_network: row.affiliateNetwork,
    postback_enabled: row.postbackEnabled,
    postback: row.postback,
    active: row.active,
    campaignType: row.campaignType,
    lpTargetParam: row.lpTargetParam,
    opTargetParam: row.opTargetParam,
    cpc: fromMicros(row.cpcMicros),
    li_conversion_image_pixel: row.liConversionImagePixel,
    li_conversion_lp: row.liConversionLp,
    li_conversion_atc1: row.liConversionAtc1,
    li_conversion_atc2: row.liConversionAtc2,
    customConversionGoal: row.customConversionGoal,
    li_custom_name_enabled: row.liCustomNameEnabled,
    landing_pages_auto_optimized: row.landingPagesAutoOptimized,
    enable_lp_test_reporting: row.enableLpTestReporting,
    landing_pages_optimization_goal: row.landingPagesOptimizationGoal,
    landing_pages_optimization_metric: row.landingPagesOptimizationMetric,
    landing_pages_optimization_threshold: row.landingPagesOptimizationThreshold,
    landing_pages_optimization_min_visits: row.landingPagesOptimizationMinVisits,
    redirectType: row.redirectType,
    metainfo: parseMetainfo(row.metainfo),
    deleted: row.deleted,
    userId: row.createdBy,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The short form add-campaign answers as data.campaign.campaignData (spec 2 §7). */
export function campaignData(row: CampaignRow) {
  return {
    campaignId: row.id,
    name: row.name,
    urlAppendToken: row.urlAppendToken,
    keywordParameter: row.keywordParameter,
    campaignType: row.campaignType,
    active: row.active,
    lpTargetParam: row.lpTargetParam,
    opTargetParam: row.opTargetParam,
  };
}

export function landingAnswer(row: LandingRow, pathNames: Map<number, string>) {
  return {
    landingPageId: row.id,
    campaignId: row.campaignId,
    name: row.name,
    url: row.url,
    share: row.share,
    active: row.active,
    pathId: row.pathId,
    path: row.pathId ? (pathNames.get(row.pathId) ?? '') : '',
    agents: row.agents,
    deleted: row.deleted,
  };
}

export function offerAnswer(row: OfferRow, pathNames: Map<number, string>, optionNames: Map<number, string>) {
  return {
    offerPageId: row.id,
    campaignId: row.campaignId,
    name: row.name,
    url: row.url,
    share: row.share,
    payout: fromMicros(row.payoutMicros),
    active: row.active,
    pathId: row.pathId,
    path: row.pathId ? (pathNames.get(row.pathId) ?? '') : '',
    optionId: row.optionId,
    option: row.optionId ? (optionNames.get(row.optionId) ?? '') : '',
    postback: row.postbackParameter,
    agents: row.agents,
    liConversionName: row.liConversionName,
    rotator_participant_email: row.rotatorParticipantEmail,
    deleted: row.deleted,
  };
}

export function pathAnswer(row: PathRow) {
  return {
    pathId: row.id,
    campaignId: row.campaignId,
    name: row.name,
    share: row.share,
    active: row.active,
    agents: row.agents,
    deleted: row.deleted,
  };
}

export function optionAnswer(row: OptionRow) {
  return {
    optionId: row.id,
    campaignId: row.campaignId,
    name: row.name,
    active: row.active,
    deleted: row.deleted,
  };
}

export function tokenAnswer(row: TokenRow) {
  return {
    extraTokenId: row.id,
    campaignId: row.campaignId,
    slot: row.slot,
    token_name: row.tokenName,
    parameter: row.parameter,
    url_append: row.urlAppend,
    landing_page_enabled: row.landingPageEnabled,
    offer_page_enabled: row.offerPageEnabled,
    deleted: row.deleted,
  };
}
