import { GitBranch, ShoppingBag } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { NO_VALUE_REASONS } from '../../../../schema/undefined-ratios';
import type { OfferRecord, PathRecord } from '../../api/endpoints';
import { type Column, DataTable, formatCell } from '../../components/data-table/data-table';
import { usePaging } from '../../components/data-table/page-length';
import { pageRows, type SortState, sortRows } from '../../components/data-table/sorting';
import { statusColumn } from '../../components/data-table/status-switch';
import { EmptyState } from '../../components/empty-state';
import { nameColumn } from './item-columns';
import { DeletedToggle, rowTone } from './landing-table';

type Placement = { visits: number; conversion: number; cr: number; active: number; deleted: number };
type PlacementTotal = { visitsTotal: number; conversionsTotal: number; crTotal: number; revenue?: number };

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

const crColumn = <R extends Placement>(): Column<R> => ({
  key: 'cr',
  label: 'CR',
  kind: 'percent',
  noValue: (r) => (r.visits ? undefined : NO_VALUE_REASONS.visits),
});

/** An offer or path table: the rows sorted and paged here, totals in the footer, a Show deleted toggle. */
function PlacementTable<R extends Placement>({
  id,
  label,
  columns,
  rowKey,
  total,
  empty,
  rows,
  loading,
  showDeleted,
  onShowDeletedChange,
}: Omit<Common<R>, 'onToggle' | 'busyIds'> & {
  id: string;
  label: string;
  columns: Column<R>[];
  rowKey: (row: R) => number;
  total: PlacementTotal | null;
  empty: ReactNode;
}) {
  const t = useLocalTable(rows, { key: 'visits', order: 'desc' });
  return (
    <DataTable<R>
      id={id}
      label={label}
      columns={columns}
      rows={t.visible}
      rowKey={rowKey}
      loading={loading}
      footer={
        total
          ? {
              visits: formatCell('int', total.visitsTotal),
              conversion: formatCell('int', total.conversionsTotal),
              cr: formatCell('percent', total.crTotal),
              ...(columns.some((c) => c.key === 'revenue')
                ? { revenue: total.revenue === undefined ? '' : formatCell('money', total.revenue) }
                : {}),
            }
          : null
      }
      sort={t.sort}
      onSortChange={t.setSort}
      page={t.page}
      perPage={t.perPage}
      totalCount={rows.length}
      onPageChange={t.setPage}
      toolbar={
        <DeletedToggle id={`${id}-show-deleted`} checked={showDeleted} onChange={onShowDeletedChange} />
      }
      rowClassName={rowTone}
      maxHeight={420}
      empty={empty}
    />
  );
}

export function OfferTable({
  onToggle,
  busyIds,
  ...rest
}: Common<OfferRecord> & {
  total: PlacementTotal | null;
}) {
  const columns: Column<OfferRecord>[] = [
    nameColumn<OfferRecord>('offer_name', 'Offer page', (r) => r.offer_name),
    {
      key: 'visits',
      label: 'Visits',
      kind: 'int',
      hint: 'Clicks from the landing pages, or visits sent straight to the offer',
    },
    { key: 'conversion', label: 'Purchase Event', kind: 'int' },
    crColumn<OfferRecord>(),
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
    <PlacementTable<OfferRecord>
      {...rest}
      id="offer"
      label="Offer pages"
      columns={columns}
      rowKey={(r) => r.offer_id}
      empty={
        <EmptyState icon={ShoppingBag} title="No offer pages">
          Add offer pages to the campaign to see which one earns.
        </EmptyState>
      }
    />
  );
}

export function PathTable({
  onToggle,
  busyIds,
  ...rest
}: Common<PathRecord> & {
  total: PlacementTotal | null;
}) {
  const columns: Column<PathRecord>[] = [
    nameColumn<PathRecord>('path_name', 'Path', (r) => r.path_name),
    { key: 'visits', label: 'Visits', kind: 'int' },
    { key: 'conversion', label: 'Purchase Event', kind: 'int' },
    crColumn<PathRecord>(),
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
    <PlacementTable<PathRecord>
      {...rest}
      id="path"
      label="Paths"
      columns={columns}
      rowKey={(r) => r.path_id}
      empty={
        <p className="dt-empty">
          <GitBranch size={14} aria-hidden /> No paths: visitors go straight to the landing pages. Add paths
          in the campaign to split traffic between groups of pages.
        </p>
      }
    />
  );
}
