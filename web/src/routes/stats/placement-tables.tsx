import { GitBranch, ShoppingBag } from 'lucide-react';
import { useState } from 'react';
import { NO_VALUE_REASONS } from '../../../../schema/undefined-ratios';
import type { OfferRecord, PathRecord } from '../../api/endpoints';
import { type Column, DataTable, formatCell } from '../../components/data-table/data-table';
import { usePaging } from '../../components/data-table/page-length';
import { pageRows, type SortState, sortRows } from '../../components/data-table/sorting';
import { statusColumn } from '../../components/data-table/status-switch';
import { EmptyState } from '../../components/empty-state';
import { DeletedToggle, rowTone } from './landing-table';

type Common<R> = {
  rows: R[];
  loading: boolean;
  showDeleted: boolean;
  onShowDeletedChange: (show: boolean) => void;
  onToggle: (row: R, active: boolean) => void;
  busyIds: ReadonlySet<number>;
};

/** Rows all in the browser: sorted and paged here with the shared page length. */
function useLocalTable<R>(rows: R[], initial: SortState) {
  const [sort, setSort] = useState<SortState>(initial);
  const { page, perPage, setPage } = usePaging();
  const sorted = sortRows(rows, sort, (r, k) => (r as Record<string, unknown>)[k]);
  return {
    sort,
    setSort: (s: SortState) => {
      setSort(s);
      setPage(1);
    },
    page: Math.min(page, Math.max(1, Math.ceil(rows.length / perPage))),
    perPage,
    setPage,
    visible: pageRows(sorted, page, perPage),
  };
}

export function OfferTable({
  rows,
  total,
  loading,
  showDeleted,
  onShowDeletedChange,
  onToggle,
  busyIds,
}: Common<OfferRecord> & {
  total: { visitsTotal: number; conversionsTotal: number; crTotal: number; revenue?: number } | null;
}) {
  const t = useLocalTable(rows, { key: 'visits', order: 'desc' });
  const columns: Column<OfferRecord>[] = [
    {
      key: 'offer_name',
      label: 'Offer page',
      kind: 'text',
      render: (r) => (
        <div className="cell-name">
          <span className="cell-strong">{r.offer_name}</span>
          {r.deleted ? <span className="badge badge-neutral">Deleted</span> : null}
        </div>
      ),
    },
    {
      key: 'visits',
      label: 'Visits',
      kind: 'int',
      hint: 'Clicks from the landing pages, or visits sent straight to the offer',
    },
    { key: 'conversion', label: 'Purchase Event', kind: 'int' },
    {
      key: 'cr',
      label: 'CR',
      kind: 'percent',
      noValue: (r) => (r.visits ? undefined : NO_VALUE_REASONS.visits),
    },
    { key: 'revenue', label: 'Revenue', kind: 'money' },
    statusColumn<OfferRecord>({
      kind: 'Offer page',
      testPrefix: 'offer',
      idOf: (r) => r.offer_id,
      nameOf: (r) => r.offer_name,
      busyIds,
      onToggle,
    }),
  ];
  return (
    <DataTable<OfferRecord>
      id="offer"
      label="Offer pages"
      columns={columns}
      rows={t.visible}
      rowKey={(r) => r.offer_id}
      loading={loading}
      footer={
        total
          ? {
              visits: formatCell('int', total.visitsTotal),
              conversion: formatCell('int', total.conversionsTotal),
              cr: formatCell('percent', total.crTotal),
              revenue: total.revenue === undefined ? '' : formatCell('money', total.revenue),
            }
          : null
      }
      sort={t.sort}
      onSortChange={t.setSort}
      page={t.page}
      perPage={t.perPage}
      totalCount={rows.length}
      onPageChange={t.setPage}
      toolbar={<DeletedToggle id="offer-show-deleted" checked={showDeleted} onChange={onShowDeletedChange} />}
      rowClassName={rowTone}
      maxHeight={420}
      empty={
        <EmptyState icon={ShoppingBag} title="No offer pages">
          Add offer pages to the campaign to see which one earns.
        </EmptyState>
      }
    />
  );
}

export function PathTable({
  rows,
  total,
  loading,
  showDeleted,
  onShowDeletedChange,
  onToggle,
  busyIds,
}: Common<PathRecord> & {
  total: { visitsTotal: number; conversionsTotal: number; crTotal: number } | null;
}) {
  const t = useLocalTable(rows, { key: 'visits', order: 'desc' });
  const columns: Column<PathRecord>[] = [
    {
      key: 'path_name',
      label: 'Path',
      kind: 'text',
      render: (r) => (
        <div className="cell-name">
          <span className="cell-strong">{r.path_name}</span>
          {r.deleted ? <span className="badge badge-neutral">Deleted</span> : null}
        </div>
      ),
    },
    { key: 'visits', label: 'Visits', kind: 'int' },
    { key: 'conversion', label: 'Purchase Event', kind: 'int' },
    {
      key: 'cr',
      label: 'CR',
      kind: 'percent',
      noValue: (r) => (r.visits ? undefined : NO_VALUE_REASONS.visits),
    },
    statusColumn<PathRecord>({
      kind: 'Path',
      testPrefix: 'path',
      idOf: (r) => r.path_id,
      nameOf: (r) => r.path_name,
      busyIds,
      onToggle,
    }),
  ];
  return (
    <DataTable<PathRecord>
      id="path"
      label="Paths"
      columns={columns}
      rows={t.visible}
      rowKey={(r) => r.path_id}
      loading={loading}
      footer={
        total
          ? {
              visits: formatCell('int', total.visitsTotal),
              conversion: formatCell('int', total.conversionsTotal),
              cr: formatCell('percent', total.crTotal),
            }
          : null
      }
      sort={t.sort}
      onSortChange={t.setSort}
      page={t.page}
      perPage={t.perPage}
      totalCount={rows.length}
      onPageChange={t.setPage}
      toolbar={<DeletedToggle id="path-show-deleted" checked={showDeleted} onChange={onShowDeletedChange} />}
      rowClassName={rowTone}
      maxHeight={420}
      empty={
        <p className="dt-empty">
          <GitBranch size={14} aria-hidden /> No paths: visitors go straight to the landing pages. Add paths
          in the campaign to split traffic between groups of pages.
        </p>
      }
    />
  );
}
