import { FolderPlus, Plus } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useInstallationToday } from '../../api/hooks';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type DateRangeValue, initialRange } from '../../components/date-range/date-range';
import { PageHeader } from '../../components/page-header';
import { UploadButtons } from '../../components/upload-parts';
import { withToggled } from '../../lib/sets';
import { KEYS, readKey, removeKey, writeKey } from '../../lib/storage';
import { useDocumentTitle } from '../../lib/use-document-title';
import { type CampaignListItem, useCampaignList } from './api';
import { menuFor } from './campaign-menu';
import { CampaignsEmpty } from './campaigns-empty';
import { CampaignsFooter, CampaignsTable } from './campaigns-table';
import { BulkBar, CampaignsToolbar } from './campaigns-toolbar';
import { FolderNameDialog, MoveToDialog, UploadDialog } from './dialogs';
import { rememberFolder, rememberFolders, useFolderTrail } from './folder-trail';
import { hasFilters, type ListFilters, ListFiltersBar, NO_FILTERS, passes } from './list-filters';
import {
  type MetricSort,
  sortByMetric,
  sumMetrics,
  useCampaignMetrics,
  useMetricColumns,
} from './list-metrics';
import { forgetNewCampaign, pageOf, peekNewCampaign } from './new-campaign';
import { sortRows, useListPrefs } from './prefs';
import { errorMessage, useCampaignActions } from './use-campaign-actions';
import { useCampaignDrag } from './use-campaign-drag';

// /campaigns (spec 1 §2, §4, §5, §8, §9): the folder tree with a breadcrumb, folders first,
// sort by id or name, search, show deleted, page length; drag a campaign into a folder, onto
// the parent entry or onto another campaign (a new folder holding both), with "Move to…" as
// the keyboard's way; rename, delete with undo, permanent delete, reset statistics, clone,
// export, CSV upload and ZIP import. This file holds the list's state; the table, toolbar,
// actions, drag and drop and menus live beside it.

type FolderDialog =
  | { mode: 'create'; moveIds: number[]; lead?: ReactNode }
  | { mode: 'rename'; folder: CampaignListItem }
  | null;

