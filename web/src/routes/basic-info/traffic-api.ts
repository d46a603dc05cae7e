// Tabs 7 and 8's calls (spec 2 §7), over the shared client. Answer types are schema's
// (schema/traffic-api.ts).
import type { BannersAnswer, PlacementAnswer, ZonesAnswer } from '../../../../schema/traffic-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { uploadWithProgress } from '../../components/file-upload';

export const bannersKey = (campaignId: number) => `blaze/banners?campaign_id=${campaignId}`;

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
