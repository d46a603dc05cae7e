// One table of the campaign's items (landing pages, offers, paths, options) with the spec's
// pages-operation verbs: select-all, clone, export, delete with undo, show deleted, equal share.
import { Copy, Download, Eye, EyeOff, Pencil, Plus, RotateCcw, Scale, Trash2 } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { mutate as globalMutate } from 'swr';
import { Button, IconButton } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { failureText, useBusyAction } from '../../components/confirmed-action';
import { ActionsHeader } from '../../components/data-table/actions-header';
import { EmptyState } from '../../components/empty-state';
import { notify } from '../../components/toaster';
import { exportPages, type ItemKind, type ItemOf, itemsKey, pagesOperation, useItems } from './api';
import {
  SelectAllHeader,
  SelectCell,
  type Sort,
  SortHeader,
  Switch,
  sortRows,
  useSelection,
} from './editor-ui';
import { ITEM_IDS, ITEM_TABLES } from './item-kinds';

export type Column<T> = {
  key: string;
  label: string;
  num?: boolean;
  sortable?: boolean;
  sortValue?: (row: T) => string | number;
  render: (row: T) => ReactNode;
  className?: string;
};

type Props<K extends ItemKind> = {
  kind: K;
  columns: Column<ItemOf<K>>[];
  /** The tab's add/edit modal (useItemEditor): its campaign, and what Add and Edit open. */
  editor: { campaignId: number; onAdd: () => void; onEdit: (row: ItemOf<K>) => void };
  /** Why items cannot be added yet (the path/option prerequisite), shown instead of the table. */
  blocked?: ReactNode;
  /** More header actions (CSV upload, ZIP import). */
  actions?: ReactNode;
};

/** Every editor list of this campaign except `except`: refreshed after a change elsewhere. */
export function refreshCampaignLists(campaignId: number, except?: string) {
  return globalMutate(
    (key) =>
      Array.isArray(key) &&
      key[1] === 'editor' &&
      typeof key[0] === 'string' &&
      /^(landing|offer|path|option)\?/.test(key[0]) &&
      key[0].includes(`campaignId=${campaignId}&`) &&
      key[0] !== except,
  );
}

