// Campaigns and their items (spec 2 §3 and §7), one file per concern.
export {
  type CampaignRow,
  campaignForUser,
  canSeeEveryCampaign,
  refuseDirectLinkLandings,
} from './access';
export {
  campaignAnswer,
  campaignData,
} from './answers';
export { saveLanding, saveOffer, saveOption, savePath } from './items';
export { campaignDetail, campaignLinkPixel } from './links';
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