export function CampaignsScreen() {
  useDocumentTitle('Campaigns');
  const navigate = useNavigate();
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
  const [filters, setFilters] = useState<ListFilters>(NO_FILTERS);
  const [metricSort, setMetricSort] = useState<MetricSort>(null);
  const { columns, toggle: toggleColumn } = useMetricColumns();
  const today = useInstallationToday();
  const [range, setRange] = useState<DateRangeValue | null>(null);
  useEffect(() => {
    if (today && !range) setRange(initialRange('today', today));
  }, [today, range]);
  const metrics = useCampaignMetrics(range);
  const metricsById = useMemo(
    () => new Map((metrics.data?.rows ?? []).map((r) => [r.campaignId, r])),
    [metrics.data],
  );
  const metricsOf = (id: number) => metricsById.get(id)?.metrics;
  // A search or a filter looks in every folder (the metrics answer lists them all).
  const acrossFolders = search.trim() !== '' || hasFilters(filters);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [folderDialog, setFolderDialog] = useState<FolderDialog>(null);
  const [moveDialog, setMoveDialog] = useState<CampaignListItem[] | null>(null);
  const [upload, setUpload] = useState<'csv' | 'zip' | null>(null);

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
  useEffect(() => setPage(1), [search, sortBy, pageLength, filters, metricSort]);

  const loaded = answerForDir ? data.result : null;
  const hits = useMemo((): CampaignListItem[] | null => {
    if (!acrossFolders || !metrics.data) return null;
    const q = search.trim().toLowerCase();
    return metrics.data.rows
      .filter((r) => r.name.toLowerCase().includes(q) && passes(r, filters))
      .map((r) => ({ ...r, deleted: 0, offerPromotion: '' }));
  }, [acrossFolders, metrics.data, search, filters]);
  const allRows = useMemo(() => (acrossFolders ? hits : loaded) ?? [], [acrossFolders, hits, loaded]);
  useEffect(() => {
    if (!acrossFolders) rememberFolders(allRows);
  }, [allRows, acrossFolders]);
  const rows = useMemo(() => {
    const q = search.trim().toLowerCase();
    const found = q ? allRows.filter((r) => r.name.toLowerCase().includes(q)) : allRows;
    return metricSort
      ? sortByMetric(found, metricSort, (id) => metricsById.get(id)?.metrics)
      : sortRows(found, sortBy);
  }, [allRows, search, sortBy, metricSort, metricsById]);
  // Rows that never overlap: a folder's numbers already hold those of its campaigns, so hits
  // of a search count campaigns only; the top level's totals come from the server in micros.
  const totals = useMemo(() => {
    if (!metrics.data) return null;
    if (!acrossFolders && dir === 0) return metrics.data.totals;
    const counted = acrossFolders ? rows.filter((r) => r.is_dir !== 1) : rows;
    return sumMetrics(counted.flatMap((r) => metricsById.get(r.campaignId)?.metrics ?? []));
  }, [metrics.data, acrossFolders, dir, rows, metricsById]);
  const pages = Math.max(1, Math.ceil(rows.length / pageLength));
  // A campaign just made opens on its page, once, marked and named in a line above the table.
  const [fresh, setFresh] = useState<{ id: number; shown: boolean } | null>(() => {
    const id = peekNewCampaign();
    return id ? { id, shown: false } : null;
  });
  const freshPage = fresh ? pageOf(rows, fresh.id, pageLength) : null;
  useEffect(() => {
    if (!fresh || fresh.shown || freshPage === null) return;
    setPage(freshPage);
    setFresh({ ...fresh, shown: true });
    forgetNewCampaign();
  }, [fresh, freshPage]);
  const freshRow = fresh && freshPage !== null ? rows.find((r) => r.campaignId === fresh.id) : undefined;
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

  const clearSelection = () => setSelected(new Set());
  const actions = useCampaignActions({
    dir,
    clearSelection,
    closeFolderDialog: () => setFolderDialog(null),
    closeUpload: () => setUpload(null),
    onCreated: (id) => setFresh({ id, shown: false }),
  });
  const drag = useCampaignDrag({
    dir,
    byId,
    trail,
    selected,
    liveSelected,
    move: actions.move,
    createFolderWith: (moveIds, lead) => setFolderDialog({ mode: 'create', moveIds, lead }),
  });

  const rowMenu = (row: CampaignListItem) =>
    menuFor(row, {
      ...actions,
      open,
      openStats: (r) => navigate(`/stats/${r.campaignId}`),
      rename: (folder) => setFolderDialog({ mode: 'rename', folder }),
      moveTo: setMoveDialog,
    });

  const selectPage = (select: boolean) =>
    setSelected((s) =>
      withToggled(
        s,
        visible.map((r) => r.campaignId),
        select,
      ),
    );
  const toggle = (id: number) => setSelected((s) => withToggled(s, [id]));

  const folderMissing = error instanceof ApiError && error.status === 404 && dir !== 0;
  const loading = acrossFolders ? !metrics.data : (isLoading || !answerForDir) && !error;
  const counts = {
    folders: allRows.filter((r) => r.is_dir === 1 && r.deleted === 0).length,
    campaigns: allRows.filter((r) => r.is_dir !== 1 && r.deleted === 0).length,
  };
  const summary = loading
    ? 'Loading…'
    : acrossFolders
      ? `${rows.length} ${rows.length === 1 ? 'match' : 'matches'} in all folders`
      : [
          counts.folders ? `${counts.folders} ${counts.folders === 1 ? 'folder' : 'folders'}` : null,
          `${counts.campaigns} ${counts.campaigns === 1 ? 'campaign' : 'campaigns'}`,
        ]
          .filter(Boolean)
          .join(' · ');

  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Organise campaigns in folders, open one to edit it, or follow its statistics."
        actions={
          <>
            <UploadButtons onChoose={setUpload} />
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
        <CampaignsToolbar
          dir={dir}
          trail={trail}
          summary={summary}
          drag={drag}
          onOpenDir={openDir}
          search={search}
          setSearch={setSearch}
          showDeleted={showDeleted}
          setShowDeleted={setShowDeleted}
        />
        <ListFiltersBar
          range={range}
          today={today}
          onRange={setRange}
          columns={columns}
          onToggleColumn={toggleColumn}
          filters={filters}
          onFilters={setFilters}
        />

        {selected.size > 0 && (
          <BulkBar
            count={selected.size}
            selectedRows={selectedRows}
            liveSelected={liveSelected}
            bulkBusy={actions.bulkBusy}
            onMoveTo={setMoveDialog}
            onNewFolderWith={(live) =>
              setFolderDialog({
                mode: 'create',
                moveIds: live.map((r) => r.campaignId),
                lead: <>The new folder will hold the {live.length} selected items.</>,
              })
            }
            onExport={(targets) => void actions.exportMany(targets)}
            onDelete={(targets, permanent) => void actions.remove(targets, permanent)}
            onClear={clearSelection}
          />
        )}

        {freshRow && freshPage !== null && (
          <p className="cl-new-note" role="status" data-testid="new-campaign-note">
            <span>
              New campaign “{freshRow.name}” is on page {freshPage} of {pages}, marked New.
            </span>
            {freshPage !== current && (
              <button type="button" className="link-button" onClick={() => setPage(freshPage)}>
                Show it
              </button>
            )}
            <button type="button" className="link-button" onClick={() => setFresh(null)}>
              Dismiss
            </button>
          </p>
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
          <CampaignsTable
            folderName={folderName}
            newId={fresh?.id ?? null}
            dir={dir}
            parent={parent}
            loading={loading}
            visible={visible}
            selected={selected}
            sortBy={sortBy}
            onSort={setSortBy}
            busyRow={actions.busyRow}
            drag={drag}
            onToggle={toggle}
            onSelectPage={selectPage}
            onOpen={open}
            onOpenDir={openDir}
            onRestore={(ids) => void actions.undo(ids)}
            menuFor={rowMenu}
            metricCols={columns}
            metricsOf={metricsOf}
            metricSort={metricSort}
            onMetricSort={setMetricSort}
            totals={totals}
            folderOf={acrossFolders ? (r) => metricsById.get(r.campaignId)?.folder ?? '' : null}
            empty={
              !loading && rows.length === 0 ? (
                <CampaignsEmpty
                  search={search}
                  clearSearch={() => setSearch('')}
                  dir={dir}
                  folderName={folderName}
                  parent={parent}
                  onOpenDir={openDir}
                  onNewCampaign={() => navigate('/basic-info')}
                  onUploadCsv={() => setUpload('csv')}
                />
              ) : null
            }
          />
        )}

        {!loading && !folderMissing && rows.length > 0 && (
          <CampaignsFooter
            page={current}
            pages={pages}
            pageLength={pageLength}
            total={rows.length}
            setPage={setPage}
            setPageLength={setPageLength}
          />
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
          if (folderDialog.mode === 'rename') await actions.rename(folderDialog.folder, name);
          else await actions.createFolder(name, folderDialog.moveIds);
        }}
      />
      <MoveToDialog
        open={moveDialog !== null}
        moving={moveDialog ?? []}
        from={dir}
        onClose={() => setMoveDialog(null)}
        onMove={async (to, label) => {
          await actions.move(
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
        onUploaded={(kind, answer) => void actions.onUploaded(kind, answer)}
      />
    </>
  );
}
