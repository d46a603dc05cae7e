// The campaigns table: sortable header, the "back to parent" drop row, skeleton rows while
// loading, one row per folder or campaign (drag handle, status, quick links, action menu), and
// the pager under it.
import {
  ArrowDown,
  ArrowUp,
  ArrowUpDown,
  ChartColumn,
  ChevronLeft,
  ChevronRight,
  CornerLeftUp,
  Folder,
  GripVertical,
  Megaphone,
  RotateCcw,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LIST_METRIC_LABELS } from '../../../../schema/across-campaigns-api';
import { undefinedRatios } from '../../../../schema/undefined-ratios';
import { ActionsHeader } from '../../components/actions-header';
import { NoValue } from '../../components/data-table/no-value';
import type { CampaignListItem } from './api';
import type { Crumb } from './folder-trail';
import { formatMetric, type ListMetric, type ListMetrics, type MetricSort, signed } from './list-metrics';
import { PAGE_LENGTHS, type SortBy } from './prefs';
import { type MenuItem, RowMenu } from './row-menu';
import type { CampaignDrag } from './use-campaign-drag';

export const TYPE_LABELS: Record<string, string> = {
  landing_page: 'Landing page',
  direct_link: 'Direct link',
  rotator: 'Rotator',
  multiple_path_type: 'Multiple paths',
  multiple_option_type: 'Multiple options',
};

export const SOURCE_LABELS: Record<string, string> = {
  trrcpc: 'TRR CPC',
  crane: 'Crane',
  trrde: 'TRR DE',
  blaze: 'Blaze',
  facebook: 'Facebook',
  tiktok: 'TikTok',
  taboola: 'Taboola',
  mediago: 'MediaGo',
  liveintent: 'LiveIntent',
};

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

type RowProps = {
  row: CampaignListItem;
  selected: boolean;
  busy: boolean;
  drag: CampaignDrag;
  onToggle: (id: number) => void;
  onOpen: (row: CampaignListItem) => void;
  onRestore: (ids: number[]) => void;
  menu: MenuItem[];
  metricCols: readonly ListMetric[];
  metrics: ListMetrics | undefined;
  /** The folder path under the name, for hits of a search across folders. */
  folder: string | null;
  onOpenDir: (id: number) => void;
  /** The campaign just created or cloned: marked, so it is found at a glance. */
  isNew?: boolean;
};

function MetricCells({ cols, metrics }: { cols: readonly ListMetric[]; metrics: ListMetrics | undefined }) {
  // ROI, CR and EPC over a 0 (no spend, no visits) have no value: "—" and why (issue 27).
  const none = metrics ? undefinedRatios(metrics) : {};
  return cols.map((m) => {
    const v = metrics?.[m];
    const why = none[m];
    const tone =
      v !== undefined && !why && signed(m) && v !== 0 ? (v > 0 ? ' is-positive' : ' is-negative') : '';
    return (
      <td key={m} className={`num cl-metric${tone}`} data-metric={m}>
        {v === undefined ? (
          <span className="cell-muted">—</span>
        ) : why ? (
          <NoValue why={why} />
        ) : (
          formatMetric(m, v)
        )}
      </td>
    );
  });
}

