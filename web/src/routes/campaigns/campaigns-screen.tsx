import {
  ArrowDown,
  ArrowUp,
  ArrowUpDown,
  ChartColumn,
  ChevronLeft,
  ChevronRight,
  Copy,
  CornerLeftUp,
  Download,
  Eraser,
  FileArchive,
  FileSpreadsheet,
  Folder,
  FolderInput,
  FolderOpen,
  FolderPlus,
  GripVertical,
  House,
  Megaphone,
  Pencil,
  Plus,
  RotateCcw,
  Search,
  SearchX,
  SquarePen,
  Trash2,
  X,
} from 'lucide-react';
import { type DragEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { mutate } from 'swr';
import { LIST_MESSAGES } from '../../../../schema/campaign-list-api';
import { ApiError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { notify } from '../../components/toaster';
import { KEYS, readKey, removeKey, writeKey } from '../../lib/storage';
import { useDocumentTitle } from '../../lib/use-document-title';
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
  useCampaignList,
} from './api';
import { FolderNameDialog, MoveToDialog, UploadDialog } from './dialogs';
import { forgetFolder, rememberFolder, rememberFolders, useFolderTrail } from './folder-trail';
import { PAGE_LENGTHS, type SortBy, sortRows, useListPrefs } from './prefs';
import { type MenuItem, RowMenu } from './row-menu';

// /campaigns (spec 1 §2, §4, §5, §8, §9): the folder tree with a breadcrumb, folders first,
// sort by id or name, search, show deleted, page length; drag a campaign into a folder, onto
// the parent entry or onto another campaign (a new folder holding both), with "Move to…" as
// the keyboard's way; rename, delete with undo, permanent delete, reset statistics, clone,
// export, CSV upload and ZIP import.

const DRAG_TYPE = 'application/x-campaign-ids';

const TYPE_LABELS: Record<string, string> = {
  landing_page: 'Landing page',
  direct_link: 'Direct link',
  rotator: 'Rotator',
  multiple_path_type: 'Multiple paths',
  multiple_option_type: 'Multiple options',
};

const SOURCE_LABELS: Record<string, string> = {
  trrcpc: 'TRR CPC',
  crane: 'Crane',
  trrde: 'TRR DE',
  blaze: 'Blaze',
  facebook: 'Facebook',
  taboola: 'Taboola',
  mediago: 'MediaGo',
  liveintent: 'LiveIntent',
};

const errorMessage = (err: unknown) =>
  err instanceof ApiError ? err.firstMessage : 'Something went wrong. Please try again.';

/** Revalidates every folder list (a move changes two of them). */
const refreshLists = () => mutate(isListKey);

/** Spec 1 §8: 'Are you sure you want to delete the campaign [folder] [permanently]?' */
function deleteQuestion(rows: readonly CampaignListItem[], permanent: boolean) {
  const folder = rows.length > 0 && rows.every((r) => r.is_dir === 1) ? ' folder' : '';
  return `Are you sure you want to delete the campaign${folder}${permanent ? ' permanently' : ''}?`;
}

type DropTarget = { kind: 'folder' | 'campaign' | 'crumb'; id: number } | null;

function SortHeader({
  label,
  field,
  sortBy,
  onSort,
  className,
}: {
  label: string;
  field: 'campaignId' | 'name';
  sortBy: SortBy;
  onSort: (s: SortBy) => void;
  className?: string;
}) {
  const active = sortBy.replace('-', '') === field;
  const desc = sortBy.startsWith('-');
  const Icon = !active ? ArrowUpDown : desc ? ArrowDown : ArrowUp;
  return (
    <th scope="col" className={className} aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        className={active ? 'th-sort is-active' : 'th-sort'}
        onClick={() => onSort((active && !desc ? `-${field}` : field) as SortBy)}
        data-testid={`sort-${field}`}
      >
        <span>{label}</span>
        <Icon size={13} aria-hidden />
      </button>
    </th>
  );
}

function StatusBadge({ row }: { row: CampaignListItem }) {
  if (row.deleted === 1) return <span className="badge cl-badge-deleted">Deleted</span>;
  if (row.is_dir === 1) return <span className="cell-muted">—</span>;
  return row.active === 1 ? (
    <span className="badge badge-success">Active</span>
  ) : (
    <span className="badge cl-badge-paused">Paused</span>
  );
}

export function CampaignsScreen() {
  useDocumentTitle('Campaigns');
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [params, setParams] = useSearchParams();
  const dirParam = params.get('dir');
  const dir = Number(dirParam ?? readKey(KEYS.campaignsDir) ?? 0) || 0;
  const prefs = useListPrefs();
  const { sortBy, setSortBy, showDeleted, setShowDeleted, pageLength, setPageLength } = prefs;
  const { data, error, isLoading } = useCampaignList(dir, showDeleted);
  const answerForDir =
    data && (data.currentDir.campaignId === dir || (dir === 0 && data.currentDir.campaignId === 0));
  const trail = useFolderTrail(dir, answerForDir ? data?.currentDir : undefined);

  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [busyRow, setBusyRow] = useState<number | null>(null);
  const [bulkBusy, setBulkBusy] = useState<string | null>(null);
  const [dragging, setDragging] = useState<number[]>([]);
  const [dropTarget, setDropTarget] = useState<DropTarget>(null);
  const [folderDialog, setFolderDialog] = useState<
    | { mode: 'create'; moveIds: number[]; lead?: ReactNode }
    | { mode: 'rename'; folder: CampaignListItem }
    | null
  >(null);
  const [moveDialog, setMoveDialog] = useState<CampaignListItem[] | null>(null);
  const [upload, setUpload] = useState<'csv' | 'zip' | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  // The open folder lives in the URL (back and forward work) and in storage (spec 1 §3), so
  // coming back to the list opens the same folder until the Campaigns link is chosen.
  useEffect(() => {
    if (dir) writeKey(KEYS.campaignsDir, dir);
    else removeKey(KEYS.campaignsDir);
    if (dirParam === null && dir) setParams({ dir: String(dir) }, { replace: true });
  }, [dir, dirParam, setParams]);

  // A new folder, search or order starts at the first page with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset is what these changes cause
  useEffect(() => {
    setPage(1);
    setSelected(new Set());
  }, [dir, showDeleted]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  useEffect(() => setPage(1), [search, sortBy, pageLength]);

  const loaded = answerForDir ? data.result : null;
  const allRows = useMemo(() => loaded ?? [], [loaded]);
  useEffect(() => rememberFolders(allRows), [allRows]);
  const rows = useMemo(() => {
    const q = search.trim().toLowerCase();
    const found = q ? allRows.filter((r) => r.name.toLowerCase().includes(q)) : allRows;
    return sortRows(found, sortBy);
  }, [allRows, search, sortBy]);
  const pages = Math.max(1, Math.ceil(rows.length / pageLength));
  const current = Math.min(page, pages);
  const visible = rows.slice((current - 1) * pageLength, current * pageLength);
  const byId = useMemo(() => new Map(allRows.map((r) => [r.campaignId, r])), [allRows]);

  // Drop ids that left the list (moved, deleted, another page of results).
  useEffect(() => {
    setSelected((s) => {
      const next = new Set([...s].filter((id) => byId.has(id)));
      return next.size === s.size ? s : next;
    });
  }, [byId]);

  const folderName = trail.at(-1)?.name ?? 'Campaigns';
  const parent = trail.length >= 2 ? trail[trail.length - 2] : { campaignId: 0, name: 'Campaigns' };
  const selectedRows = [...selected]
    .map((id) => byId.get(id))
    .filter((r): r is CampaignListItem => Boolean(r));
  const liveSelected = selectedRows.filter((r) => r.deleted === 0);

  const openDir = (id: number) => {
    setSearch('');
    if (id) setParams({ dir: String(id) });
    else {
      removeKey(KEYS.campaignsDir);
      setParams({});
    }
  };

  const open = (row: CampaignListItem) => {
    if (row.deleted === 1) return;
    if (row.is_dir === 1) {
      rememberFolder(row.campaignId, row.name, row.dir);
      openDir(row.campaignId);
    } else navigate(`/basic-info/${row.campaignId}`);
  };

  // ---- actions -----------------------------------------------------------------------------

  const move = async (ids: number[], to: number, toName: string) => {
    if (!ids.length) return;
    try {
      const answer = await moveCampaigns(ids, to);
      notify.success(answer.message, { description: `Now in ${toName}.` });
      setSelected(new Set());
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
    setFolderDialog(null);
    setSelected(new Set());
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
        // The toaster's look with an Undo action (notify has no actions).
        toast.success(answer.message, {
          duration: 10_000,
          action: { label: 'Undo', onClick: () => void undo(ids) },
          classNames: { actionButton: 'toast-undo' },
        });
      }
      for (const t of targets) if (t.is_dir === 1) forgetFolder(t.campaignId);
      setSelected(new Set());
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
      await refreshLists();
    });

  const download = (link: string) => {
    window.location.assign(link);
  };

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
    setFolderDialog(null);
    await refreshLists();
  };

  const onUploaded = async (kind: 'csv' | 'zip', answer: UploadAnswer) => {
    notify.success(kind === 'csv' ? LIST_MESSAGES.csvUploaded : LIST_MESSAGES.imported, {
      description:
        answer.message !== LIST_MESSAGES.csvUploaded && answer.message !== LIST_MESSAGES.imported
          ? answer.message
          : undefined,
    });
    setUpload(null);
    await refreshLists();
  };

  // ---- drag and drop -------------------------------------------------------------------------

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
        setFolderDialog({
          mode: 'create',
          moveIds: [target.id, ...ids],
          lead: <>The new folder will hold {names.join(' and ')}.</>,
        });
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

  const isDropTarget = (kind: 'folder' | 'campaign' | 'crumb', id: number) =>
    dropTarget?.kind === kind && dropTarget.id === id;

  // ---- menus ---------------------------------------------------------------------------------

  const menuFor = (row: CampaignListItem): MenuItem[] => {
    if (row.deleted === 1) {
      return [
        { label: 'Restore', icon: RotateCcw, onSelect: () => void undo([row.campaignId]) },
        { label: 'Delete permanently', icon: Trash2, danger: true, onSelect: () => void remove([row], true) },
      ];
    }
    if (row.is_dir === 1) {
      return [
        { label: 'Open folder', icon: FolderOpen, onSelect: () => open(row) },
        { label: 'Rename', icon: Pencil, onSelect: () => setFolderDialog({ mode: 'rename', folder: row }) },
        { label: 'Move to…', icon: FolderInput, onSelect: () => setMoveDialog([row]) },
        { label: 'Export', icon: Download, onSelect: () => void exportMany([row]) },
        {
          label: 'Delete',
          icon: Trash2,
          danger: true,
          separated: true,
          onSelect: () => void remove([row], false),
        },
        { label: 'Delete permanently', icon: Trash2, danger: true, onSelect: () => void remove([row], true) },
      ];
    }
    return [
      { label: 'Edit', icon: SquarePen, onSelect: () => open(row) },
      { label: 'Statistics', icon: ChartColumn, onSelect: () => navigate(`/stats/${row.campaignId}`) },
      { label: 'Clone', icon: Copy, onSelect: () => void clone(row) },
      { label: 'Export', icon: Download, onSelect: () => void exportOne(row) },
      { label: 'Move to…', icon: FolderInput, onSelect: () => setMoveDialog([row]) },
      { label: 'Reset statistics', icon: Eraser, separated: true, onSelect: () => void reset(row) },
      {
        label: 'Delete',
        icon: Trash2,
        danger: true,
        separated: true,
        onSelect: () => void remove([row], false),
      },
      { label: 'Delete permanently', icon: Trash2, danger: true, onSelect: () => void remove([row], true) },
    ];
  };

  // ---- render --------------------------------------------------------------------------------

  const allVisibleSelected = visible.length > 0 && visible.every((r) => selected.has(r.campaignId));
  const someVisibleSelected = visible.some((r) => selected.has(r.campaignId));
  const toggleAll = () =>
    setSelected((s) => {
      const next = new Set(s);
      if (allVisibleSelected) for (const r of visible) next.delete(r.campaignId);
      else for (const r of visible) next.add(r.campaignId);
      return next;
    });
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const folderMissing = error instanceof ApiError && error.status === 404 && dir !== 0;
  const loading = (isLoading || !answerForDir) && !error;
  const counts = {
    folders: allRows.filter((r) => r.is_dir === 1 && r.deleted === 0).length,
    campaigns: allRows.filter((r) => r.is_dir !== 1 && r.deleted === 0).length,
  };
  const summary = loading
    ? 'Loading…'
    : [
        counts.folders ? `${counts.folders} ${counts.folders === 1 ? 'folder' : 'folders'}` : null,
        `${counts.campaigns} ${counts.campaigns === 1 ? 'campaign' : 'campaigns'}`,
      ]
        .filter(Boolean)
        .join(' · ');

  const emptyState = (() => {
    if (search.trim()) {
      return (
        <EmptyState
          icon={SearchX}
          title={`No campaigns match “${search.trim()}”`}
          action={
            <Button size="sm" onClick={() => setSearch('')}>
              Clear search
            </Button>
          }
        >
          The search looks at names in {folderName === 'Campaigns' ? 'the top level' : `“${folderName}”`}.
        </EmptyState>
      );
    }
    if (dir !== 0) {
      return (
        <EmptyState
          icon={FolderOpen}
          title="This folder is empty"
          action={
            <Button
              size="sm"
              icon={<CornerLeftUp size={14} aria-hidden />}
              onClick={() => openDir(parent.campaignId)}
            >
              Back to {parent.name}
            </Button>
          }
        >
          Drag campaigns onto this folder in {parent.name}, or choose <strong>Move to…</strong> in a
          campaign's menu.
        </EmptyState>
      );
    }
    return (
      <EmptyState
        icon={Megaphone}
        title="No campaigns yet"
        action={
          <div className="cl-empty-actions">
            <Button
              variant="primary"
              icon={<Plus size={16} aria-hidden />}
              onClick={() => navigate('/basic-info')}
            >
              New campaign
            </Button>
            <Button icon={<FileSpreadsheet size={16} aria-hidden />} onClick={() => setUpload('csv')}>
              Upload CSV
            </Button>
          </div>
        }
      >
        Create your first campaign to get a tracking link, or bring campaigns in from a CSV file or an export
        ZIP.
      </EmptyState>
    );
  })();

  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Organise campaigns in folders, open one to edit it, or follow its statistics."
        actions={
          <>
            <Button icon={<FileSpreadsheet size={16} aria-hidden />} onClick={() => setUpload('csv')}>
              Upload CSV
            </Button>
            <Button icon={<FileArchive size={16} aria-hidden />} onClick={() => setUpload('zip')}>
              Import ZIP
            </Button>
            <Button
              icon={<FolderPlus size={16} aria-hidden />}
              onClick={() => setFolderDialog({ mode: 'create', moveIds: [] })}
            >
              New folder
            </Button>
            <Button
              variant="primary"
              icon={<Plus size={16} aria-hidden />}
              onClick={() => navigate('/basic-info')}
              data-testid="new-campaign"
            >
              New campaign
            </Button>
          </>
        }
      />

      <section className="card campaigns-card" aria-label="Campaign list">
        <div className="campaigns-toolbar">
          <nav className="crumbs" aria-label="Folder path">
            <ol>
              <li>
                <button
                  type="button"
                  className={['crumb', isDropTarget('crumb', 0) && 'is-drop-target']
                    .filter(Boolean)
                    .join(' ')}
                  onClick={() => openDir(0)}
                  aria-current={dir === 0 ? 'location' : undefined}
                  data-testid="crumb-0"
                  {...dropProps({ kind: 'crumb', id: 0 })}
                >
                  <House size={14} aria-hidden />
                  <span>Campaigns</span>
                </button>
              </li>
              {trail.map((c) => (
                <li key={c.campaignId}>
                  <ChevronRight size={14} aria-hidden className="crumb-sep" />
                  <button
                    type="button"
                    className={['crumb', isDropTarget('crumb', c.campaignId) && 'is-drop-target']
                      .filter(Boolean)
                      .join(' ')}
                    onClick={() => openDir(c.campaignId)}
                    aria-current={c.campaignId === dir ? 'location' : undefined}
                    data-testid={`crumb-${c.campaignId}`}
                    {...dropProps({ kind: 'crumb', id: c.campaignId })}
                  >
                    <Folder size={14} aria-hidden />
                    <span>{c.name}</span>
                  </button>
                </li>
              ))}
            </ol>
            <span className="crumbs-summary" aria-live="polite">
              {summary}
            </span>
          </nav>
          <div className="campaigns-filters">
            <div className="cl-search">
              <Search size={15} aria-hidden className="cl-search-icon" />
              <input
                ref={searchRef}
                type="search"
                className="input input-sm"
                placeholder="Search by name"
                aria-label="Search campaigns by name"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Escape') setSearch('');
                }}
                data-testid="campaign-search"
              />
            </div>
            <label className="cl-switch">
              <input
                type="checkbox"
                role="switch"
                aria-checked={showDeleted}
                checked={showDeleted}
                onChange={(e) => setShowDeleted(e.target.checked)}
                data-testid="show-deleted"
              />
              <span className="cl-switch-track" aria-hidden />
              <span>Show deleted</span>
            </label>
          </div>
        </div>

        {selected.size > 0 && (
          <div className="bulk-bar" role="toolbar" aria-label="Selected campaigns">
            <span className="bulk-count">
              <strong>{selected.size}</strong> selected
            </span>
            <Button
              size="sm"
              icon={<FolderInput size={14} aria-hidden />}
              disabled={!liveSelected.length}
              onClick={() => setMoveDialog(liveSelected)}
            >
              Move to…
            </Button>
            <Button
              size="sm"
              icon={<FolderPlus size={14} aria-hidden />}
              disabled={!liveSelected.length}
              onClick={() =>
                setFolderDialog({
                  mode: 'create',
                  moveIds: liveSelected.map((r) => r.campaignId),
                  lead: <>The new folder will hold the {liveSelected.length} selected items.</>,
                })
              }
            >
              New folder with selection
            </Button>
            <Button
              size="sm"
              icon={<Download size={14} aria-hidden />}
              busy={bulkBusy === 'export'}
              onClick={() => void exportMany(selectedRows)}
              data-testid="bulk-export"
            >
              Export
            </Button>
            {liveSelected.length > 0 && (
              <Button
                size="sm"
                variant="ghost"
                className="btn-danger-ghost"
                icon={<Trash2 size={14} aria-hidden />}
                busy={bulkBusy === 'delete'}
                onClick={() => void remove(liveSelected, false)}
                data-testid="bulk-delete"
              >
                Delete
              </Button>
            )}
            <Button
              size="sm"
              variant="ghost"
              className="btn-danger-ghost"
              icon={<Trash2 size={14} aria-hidden />}
              onClick={() => void remove(selectedRows, true)}
            >
              Delete permanently
            </Button>
            <button
              type="button"
              className="icon-btn bulk-clear"
              onClick={() => setSelected(new Set())}
              aria-label="Clear selection"
              title="Clear selection"
            >
              <X size={16} aria-hidden />
            </button>
          </div>
        )}

        {folderMissing ? (
          <div className="card-body">
            <Alert>
              This folder no longer exists or you cannot open it.{' '}
              <button type="button" className="link-button" onClick={() => openDir(0)}>
                Go to the top level
              </button>
            </Alert>
          </div>
        ) : error && !data ? (
          <div className="card-body">
            <Alert>{errorMessage(error)}</Alert>
          </div>
        ) : (
          <div className="table-wrap campaigns-table-wrap">
            <table className="table campaigns-table" aria-label={`Campaigns in ${folderName}`}>
              <thead>
                <tr>
                  <th scope="col" className="col-select">
                    <input
                      type="checkbox"
                      className="cl-checkbox"
                      checked={allVisibleSelected}
                      ref={(el) => {
                        if (el) el.indeterminate = someVisibleSelected && !allVisibleSelected;
                      }}
                      onChange={toggleAll}
                      disabled={!visible.length}
                      aria-label="Select all on this page"
                    />
                  </th>
                  <SortHeader
                    label="ID"
                    field="campaignId"
                    sortBy={sortBy}
                    onSort={setSortBy}
                    className="num col-id"
                  />
                  <SortHeader label="Name" field="name" sortBy={sortBy} onSort={setSortBy} />
                  <th scope="col">Type</th>
                  <th scope="col">Traffic source</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="actions">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {dir !== 0 && !loading && (
                  <tr
                    className={['parent-row', isDropTarget('crumb', parent.campaignId) && 'is-drop-target']
                      .filter(Boolean)
                      .join(' ')}
                    data-testid="parent-row"
                    {...dropProps({ kind: 'crumb', id: parent.campaignId })}
                  >
                    <td />
                    <td />
                    <td colSpan={5}>
                      <button
                        type="button"
                        className="parent-link"
                        onClick={() => openDir(parent.campaignId)}
                      >
                        <CornerLeftUp size={15} aria-hidden />
                        <span>Back to {parent.name}</span>
                      </button>
                      {dragging.length > 0 && <span className="cl-drop-hint">Drop here to move up</span>}
                    </td>
                  </tr>
                )}
                {loading
                  ? [0, 1, 2, 3, 4].map((i) => (
                      <tr key={i} className="skeleton-row" aria-hidden>
                        {[0, 1, 2, 3, 4, 5, 6].map((c) => (
                          <td key={c}>
                            <span className="skeleton" />
                          </td>
                        ))}
                      </tr>
                    ))
                  : visible.map((row) => {
                      const isFolder = row.is_dir === 1;
                      const deleted = row.deleted === 1;
                      const target = isDropTarget(isFolder ? 'folder' : 'campaign', row.campaignId);
                      const classes = [
                        isFolder ? 'is-folder' : 'is-campaign',
                        deleted && 'is-deleted',
                        selected.has(row.campaignId) && 'is-selected',
                        dragging.includes(row.campaignId) && 'is-dragging',
                        target && 'is-drop-target',
                      ]
                        .filter(Boolean)
                        .join(' ');
                      return (
                        <tr
                          key={row.campaignId}
                          className={classes}
                          draggable={!deleted}
                          onDragStart={(e) => onDragStart(e, row)}
                          onDragEnd={onDragEnd}
                          data-testid={`row-${row.campaignId}`}
                          data-name={row.name}
                          {...(deleted
                            ? {}
                            : dropProps({ kind: isFolder ? 'folder' : 'campaign', id: row.campaignId }))}
                        >
                          <td className="col-select">
                            <input
                              type="checkbox"
                              className="cl-checkbox"
                              checked={selected.has(row.campaignId)}
                              onChange={() => toggle(row.campaignId)}
                              aria-label={`Select ${row.name}`}
                            />
                          </td>
                          <td className="num col-id cell-muted">{row.campaignId}</td>
                          <td className="col-name">
                            <div className="name-cell">
                              {!deleted && <GripVertical size={14} aria-hidden className="drag-grip" />}
                              {isFolder ? (
                                <Folder size={16} aria-hidden className="folder-icon" />
                              ) : (
                                <Megaphone size={15} aria-hidden className="campaign-icon" />
                              )}
                              {deleted ? (
                                <span
                                  className="name-text is-disabled"
                                  title="A deleted campaign cannot be opened. Restore it first."
                                >
                                  {row.name}
                                </span>
                              ) : (
                                <button
                                  type="button"
                                  className="name-link"
                                  onClick={() => open(row)}
                                  data-testid={`open-${row.campaignId}`}
                                >
                                  {row.name}
                                </button>
                              )}
                              {target && (
                                <span className="cl-drop-hint">
                                  {isFolder ? 'Move into folder' : 'New folder with both'}
                                </span>
                              )}
                            </div>
                          </td>
                          <td className="cell-muted">
                            {isFolder ? 'Folder' : (TYPE_LABELS[row.campaignType] ?? row.campaignType)}
                          </td>
                          <td className="cell-muted">
                            {isFolder
                              ? '—'
                              : (SOURCE_LABELS[row.trafficSource] ?? (row.trafficSource || '—'))}
                          </td>
                          <td>
                            <StatusBadge row={row} />
                          </td>
                          <td className="actions">
                            <div className="cl-row-actions">
                              {busyRow === row.campaignId && (
                                <span className="cl-row-busy" aria-label="Working…" role="status" />
                              )}
                              {!isFolder && !deleted && (
                                <Link
                                  to={`/stats/${row.campaignId}`}
                                  className="icon-btn"
                                  aria-label={`Statistics of ${row.name}`}
                                  title="Statistics"
                                  data-testid={`stats-${row.campaignId}`}
                                >
                                  <ChartColumn size={16} aria-hidden />
                                </Link>
                              )}
                              {deleted && (
                                <button
                                  type="button"
                                  className="icon-btn"
                                  aria-label={`Restore ${row.name}`}
                                  title="Restore"
                                  onClick={() => void undo([row.campaignId])}
                                  data-testid={`restore-${row.campaignId}`}
                                >
                                  <RotateCcw size={16} aria-hidden />
                                </button>
                              )}
                              <RowMenu
                                label={`Actions for ${row.name}`}
                                items={menuFor(row)}
                                testId={`menu-${row.campaignId}`}
                              />
                            </div>
                          </td>
                        </tr>
                      );
                    })}
              </tbody>
            </table>
            {!loading && rows.length === 0 && emptyState}
          </div>
        )}

        {!loading && !folderMissing && rows.length > 0 && (
          <footer className="campaigns-footer">
            <p className="campaigns-tip">
              Drag a campaign onto a folder to move it, onto another campaign to put both in a new folder, or
              onto the path above to move it up.
            </p>
            <div className="cl-pager">
              <label className="cl-pager-length">
                <span>Rows per page</span>
                <select
                  className="input select input-sm"
                  value={pageLength}
                  onChange={(e) => setPageLength(Number(e.target.value))}
                  data-testid="page-length"
                >
                  {PAGE_LENGTHS.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
              <span className="cl-pager-range">
                {(current - 1) * pageLength + 1}–{Math.min(current * pageLength, rows.length)} of{' '}
                {rows.length}
              </span>
              <button
                type="button"
                className="icon-btn"
                onClick={() => setPage(current - 1)}
                disabled={current <= 1}
                aria-label="Previous page"
              >
                <ChevronLeft size={16} aria-hidden />
              </button>
              <button
                type="button"
                className="icon-btn"
                onClick={() => setPage(current + 1)}
                disabled={current >= pages}
                aria-label="Next page"
              >
                <ChevronRight size={16} aria-hidden />
              </button>
            </div>
          </footer>
        )}
      </section>

      <FolderNameDialog
        open={folderDialog !== null}
        mode={folderDialog?.mode ?? 'create'}
        initialName={folderDialog?.mode === 'rename' ? folderDialog.folder.name : ''}
        lead={folderDialog?.mode === 'create' ? folderDialog.lead : undefined}
        onClose={() => setFolderDialog(null)}
        onSubmit={async (name) => {
          if (!folderDialog) return;
          if (folderDialog.mode === 'rename') await rename(folderDialog.folder, name);
          else await createFolder(name, folderDialog.moveIds);
        }}
      />
      <MoveToDialog
        open={moveDialog !== null}
        moving={moveDialog ?? []}
        from={dir}
        onClose={() => setMoveDialog(null)}
        onMove={async (to, label) => {
          await move(
            (moveDialog ?? []).map((r) => r.campaignId),
            to,
            label,
          );
          setMoveDialog(null);
        }}
      />
      <UploadDialog
        kind={upload}
        dir={dir}
        folderName={folderName}
        onClose={() => setUpload(null)}
        onUploaded={(kind, answer) => void onUploaded(kind, answer)}
      />
    </>
  );
}
