// The columns of the editor's item tables (landing pages, offers, paths, options), each built
// once: the tabs list which ones they show. Also the traffic percentages and the state of a
// tab's add/edit modal.
import { useCallback, useMemo, useState } from 'react';
import { devicesLabel, trafficPercents } from './editor-ui';
import { type Column, refreshCampaignLists } from './items-section';
import type { Agent } from './types';

type ItemRow = { name: string; active: number; deleted: number };
type SharedRow = ItemRow & { share: number; agents: string };

function StatusBadge({ active, deleted }: { active: number; deleted: number }) {
  if (deleted) return <span className="badge ce-badge-deleted">Deleted</span>;
  return active ? (
    <span className="badge badge-success">Active</span>
  ) : (
    <span className="badge badge-warning">Paused</span>
  );
}

function NameCell({ name, url }: { name: string; url?: string }) {
  return (
    <div className="ce-name-cell">
      <span className="cell-strong">{name}</span>
      {url && (
        <a
          className="ce-url"
          href={url.replace(/\{[^}]*\}/g, '')}
          target="_blank"
          rel="noreferrer noopener"
          title={url}
        >
          {url}
        </a>
      )}
    </div>
  );
}

const percent = (v: number | undefined) => (v ? `${v.toFixed(1)}%` : '—');

/** The item's name; a page's URL under it (`page`), in the wide name column. */
export const nameColumn = <T extends ItemRow & { url?: string }>(label: string, page = false): Column<T> => ({
  key: 'name',
  label,
  sortable: true,
  sortValue: (r) => r.name,
  render: (r) => <NameCell name={r.name} url={page ? r.url : undefined} />,
  ...(page ? { className: 'ce-col-name' } : {}),
});

/** A text column ('—' when empty), sortable unless told otherwise. */
export const textColumn = <T,>(
  key: string,
  label: string,
  value: (row: T) => string,
  sortable = true,
): Column<T> => ({
  key,
  label,
  ...(sortable ? { sortable, sortValue: value } : {}),
  render: (r) => value(r) || '—',
});

/** `column` when `shown`: spread into a column list. */
export const columnIf = <T,>(shown: boolean, column: Column<T>): Column<T>[] => (shown ? [column] : []);

export const devicesColumn = <T extends SharedRow>(agents: Agent[]): Column<T> => ({
  key: 'devices',
  label: 'Devices',
  render: (r) => devicesLabel(r.agents, agents),
});

export const shareColumn = <T extends SharedRow>(): Column<T> => ({
  key: 'share',
  label: 'Share',
  num: true,
  sortable: true,
  sortValue: (r) => r.share,
  render: (r) => r.share,
});

/** Each item's share of its group's traffic, from useTrafficPercents. */
export const trafficColumn = <T,>(percents: Map<number, number>, idOf: (row: T) => number): Column<T> => ({
  key: 'traffic',
  label: 'Traffic',
  num: true,
  sortable: true,
  sortValue: (r) => percents.get(idOf(r)) ?? 0,
  render: (r) => percent(percents.get(idOf(r))),
});

export const statusColumn = <T extends ItemRow>(): Column<T> => ({
  key: 'status',
  label: 'Status',
  render: (r) => <StatusBadge active={r.active} deleted={r.deleted} />,
});

/**
 * The percentage of traffic each live item gets within its group (its path or option when the
 * campaign splits by them, `groupBy`; else all items are one group).
 */
export function useTrafficPercents<
  T extends SharedRow & { pathId?: number | null; optionId?: number | null },
>(rows: T[], idOf: (row: T) => number, groupBy: 'pathId' | 'optionId' | null) {
  return useMemo(
    () =>
      trafficPercents(
        rows,
        idOf,
        (r) => (groupBy ? (r[groupBy] ?? 0) : 0),
        (r) => r.share,
        (r) => r.active === 1 && r.deleted === 0,
      ),
    [rows, idOf, groupBy],
  );
}

/**
 * The add/edit modal of a tab's items: `onAdd` and `onEdit` for the table, `modal` for the
 * modal (open, the row being edited, close, and the refresh of the campaign's lists on save).
 */
export function useItemEditor<T>(campaignId: number) {
  const [state, setState] = useState<{ editing: T | null } | null>(null);
  const onSaved = useCallback(() => void refreshCampaignLists(campaignId), [campaignId]);
  return {
    campaignId,
    onAdd: () => setState({ editing: null }),
    onEdit: (row: T) => setState({ editing: row }),
    refresh: onSaved,
    modal: {
      open: state !== null,
      campaignId,
      editing: state?.editing ?? null,
      onClose: () => setState(null),
      onSaved,
    },
  };
}