function CampaignRow(props: RowProps) {
  const { row, selected, busy, drag, onToggle, onOpen, onRestore, menu } = props;
  const isFolder = row.is_dir === 1;
  const deleted = row.deleted === 1;
  const target = drag.isDropTarget(isFolder ? 'folder' : 'campaign', row.campaignId);
  const classes = [
    isFolder ? 'is-folder' : 'is-campaign',
    deleted && 'is-deleted',
    selected && 'is-selected',
    drag.dragging.includes(row.campaignId) && 'is-dragging',
    target && 'is-drop-target',
    props.isNew && 'is-new',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <tr
      className={classes}
      draggable={!deleted}
      onDragStart={(e) => drag.onDragStart(e, row)}
      onDragEnd={drag.onDragEnd}
      data-testid={`row-${row.campaignId}`}
      data-name={row.name}
      {...(deleted ? {} : drag.dropProps({ kind: isFolder ? 'folder' : 'campaign', id: row.campaignId }))}
    >
      <td className="col-select">
        <input
          type="checkbox"
          className="cl-checkbox"
          checked={selected}
          onChange={() => onToggle(row.campaignId)}
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
              title={row.name}
              onClick={() => onOpen(row)}
              data-testid={`open-${row.campaignId}`}
            >
              {row.name}
            </button>
          )}
          {props.isNew && <span className="badge badge-accent cl-badge-new">New</span>}
          {target && (
            <span className="cl-drop-hint">{isFolder ? 'Move into folder' : 'New folder with both'}</span>
          )}
        </div>
        {props.folder !== null && (
          <button
            type="button"
            className="cl-hit-folder"
            onClick={() => props.onOpenDir(row.dir)}
            data-testid={`hit-folder-${row.campaignId}`}
          >
            <Folder size={12} aria-hidden />
            <span>{props.folder || 'Campaigns (top level)'}</span>
          </button>
        )}
      </td>
      <td className="cell-muted">
        {isFolder ? 'Folder' : (TYPE_LABELS[row.campaignType] ?? row.campaignType)}
      </td>
      <td className="cell-muted">
        {isFolder ? '—' : (SOURCE_LABELS[row.trafficSource] ?? (row.trafficSource || '—'))}
      </td>
      <td>
        <StatusBadge row={row} />
      </td>
      <MetricCells cols={props.metricCols} metrics={props.metrics} />
      <td className="actions">
        <div className="cl-row-actions">
          {busy && <span className="cl-row-busy" aria-label="Working…" role="status" />}
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
              onClick={() => onRestore([row.campaignId])}
              data-testid={`restore-${row.campaignId}`}
            >
              <RotateCcw size={16} aria-hidden />
            </button>
          )}
          <RowMenu label={`Actions for ${row.name}`} items={menu} testId={`menu-${row.campaignId}`} />
        </div>
      </td>
    </tr>
  );
}

type TableProps = {
  folderName: string;
  /** The campaign just created or cloned (its row is marked). */
  newId?: number | null;
  dir: number;
  parent: Crumb;
  loading: boolean;
  /** The rows of the current page. */
  visible: readonly CampaignListItem[];
  selected: ReadonlySet<number>;
  sortBy: SortBy;
  onSort: (s: SortBy) => void;
  busyRow: number | null;
  drag: CampaignDrag;
  onToggle: (id: number) => void;
  /** Selects (true) or unselects every row of the page. */
  onSelectPage: (select: boolean) => void;
  onOpen: (row: CampaignListItem) => void;
  onOpenDir: (id: number) => void;
  onRestore: (ids: number[]) => void;
  menuFor: (row: CampaignListItem) => MenuItem[];
  /** Shown under the header when the list has no rows. */
  empty: ReactNode;
  metricCols: readonly ListMetric[];
  metricsOf: (id: number) => ListMetrics | undefined;
  metricSort: MetricSort;
  onMetricSort: (sort: MetricSort) => void;
  /** The footer's totals; null while the numbers load. */
  totals: ListMetrics | null;
  /** Hits of a search across folders show their folder. */
  folderOf: ((row: CampaignListItem) => string) | null;
};

function MetricHeader({
  metric,
  sort,
  onSort,
}: {
  metric: ListMetric;
  sort: MetricSort;
  onSort: (s: MetricSort) => void;
}) {
  const active = sort?.key === metric;
  const Icon = !active ? ArrowUpDown : sort.desc ? ArrowDown : ArrowUp;
  return (
    <th
      scope="col"
      className="num cl-metric"
      aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}
    >
      <button
        type="button"
        className={active ? 'th-sort is-active' : 'th-sort'}
        // Numbers are read biggest first, so the first press sorts descending.
        onClick={() => onSort({ key: metric, desc: active ? !sort.desc : true })}
        data-testid={`sort-${metric}`}
      >
        <span>{LIST_METRIC_LABELS[metric]}</span>
        <Icon size={13} aria-hidden />
      </button>
    </th>
  );
}

