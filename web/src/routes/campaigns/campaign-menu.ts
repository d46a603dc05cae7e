// A row's action menu: what a deleted item, a folder and a campaign each offer (spec 1 §8).
import {
  ChartColumn,
  Copy,
  Download,
  Eraser,
  FolderInput,
  FolderOpen,
  Pencil,
  RotateCcw,
  SquarePen,
  Trash2,
} from 'lucide-react';
import type { CampaignListItem } from './api';
import type { MenuItem } from './row-menu';
import type { CampaignActions } from './use-campaign-actions';

type Handlers = Pick<CampaignActions, 'undo' | 'remove' | 'exportMany' | 'clone' | 'exportOne' | 'reset'> & {
  open: (row: CampaignListItem) => void;
  openStats: (row: CampaignListItem) => void;
  rename: (folder: CampaignListItem) => void;
  moveTo: (rows: CampaignListItem[]) => void;
};

/** Delete (to the bin) and Delete permanently, last in a folder's and a campaign's menu. */
const deleteItems = (row: CampaignListItem, h: Handlers): MenuItem[] => [
  {
    label: 'Delete',
    icon: Trash2,
    danger: true,
    separated: true,
    onSelect: () => void h.remove([row], false),
  },
  { label: 'Delete permanently', icon: Trash2, danger: true, onSelect: () => void h.remove([row], true) },
];

export function menuFor(row: CampaignListItem, h: Handlers): MenuItem[] {
  if (row.deleted === 1) {
    return [
      { label: 'Restore', icon: RotateCcw, onSelect: () => void h.undo([row.campaignId]) },
      { label: 'Delete permanently', icon: Trash2, danger: true, onSelect: () => void h.remove([row], true) },
    ];
  }
  if (row.is_dir === 1) {
    return [
      { label: 'Open folder', icon: FolderOpen, onSelect: () => h.open(row) },
      { label: 'Rename', icon: Pencil, onSelect: () => h.rename(row) },
      { label: 'Move to…', icon: FolderInput, onSelect: () => h.moveTo([row]) },
      { label: 'Export', icon: Download, onSelect: () => void h.exportMany([row]) },
      ...deleteItems(row, h),
    ];
  }
  return [
    { label: 'Edit', icon: SquarePen, onSelect: () => h.open(row) },
    { label: 'Statistics', icon: ChartColumn, onSelect: () => h.openStats(row) },
    { label: 'Clone', icon: Copy, onSelect: () => void h.clone(row) },
    { label: 'Export', icon: Download, onSelect: () => void h.exportOne(row) },
    { label: 'Move to…', icon: FolderInput, onSelect: () => h.moveTo([row]) },
    { label: 'Reset statistics', icon: Eraser, separated: true, onSelect: () => void h.reset(row) },
    ...deleteItems(row, h),
  ];
}
