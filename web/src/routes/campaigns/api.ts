// The calls of the campaigns list (spec 1 §7, spec 2 §7); answers as docs/api.md describes.
import type { CampaignListAnswer, CampaignListItem } from '../../../../schema/campaign-list-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';

export type { CampaignListAnswer, CampaignListItem };

type Message = { message: string };

/** The swr key of one folder's list; every mutation revalidates the keys starting with 'campaign?'. */
export const listKey = (dir: number, includeDeleted: boolean) =>
  `campaign?dir=${dir}&includeDeleted=${includeDeleted ? 1 : 0}`;

export const isListKey = (key: unknown) => typeof key === 'string' && key.startsWith('campaign?dir=');

export function useCampaignList(dir: number, includeDeleted: boolean) {
  return useApi<CampaignListAnswer>(listKey(dir, includeDeleted), { keepPreviousData: true });
}

export const getCampaignList = (dir: number, includeDeleted = false) =>
  api.get<CampaignListAnswer>(listKey(dir, includeDeleted));

export const moveCampaigns = (ids: readonly number[], dir: number) =>
  api.post<Message & { moved: number }>('move-campaign', { campaignId: ids.join(','), dir });

export const addFolder = (name: string, dir: number, moveCampaigns: readonly number[]) =>
  api.post<Message & { folder: CampaignListItem; moved: number }>('add-campaign-folder', {
    name,
    dir,
    moveCampaigns,
  });

export const renameFolder = (campaignId: number, name: string) =>
  api.post<Message & { changed: boolean; folder: CampaignListItem }>('edit-campaign-folder', {
    campaignId,
    name,
  });

export const deleteCampaigns = (ids: readonly number[], permanent: boolean) =>
  api.delete<Message & { campaignId: string; deleted: number }>('delete-campaign', {
    campaignId: ids.join(','),
    isPermanent: permanent ? 1 : 0,
  });

export const undoDeleteCampaigns = (ids: readonly number[]) =>
  api.post<Message & { restored: number }>('undo-delete-campaign', { campaignId: ids.join(',') });

export const resetStats = (campaignId: number) =>
  api.post<{ status: boolean; message: string }>('reset-stats', { campaignId });

export const cloneCampaign = (campaignId: number) =>
  api.post<Message & { resultt: CampaignListItem }>('clone', { campaignId });

export const exportCampaign = (campaignId: number) =>
  api.post<Message & { downloadLink: string }>('export-campaign', { campaignId });

export const exportCampaigns = (ids: readonly number[]) =>
  api.post<Message & { downloadLink: string }>('export-campaigns', { campaign_ids: ids });

/** data of POST /api/uploadcsv and /api/import-campaigns. */
export type UploadAnswer = { uploaded: boolean; message: string; result: CampaignListItem[] };
