// The calls of the campaigns list (spec 1 §7, spec 2 §7); answer types are schema's
// (schema/campaign-list-api.ts), the ones the worker answers with.
import type { ResetStatsAnswer } from '../../../../schema/campaign-api';
import type {
  AddFolderAnswer,
  CampaignListAnswer,
  CampaignListItem,
  CampaignUploadAnswer,
  CloneAnswer,
  DeleteCampaignsAnswer,
  ExportCampaignsAnswer,
  MoveAnswer,
  RenameFolderAnswer,
  UndoDeleteAnswer,
} from '../../../../schema/campaign-list-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';

/** data of POST /api/uploadcsv and /api/import-campaigns (both carry these fields). */
export type { CampaignListAnswer, CampaignListItem, CampaignUploadAnswer as UploadAnswer };

/** The swr key of one folder's list; every mutation revalidates the keys starting with 'campaign?'. */
const listKey = (dir: number, includeDeleted: boolean) =>
  `campaign?dir=${dir}&includeDeleted=${includeDeleted ? 1 : 0}`;

export const isListKey = (key: unknown) => typeof key === 'string' && key.startsWith('campaign?dir=');

export function useCampaignList(dir: number, includeDeleted: boolean) {
  return useApi<CampaignListAnswer>(listKey(dir, includeDeleted), { keepPreviousData: true });
}

export const getCampaignList = (dir: number, includeDeleted = false) =>
  api.get<CampaignListAnswer>(listKey(dir, includeDeleted));

export const moveCampaigns = (ids: readonly number[], dir: number) =>
  api.post<MoveAnswer>('move-campaign', { campaignId: ids.join(','), dir });

export const addFolder = (name: string, dir: number, moveCampaigns: readonly number[]) =>
  api.post<AddFolderAnswer>('add-campaign-folder', {
    name,
    dir,
    moveCampaigns,
  });

export const renameFolder = (campaignId: number, name: string) =>
  api.post<RenameFolderAnswer>('edit-campaign-folder', {
    campaignId,
    name,
  });

export const deleteCampaigns = (ids: readonly number[], permanent: boolean) =>
  api.delete<DeleteCampaignsAnswer>('delete-campaign', {
    campaignId: ids.join(','),
    isPermanent: permanent ? 1 : 0,
  });

export const undoDeleteCampaigns = (ids: readonly number[]) =>
  api.post<UndoDeleteAnswer>('undo-delete-campaign', { campaignId: ids.join(',') });

export const resetStats = (campaignId: number) => api.post<ResetStatsAnswer>('reset-stats', { campaignId });

export const cloneCampaign = (campaignId: number) => api.post<CloneAnswer>('clone', { campaignId });

export const exportCampaign = (campaignId: number) =>
  api.post<ExportCampaignsAnswer>('export-campaign', { campaignId });

export const exportCampaigns = (ids: readonly number[]) =>
  api.post<ExportCampaignsAnswer>('export-campaigns', { campaign_ids: ids });
