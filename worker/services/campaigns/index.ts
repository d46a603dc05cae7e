// Campaigns and their items (spec 2 §3 and §7), one file per concern.
export {
  type CampaignRow,
  campaignForUser,
  canSeeEveryCampaign,
  ownedBy,
  refuseDirectLinkLandings,
} from './access';
export {
  campaignAnswer,
  campaignData,
  landingAnswer,
  offerAnswer,
  optionAnswer,
  pathAnswer,
  tokenAnswer,
} from './answers';
export { saveLanding, saveOffer, saveOption, savePath } from './items';
export { campaignDetail, linkPixel, trackingOrigin } from './links';
export {
  listAgents,
  listCampaigns,
  listLandings,
  listOffers,
  listOptions,
  listPaths,
  listTokens,
} from './lists';
export { resetStatistics } from './reset';
export { campaignValues, createCampaign, updateCampaign } from './save';
export { CAMPAIGN_ITEM_TABLES, CAMPAIGN_STATISTICS_TABLES, CAMPAIGN_TABLES } from './tables';
