// Dragging campaigns (spec 1 §4): onto a folder moves them in, onto the path above or a crumb
// moves them up, onto another campaign makes a new folder holding both (the folder dialog asks
// for its name first).
import { type DragEvent, type ReactNode, useState } from 'react';
import type { CampaignListItem } from './api';
import type { Crumb } from './folder-trail';

const DRAG_TYPE = 'application/x-campaign-ids';

export type DropKind = 'folder' | 'campaign' | 'crumb';
type DropTarget = { kind: DropKind; id: number } | null;

type Options = {
  dir: number;
  byId: ReadonlyMap<number, CampaignListItem>;
  trail: readonly Crumb[];
  selected: ReadonlySet<number>;
  liveSelected: readonly CampaignListItem[];
  move: (ids: number[], to: number, toName: string) => Promise<void>;
  /** Asks for the name of a new folder that will hold `moveIds`. */
  createFolderWith: (moveIds: number[], lead: ReactNode) => void;
};

export type CampaignDrag = ReturnType<typeof useCampaignDrag>;

export function useCampaignDrag({
  dir,
  byId,
  trail,
  selected,
  liveSelected,
  move,
  createFolderWith,
}: Options) {
  const [dragging, setDragging] = useState<number[]>([]);
  const [dropTarget, setDropTarget] = useState<DropTarget>(null);

  const dragIds = (row: CampaignListItem) =>
    selected.has(row.campaignId) && liveSelected.length > 1
      ? liveSelected.map((r) => r.campaignId)
      : [row.campaignId];

  const onDragStart = (e: DragEvent, row: CampaignListItem) => {
    const ids = dragIds(row);
    e.dataTransfer.setData(DRAG_TYPE, ids.join(','));
    e.dataTransfer.setData('text/plain', ids.length > 1 ? `${ids.length} campaigns` : row.name);
    e.dataTransfer.effectAllowed = 'move';
    setDragging(ids);
  };

  const onDragEnd = () => {
    setDragging([]);
    setDropTarget(null);
  };

  const canDropOn = (target: DropTarget) => {
    if (!target || !dragging.length) return false;
    if (target.kind === 'crumb') return target.id !== dir;
    if (dragging.includes(target.id)) return false;
    const row = byId.get(target.id);
    if (!row || row.deleted === 1) return false;
    // Dropping on a campaign makes a folder of both: only campaigns, not folders, group that way.
    if (target.kind === 'campaign') return dragging.every((id) => byId.get(id)?.is_dir !== 1);
    return true;
  };

  const dropProps = (target: NonNullable<DropTarget>) => ({
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes(DRAG_TYPE) || !canDropOn(target)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      if (dropTarget?.id !== target.id || dropTarget.kind !== target.kind) setDropTarget(target);
    },
    onDragLeave: (e: DragEvent) => {
      if (!(e.currentTarget as HTMLElement).contains(e.relatedTarget as Node | null)) {
        setDropTarget((t) => (t?.id === target.id && t.kind === target.kind ? null : t));
      }
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      const ids = (e.dataTransfer.getData(DRAG_TYPE) || '')
        .split(',')
        .map(Number)
        .filter((n) => n > 0);
      setDropTarget(null);
      setDragging([]);
      if (!ids.length) return;
      if (target.kind === 'campaign') {
        const names = [byId.get(target.id), ...ids.map((id) => byId.get(id))]
          .filter(Boolean)
          .map((r) => `“${r?.name}”`);
        createFolderWith([target.id, ...ids], <>The new folder will hold {names.join(' and ')}.</>);
        return;
      }
      const name =
        target.kind === 'crumb'
          ? target.id === 0
            ? 'Campaigns'
            : (trail.find((c) => c.campaignId === target.id)?.name ?? 'the folder')
          : (byId.get(target.id)?.name ?? 'the folder');
      void move(ids, target.id, name).catch(() => {});
    },
  });

  const isDropTarget = (kind: DropKind, id: number) => dropTarget?.kind === kind && dropTarget.id === id;

  return { dragging, onDragStart, onDragEnd, dropProps, isDropTarget };
}
