// What the campaigns list does to its rows (spec 1 §8): move, new folder, rename, delete with
// undo, permanent delete, clone, export, reset statistics, and the answer of an upload. Each
// answers with a toast and revalidates the folder lists.
import { useState } from 'react';
import { mutate } from 'swr';
import { LIST_MESSAGES } from '../../../../schema/campaign-list-api';
import { ApiError } from '../../api/client';
import { useConfirm } from '../../components/confirm-dialog';
import { notify } from '../../components/toaster';
import {
  addFolder,
  type CampaignListItem,
  cloneCampaign,
  deleteCampaigns,
  exportCampaign,
  exportCampaigns,
  isListKey,
  moveCampaigns,
  renameFolder,
  resetStats,
  type UploadAnswer,
  undoDeleteCampaigns,
} from './api';
import { forgetFolder, rememberFolder } from './folder-trail';
import { isMetricsKey } from './list-metrics';

export const errorMessage = (err: unknown) =>
  err instanceof ApiError ? err.firstMessage : 'Something went wrong. Please try again.';

/** Revalidates every folder list (a move changes two of them). */
// The metric columns list every folder, so they follow every change of the tree too.
const refreshLists = () => mutate((key) => isListKey(key) || isMetricsKey(key));

/** Spec 1 §8: 'Are you sure you want to delete the campaign [folder] [permanently]?' */
function deleteQuestion(rows: readonly CampaignListItem[], permanent: boolean) {
  const folder = rows.length > 0 && rows.every((r) => r.is_dir === 1) ? ' folder' : '';
  return `Are you sure you want to delete the campaign${folder}${permanent ? ' permanently' : ''}?`;
}

const download = (link: string) => {
  window.location.assign(link);
};

type Options = {
  /** The open folder: where new folders are made. */
  dir: number;
  clearSelection: () => void;
  closeFolderDialog: () => void;
  closeUpload: () => void;
  /** A campaign was made here (a clone): the list shows where it landed. */
  onCreated?: (id: number) => void;
};

export type CampaignActions = ReturnType<typeof useCampaignActions>;

export function useCampaignActions({
  dir,
  clearSelection,
  closeFolderDialog,
  closeUpload,
  onCreated,
}: Options) {
  const confirm = useConfirm();
  const [busyRow, setBusyRow] = useState<number | null>(null);
  const [bulkBusy, setBulkBusy] = useState<string | null>(null);

  const move = async (ids: number[], to: number, toName: string) => {
    if (!ids.length) return;
    try {
      const answer = await moveCampaigns(ids, to);
      notify.success(answer.message, { description: `Now in ${toName}.` });
      clearSelection();
      await refreshLists();
    } catch (err) {
      notify.error(errorMessage(err));
      throw err;
    }
  };

  const createFolder = async (name: string, moveIds: number[]) => {
    const answer = await addFolder(name, dir, moveIds);
    rememberFolder(answer.folder.campaignId, answer.folder.name, dir);
    notify.success(answer.message);
    closeFolderDialog();
    clearSelection();
    await refreshLists();
  };

  const undo = async (ids: number[]) => {
    try {
      const answer = await undoDeleteCampaigns(ids);
      notify.success(answer.message);
      await refreshLists();
    } catch (err) {
      notify.error(errorMessage(err));
    }
  };

  const remove = async (targets: CampaignListItem[], permanent: boolean) => {
    if (!targets.length) return;
    const ok = await confirm({
      title: permanent
        ? 'Delete permanently'
        : targets.length > 1
          ? `Delete ${targets.length} items`
          : 'Delete',
      message: deleteQuestion(targets, permanent),
      confirmLabel: 'Yes',
      cancelLabel: 'No',
      danger: true,
    });
    if (!ok) return;
    const ids = targets.map((t) => t.campaignId);
    setBulkBusy('delete');
    try {
      const answer = await deleteCampaigns(ids, permanent);
      if (permanent) {
        notify.success(answer.message);
      } else {
        notify.success(answer.message, {
          duration: 10_000,
          action: { label: 'Undo', onClick: () => void undo(ids) },
          classNames: { actionButton: 'toast-undo' },
        });
      }
      for (const t of targets) if (t.is_dir === 1) forgetFolder(t.campaignId);
      clearSelection();
      await refreshLists();
    } catch (err) {
      notify.error(errorMessage(err));
    } finally {
      setBulkBusy(null);
    }
  };

  const withRowBusy = async (id: number, work: () => Promise<void>) => {
    setBusyRow(id);
    try {
      await work();
    } catch (err) {
      notify.error(errorMessage(err));
    } finally {
      setBusyRow(null);
    }
  };

  const clone = (row: CampaignListItem) =>
    withRowBusy(row.campaignId, async () => {
      const answer = await cloneCampaign(row.campaignId);
      notify.success(answer.message);
      onCreated?.(answer.resultt.campaignId);
      await refreshLists();
    });

  const exportOne = (row: CampaignListItem) =>
    withRowBusy(row.campaignId, async () => {
      const answer = await exportCampaign(row.campaignId);
      notify.success(answer.message);
      download(answer.downloadLink);
    });

  const exportMany = async (targets: CampaignListItem[]) => {
    setBulkBusy('export');
    try {
      const answer = await exportCampaigns(targets.map((t) => t.campaignId));
      notify.success(answer.message);
      download(answer.downloadLink);
    } catch (err) {
      notify.error(errorMessage(err));
    } finally {
      setBulkBusy(null);
    }
  };

  const reset = async (row: CampaignListItem) => {
    const ok = await confirm({
      title: 'Reset statistics',
      message: LIST_MESSAGES.confirmResetStats,
      confirmLabel: 'Yes',
      cancelLabel: 'No',
      danger: true,
    });
    if (!ok) return;
    await withRowBusy(row.campaignId, async () => {
      const answer = await resetStats(row.campaignId);
      notify.success(answer.message);
    });
  };

  const rename = async (folder: CampaignListItem, name: string) => {
    const answer = await renameFolder(folder.campaignId, name);
    rememberFolder(folder.campaignId, answer.folder.name, folder.dir);
    if (answer.changed) notify.success(answer.message);
    closeFolderDialog();
    await refreshLists();
  };

  const onUploaded = async (kind: 'csv' | 'zip', answer: UploadAnswer) => {
    notify.success(kind === 'csv' ? LIST_MESSAGES.csvUploaded : LIST_MESSAGES.imported, {
      description:
        answer.message !== LIST_MESSAGES.csvUploaded && answer.message !== LIST_MESSAGES.imported
          ? answer.message
          : undefined,
    });
    closeUpload();
    await refreshLists();
  };

  return {
    busyRow,
    bulkBusy,
    move,
    createFolder,
    undo,
    remove,
    clone,
    exportOne,
    exportMany,
    reset,
    rename,
    onUploaded,
  };
}