export function CampaignsTable(props: TableProps) {
  const { folderName, dir, parent, loading, visible, selected, sortBy, drag, metricCols } = props;
  const onSort = (s: SortBy) => {
    props.onMetricSort(null);
    props.onSort(s);
  };
  const idSort = props.metricSort ? ('' as SortBy) : sortBy;
  const columnCount = 7 + metricCols.length;
  const allVisibleSelected = visible.length > 0 && visible.every((r) => selected.has(r.campaignId));
  const someVisibleSelected = visible.some((r) => selected.has(r.campaignId));
  return (
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
                onChange={() => props.onSelectPage(!allVisibleSelected)}
                disabled={!visible.length}
                aria-label="Select all on this page"
              />
            </th>
            <SortHeader
              label="ID"
              field="campaignId"
              sortBy={idSort}
              onSort={onSort}
              className="num col-id"
            />
            <SortHeader label="Name" field="name" sortBy={idSort} onSort={onSort} />
            <th scope="col">Type</th>
            <th scope="col">Traffic source</th>
            <th scope="col">Status</th>
            {metricCols.map((m) => (
              <MetricHeader key={m} metric={m} sort={props.metricSort} onSort={props.onMetricSort} />
            ))}
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {dir !== 0 && !loading && (
            <tr
              className={['parent-row', drag.isDropTarget('crumb', parent.campaignId) && 'is-drop-target']
                .filter(Boolean)
                .join(' ')}
              data-testid="parent-row"
              {...drag.dropProps({ kind: 'crumb', id: parent.campaignId })}
            >
              <td />
              <td />
              <td colSpan={columnCount - 2}>
                <button
                  type="button"
                  className="parent-link"
                  onClick={() => props.onOpenDir(parent.campaignId)}
                >
                  <CornerLeftUp size={15} aria-hidden />
                  <span>Back to {parent.name}</span>
                </button>
                {drag.dragging.length > 0 && <span className="cl-drop-hint">Drop here to move up</span>}
              </td>
            </tr>
          )}
          {loading
            ? [0, 1, 2, 3, 4].map((i) => (
                <tr key={i} className="skeleton-row" aria-hidden>
                  {['select', 'id', 'name', 'type', 'source', 'status', ...metricCols, 'actions'].map((c) => (
                    <td key={c}>
                      <span className="skeleton" />
                    </td>
                  ))}
                </tr>
              ))
            : visible.map((row) => (
                <CampaignRow
                  key={row.campaignId}
                  row={row}
                  selected={selected.has(row.campaignId)}
                  busy={props.busyRow === row.campaignId}
                  drag={drag}
                  onToggle={props.onToggle}
                  onOpen={props.onOpen}
                  onRestore={props.onRestore}
                  menu={props.menuFor(row)}
                  metricCols={metricCols}
                  metrics={props.metricsOf(row.campaignId)}
                  folder={props.folderOf ? props.folderOf(row) : null}
                  onOpenDir={props.onOpenDir}
                  isNew={props.newId === row.campaignId}
                />
              ))}
        </tbody>
        {!loading && visible.length > 0 && metricCols.length > 0 && (
          <tfoot>
            <tr className="cl-totals" data-testid="list-totals">
              <td />
              <th scope="row" colSpan={5} className="cl-totals-label">
                Total
              </th>
              <MetricCells cols={metricCols} metrics={props.totals ?? undefined} />
              <td />
            </tr>
          </tfoot>
        )}
      </table>
      {props.empty}
    </div>
  );
}

type PagerProps = {
  page: number;
  pages: number;
  pageLength: number;
  total: number;
  setPage: (page: number) => void;
  setPageLength: (length: number) => void;
};

export function CampaignsFooter({ page, pages, pageLength, total, setPage, setPageLength }: PagerProps) {
  return (
    <footer className="campaigns-footer">
      <p className="campaigns-tip">
        Drag a campaign onto a folder to move it, onto another campaign to put both in a new folder, or onto
        the path above to move it up.
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
          {(page - 1) * pageLength + 1}–{Math.min(page * pageLength, total)} of {total}
        </span>
        <button
          type="button"
          className="icon-btn"
          onClick={() => setPage(page - 1)}
          disabled={page <= 1}
          aria-label="Previous page"
        >
          <ChevronLeft size={16} aria-hidden />
        </button>
        <button
          type="button"
          className="icon-btn"
          onClick={() => setPage(page + 1)}
          disabled={page >= pages}
          aria-label="Next page"
        >
          <ChevronRight size={16} aria-hidden />
        </button>
      </div>
    </footer>
  );
}