export function ItemsSection<K extends ItemKind>({ kind, columns, editor, blocked, actions }: Props<K>) {
  const { title, description, singular, plural, icon, emptyText, verbs } = ITEM_TABLES[kind];
  const idOf = ITEM_IDS[kind] as (row: ItemOf<K>) => number;
  const { campaignId, onAdd, onEdit } = editor;
  const [showDeleted, setShowDeleted] = useState(false);
  const [sort, setSort] = useState<Sort>({ key: 'id', dir: 'asc' });
  const { busy, run: runBusy } = useBusyAction<string>();
  const confirm = useConfirm();
  const { data, error, isLoading, mutate } = useItems(kind, campaignId, showDeleted);
  const rows = useMemo(() => data?.result ?? [], [data]);
  const ids = useMemo(() => rows.map(idOf), [rows, idOf]);
  const selection = useSelection(ids);
  const key = itemsKey(kind, campaignId, showDeleted)[0];

  const sorted = useMemo(() => {
    if (sort.key === 'id') return sort.dir === 'asc' ? rows : [...rows].reverse();
    const column = columns.find((c) => c.key === sort.key);
    if (!column?.sortValue) return rows;
    const value = column.sortValue;
    return sortRows(rows, sort, (row) => value(row));
  }, [rows, sort, columns]);

  /** A verb with campaignId and showDeleted; its data.result becomes this table's rows. */
  const run = (name: string, verb: string, body: Record<string, unknown> = {}, deleted = showDeleted) =>
    runBusy(name, async () => {
      const answer = await pagesOperation<ItemOf<K>>(verb, {
        campaignId,
        showDeleted: deleted ? 1 : 0,
        ...body,
      });
      if (deleted === showDeleted) await mutate({ result: answer.result }, { revalidate: false });
      void refreshCampaignLists(campaignId, key);
      return answer;
    });

  const selectedIds = () => ids.filter((id) => selection.selected.has(id));

  const remove = async (targets: number[], label: string) => {
    const ok = await confirm({
      title: `Delete ${targets.length === 1 ? singular : plural}`,
      message:
        targets.length === 1
          ? `Delete ${singular} “${label}”? It stops getting traffic at once; you can restore it from “Show deleted”.`
          : `Delete ${targets.length} ${plural}? They stop getting traffic at once; you can restore them from “Show deleted”.`,
      confirmLabel: 'Delete',
      cancelLabel: 'Cancel',
      danger: true,
    });
    if (!ok) return;
    const answer = await run('delete', verbs.delete, { [verbs.deleteKey]: targets });
    if (!answer) return;
    selection.clear();
    notify.success(answer.message ?? 'Deleted.', {
      action: { label: 'Undo', onClick: () => void undo(targets) },
    });
  };

  const undo = async (targets: number[]) => {
    const answer = await run('undo', verbs.undo, { [verbs.undoKey]: targets });
    if (answer) notify.success(answer.message);
  };

  const clone = async () => {
    const answer = await run('clone', verbs.clone, { [verbs.cloneKey]: selectedIds() });
    if (answer) {
      selection.clear();
      notify.success(answer.message);
    }
  };

  const exportSelected = async () => {
    const { export: verb, exportKey } = verbs;
    if (!verb || !exportKey) return;
    await runBusy('export', async () => {
      const answer = await exportPages(verb, {
        campaignId,
        showDeleted: showDeleted ? 1 : 0,
        [exportKey]: selectedIds(),
      });
      notify.success(answer.message);
      // The signed link answers the ZIP as an attachment: the page stays where it is.
      window.location.assign(answer.downloadLink);
    });
  };

  const equalShare = async () => {
    if (!verbs.equal) return;
    const ok = await confirm({
      title: 'Share traffic equally',
      message: `Give every active ${singular} the same share of the traffic${
        kind === 'path' ? '' : ' of its group'
      }? The current shares are replaced.`,
      confirmLabel: 'Share equally',
      cancelLabel: 'Cancel',
    });
    if (!ok) return;
    const answer = await run('equal', verbs.equal);
    if (answer) notify.success(answer.message);
  };

  const toggleDeleted = async (on: boolean) => {
    const answer = await run('toggle', verbs.toggle, {}, on);
    if (!answer) return;
    await globalMutate(itemsKey(kind, campaignId, on), { result: answer.result }, { revalidate: false });
    selection.clear();
    setShowDeleted(on);
  };

  const live = rows.filter((r) => (r as { deleted: number }).deleted === 0).length;
  const hasSelection = selection.count > 0;

  const toolbar = (
    <div className="ce-toolbar">
      <div className="ce-toolbar-start">
        {hasSelection ? (
          <>
            <span className="ce-selected-count" data-testid={`${kind}-selected-count`}>
              {selection.count} selected
            </span>
            <Button
              size="sm"
              icon={<Copy size={14} aria-hidden />}
              busy={busy === 'clone'}
              onClick={() => void clone()}
            >
              Clone
            </Button>
            {verbs.export && (
              <Button
                size="sm"
                icon={<Download size={14} aria-hidden />}
                busy={busy === 'export'}
                onClick={() => void exportSelected()}
              >
                Export
              </Button>
            )}
            <Button
              size="sm"
              variant="danger"
              icon={<Trash2 size={14} aria-hidden />}
              busy={busy === 'delete'}
              onClick={() =>
                void remove(
                  selectedIds(),
                  String(
                    (rows.find((r) => selection.selected.has(idOf(r))) as { name?: string })?.name ?? '',
                  ),
                )
              }
            >
              Delete
            </Button>
          </>
        ) : (
          <span className="ce-toolbar-note">
            {live} {live === 1 ? singular : plural}
            {showDeleted && rows.length > live ? ` · ${rows.length - live} deleted` : ''}
          </span>
        )}
      </div>
      <div className="ce-toolbar-end">
        {verbs.equal && (
          <Button
            size="sm"
            variant="ghost"
            icon={<Scale size={14} aria-hidden />}
            busy={busy === 'equal'}
            disabled={live === 0}
            onClick={() => void equalShare()}
          >
            Equal share
          </Button>
        )}
        <Switch
          id={`${kind}-show-deleted`}
          checked={showDeleted}
          busy={busy === 'toggle'}
          onChange={(on) => void toggleDeleted(on)}
          label={
            <span className="ce-inline-icon">
              {showDeleted ? <Eye size={14} aria-hidden /> : <EyeOff size={14} aria-hidden />} Show deleted
            </span>
          }
        />
      </div>
    </div>
  );

  const body = blocked ? (
    blocked
  ) : error && !data ? (
    <div className="ce-pad">
      <EmptyState icon={icon} title={`Could not load the ${plural}`}>
        {failureText(error)}
      </EmptyState>
    </div>
  ) : (
    <>
      {toolbar}
      <div className="table-wrap ce-table-wrap">
        <table className="table ce-table" data-testid={`${kind}-table`}>
          <thead>
            <tr>
              <SelectAllHeader
                selection={selection}
                label={`Select all ${plural}`}
                disabled={rows.length === 0}
              />
              {columns.map((c) =>
                c.sortable ? (
                  <SortHeader
                    key={c.key}
                    label={c.label}
                    column={c.key}
                    sort={sort}
                    onSort={setSort}
                    num={c.num}
                  />
                ) : (
                  <th key={c.key} className={c.num ? 'num' : undefined}>
                    {c.label}
                  </th>
                ),
              )}
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {isLoading && !data
              ? [0, 1, 2].map((i) => (
                  <tr key={i} className="ce-skeleton-row">
                    <td colSpan={columns.length + 2}>
                      <div className="skeleton" />
                    </td>
                  </tr>
                ))
              : sorted.map((row) => {
                  const rowId = idOf(row);
                  const r = row as { deleted: number; active?: number; name: string };
                  return (
                    <tr
                      key={rowId}
                      className={[r.deleted ? 'ce-row-deleted' : '', r.active === 0 ? 'ce-row-paused' : '']
                        .filter(Boolean)
                        .join(' ')}
                      data-testid={`${kind}-row`}
                      data-name={r.name}
                    >
                      <SelectCell selection={selection} id={rowId} label={`Select ${r.name}`} />
                      {columns.map((c) => (
                        <td
                          key={c.key}
                          className={[c.num ? 'num' : '', c.className ?? ''].join(' ').trim() || undefined}
                        >
                          {c.render(row)}
                        </td>
                      ))}
                      <td className="actions">
                        {r.deleted ? (
                          <Button
                            size="sm"
                            variant="ghost"
                            icon={<RotateCcw size={14} aria-hidden />}
                            onClick={() => void undo([rowId])}
                          >
                            Restore
                          </Button>
                        ) : (
                          <div className="ce-row-actions">
                            <IconButton
                              icon={Pencil}
                              iconSize={15}
                              label={`Edit ${r.name}`}
                              title="Edit"
                              onClick={() => onEdit(row)}
                            />
                            <IconButton
                              icon={Trash2}
                              iconSize={15}
                              className="ce-danger-icon"
                              label={`Delete ${r.name}`}
                              title="Delete"
                              onClick={() => void remove([rowId], r.name)}
                            />
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
          </tbody>
        </table>
        {!isLoading && rows.length === 0 && (
          <div className="ce-pad">
            <EmptyState
              icon={icon}
              title={`No ${plural} yet`}
              action={
                <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={onAdd}>
                  Add {singular}
                </Button>
              }
            >
              {emptyText}
            </EmptyState>
          </div>
        )}
      </div>
    </>
  );

  return (
    <Card
      title={title}
      description={description}
      flush
      className="ce-items-card"
      actions={
        !blocked && (
          <>
            {actions}
            <Button
              variant="primary"
              icon={<Plus size={16} aria-hidden />}
              onClick={onAdd}
              data-testid={`${kind}-add`}
            >
              Add {singular}
            </Button>
          </>
        )
      }
    >
      {body}
    </Card>
  );
}
