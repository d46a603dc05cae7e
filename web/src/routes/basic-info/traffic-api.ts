// Tabs 7 and 8's calls (spec 2 §7), over the shared client. Answer types are schema's
// (schema/traffic-api.ts).
import type {
  BannersAnswer,
  CpcAssetsAnswer,
  CpcCampaignAnswer,
  CpcConfigAnswer,
  CpcOffersAnswer,
  PlacementAnswer,
  TrafficStatusAnswer,
  ZonesAnswer,
} from '../../../../schema/traffic-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { uploadWithProgress } from '../../components/file-upload';

const bannersKey = (campaignId: number) => `blaze/banners?campaign_id=${campaignId}`;

export const useBanners = (campaignId: number) =>
  useApi<BannersAnswer>(bannersKey(campaignId), { revalidateOnFocus: false });

/** Zones of the publisher (9 unless configured) with the campaign's saved placement. */
export function useZones(campaignId: number, publisherId: number) {
  // This call answers {status, data} at the top level, not under data: read it whole.
  return useApi<ZonesAnswer['data']>(
    `blaze/get-zones-and-placement-by-publisher-id/${publisherId}?campaign_id=${campaignId}`,
    { revalidateOnFocus: false },
  );
}

export const saveBannerForm = (form: FormData) =>
  uploadWithProgress<BannersAnswer>('blaze/save-banner', form);

export const deleteBanners = (campaignId: number, ids: number[]) =>
  api.post<BannersAnswer>('blaze/delete-banners', { campaign_id: campaignId, ids });

export const savePlacement = (campaignId: number, placement: string) =>
  api.post<PlacementAnswer>('blaze/save-placement', { campaign_id: campaignId, placement });

/** Spec 2 §7 and §9: over 10 files they go 5 at a time, else one at a time. */
export function uploadBatches<T>(files: T[]): T[][] {
  const size = files.length > 10 ? 5 : 1;
  const out: T[][] = [];
  for (let i = 0; i < files.length; i += size) out.push(files.slice(i, i + size));
  return out;
}

/** Activation and delete batches of 5 ids. */
export function idBatches(ids: number[], size = 5): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/**
 * Sets banners Active or Inactive through api/blaze/save-banner, 5 ids a call (spec 2 §9,
 * spec 3 §9); the editor's banner list and the statistics screen's target rows both use it.
 */
export async function saveBannersActive(campaignId: number, ids: number[], active: 0 | 1) {
  for (const batch of idBatches(ids)) {
    const form = new FormData();
    form.set('campaign_id', String(campaignId));
    form.set('active', String(active));
    for (const id of batch) form.append('ids[]', String(id));
    await saveBannerForm(form);
  }
}

// ---- Tab 8 ----------------------------------------------------------------------------------------

export const useTrafficStatus = () =>
  useApi<TrafficStatusAnswer>('traffic-source/status', { revalidateOnFocus: false });
export const useCpcOffers = () => useApi<CpcOffersAnswer>('cpc/get-offers', { revalidateOnFocus: false });
export const useCpcConfig = () =>
  useApi<CpcConfigAnswer>('cpc/config', { revalidateOnFocus: false, revalidateIfStale: false });

export const saveTrafficInfo = (body: Record<string, unknown>) =>
  api.post<CpcCampaignAnswer>('cpc/save-info', body);
export const updateTrafficLines = (campaignId: number, lines: { id: string; cpm: string }[]) =>
  api.post<CpcCampaignAnswer>('cpc/update-lines', {
    campaign_id: campaignId,
    line: lines.map((l) => l.id),
    line_cpm: lines.map((l) => l.cpm),
  });
export const submitTrafficData = (campaignId: number) =>
  api.post<CpcCampaignAnswer>('cpc/submit-data', { campaign_id: campaignId });
export const saveTrafficAssets = (form: FormData) =>
  uploadWithProgress<CpcAssetsAnswer>('cpc/save-assets', form);
export const saveTrafficHeadlines = (form: FormData) =>
  uploadWithProgress<CpcCampaignAnswer>('cpc/save-headlines', form);
export const deleteTrafficAssets = (campaignId: number, names: string[]) =>
  names.length === 1
    ? api.delete<CpcAssetsAnswer>(`cpc/delete-asset/${campaignId}/${encodeURIComponent(names[0])}`)
    : api.post<CpcAssetsAnswer>(`cpc/delete-assets/${campaignId}`, { names });
