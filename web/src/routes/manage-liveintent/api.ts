// The manage-liveintent calls (spec 4 §7), one function each over the shared client. Answer
// types are schema's (schema/liveintent-api.ts).
import type { CampaignDetail } from '../../../../schema/campaign-api';
import type {
  ConversionTrackerAnswer,
  ConversionTrackersAnswer,
  IabCategoriesAnswer,
  LiAdAnswer,
  LiAdsAnswer,
  LiCampaignAnswer,
  LiCampaignsAnswer,
  LiCreateAdAnswer,
  LiMessageAnswer,
  LineItemAnswer,
  LineItemsAnswer,
  TrackerStatusAnswer,
} from '../../../../schema/liveintent-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';

const base = 'manage-liveintent';
const quiet = { revalidateOnFocus: false };

export const keys = {
  campaigns: (id: number) => `${base}/licampaigns?id=${id}`,
  lineItems: (id: number) => `${base}/lineitems?id=${id}`,
  trackers: (id: number) => `${base}/conversiontrackers?campaignId=${id}`,
  ads: (id: number) => `${base}/liads?id=${id}`,
};

/** The tracker campaign (its traffic source) and whether the installation has its own account. */
export const useTrackerCampaign = (id: number) =>
  useApi<CampaignDetail>([`campaign?campaignId=${id}`, 'manage-liveintent'], quiet);

export const useLiCampaigns = (id: number, on = true) =>
  useApi<LiCampaignsAnswer>(on ? keys.campaigns(id) : null, quiet);
export const useLineItems = (id: number, on = true) =>
  useApi<LineItemsAnswer>(on ? keys.lineItems(id) : null, quiet);
export const useTrackers = (id: number, on = true) =>
  useApi<ConversionTrackersAnswer>(on ? keys.trackers(id) : null, quiet);
export const useAds = (id: number, on = true) => useApi<LiAdsAnswer>(on ? keys.ads(id) : null, quiet);
export const useIabCategories = () =>
  useApi<IabCategoriesAnswer>(`${base}/iab-categories`, { ...quiet, revalidateIfStale: false });

export const getLiCampaign = (campaignId: number, refId: string) =>
  api.post<LiCampaignAnswer>(`${base}/campaign`, { campaignId, refId });
export const getLineItem = (campaignId: number, id: string) =>
  api.get<LineItemAnswer>(`${base}/lineitem`, { query: { campaignId, id } });
export const getTracker = (campaignId: number, id: string) =>
  api.get<ConversionTrackerAnswer>(`${base}/conversiontracker`, { query: { campaignId, id } });
export const getTrackerStatus = (campaignId: number, id: string) =>
  api.get<TrackerStatusAnswer>(`${base}/get-conversion-tracker-status`, { query: { campaignId, id } });
export const getAd = (campaignId: number, id: string) =>
  api.get<LiAdAnswer>(`${base}/liad`, { query: { campaignId, id } });

export const send = (verb: string, body: Record<string, unknown>) =>
  api.post<LiMessageAnswer>(`${base}/${verb}`, body);
export const createAd = (body: Record<string, unknown>) =>
  api.post<LiCreateAdAnswer>(`${base}/create-ad`, body);
export const trackerPixel = (campaignId: number, segmentId: string) =>
  api.post<ConversionTrackerAnswer>(`${base}/edit-conversiontracker-pixel`, { campaignId, segmentId });
