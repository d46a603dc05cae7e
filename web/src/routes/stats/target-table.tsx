import { Columns3, Target } from 'lucide-react';
import type { StatsExtraToken, StatsMetric, StatsTotals, TargetRecord } from '../../api/endpoints';
import { ColumnPicker } from '../../components/data-table/column-picker';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { StatusSwitch } from '../../components/data-table/status-switch';
import { useBannerBulk } from './banner-bulk';
import { LineItemModal } from './line-item-modal';
import { queryTableProps, type TableQuery } from './query';
import { SearchEmptyState } from './search-empty-state';
import { groupedRowKey, TokenPicker } from './token-picker';
import { type CreativeSwitches, isAlertRow } from './use-creative-status';
import type { TargetState } from './use-statistics';

type Props = {
  state: TargetState;
  query: TableQuery;
  perPage: number;
  columns: Column<TargetRecord>[];
  onQueryChange: (query: TableQuery) => void;
  metrics: StatsMetric[];
  visibleMetrics: string[];
  onMetricsChange: (parameters: string[]) => void;
  tokens: StatsExtraToken[];
  selectedTokens: string[];
  onTokensChange: (parameters: string[]) => void;
  /** noInputTokens: rows without a value of a grouped token are left out. */
  hideEmpty?: boolean;
  onHideEmptyChange?: (hide: boolean) => void;
  footer: ReturnType<typeof import('./columns').targetFooter>;
  totals: StatsTotals | null;
  totalsLoading: boolean;
  /** The creative switch (LiveIntent, Blaze and CPC campaigns); absent for other sources. */
  creative?: CreativeSwitches;
};

/** The Status column: the creative's switch, 'Removed' for a removed creative. */
function creativeColumn(cs: CreativeSwitches): Column<TargetRecord> {
  return {
    key: 'creative_status',
    label: 'Status',
    sortable: false,
    className: 'actions',
    render: (r) => {
      const s = cs.statusOf(String(r.target));
      if (!s) return <span className="cell-muted">…</span>;
      if (!s.CREATIVEID_exist) return <span className="badge badge-danger">Removed</span>;
      if (cs.blaze && !s.BANNER) return <span className="cell-muted">No banner</span>;
      const wanted = cs.pending[s.target];
      return (
        <StatusSwitch
          checked={wanted ?? s.creative_status}
          label={`Creative ${s.target}`}
          busy={wanted !== undefined}
          onChange={(next) => void cs.toggle(r, next)}
          testId={`creative-switch-${s.target}`}
        />
      );
    },
  };
}

/** Ad targets (creatives): server-side paging, sort and search; metric and extra-token pickers. */
export function TargetTable({
  state,
  query,
  perPage,
  columns,
  onQueryChange,
  metrics,
  visibleMetrics,
  onMetricsChange,
  tokens,
  selectedTokens,
  onTokensChange,
  hideEmpty,
  onHideEmptyChange,
  footer,
  totalsLoading,
  creative,
}: Props) {
  // The switch sits beside the target it acts on, not past the metrics at the table's far end.
  const bulk = useBannerBulk(creative, state.rows);
  const withCreative = creative?.enabled
    ? [
        ...columns.slice(0, 1),
        ...(bulk.on ? [bulk.column] : []),
        creativeColumn(creative),
        ...columns.slice(1),
      ]
    : columns;
  return (
    <>
      <DataTable<TargetRecord>
        id="target"
        label="Targets"
        columns={withCreative}
        rowClassName={
          creative?.enabled
            ? (r) => (isAlertRow(creative.statusOf(String(r.target))) ? 'row-alert' : undefined)
            : undefined
        }
        rows={state.rows}
        rowKey={(r, i) => groupedRowKey(r.target, r, selectedTokens, i)}
        loading={state.loading}
        footer={footer}
        footerLoading={totalsLoading}
        {...queryTableProps(query, onQueryChange, 'Search targets and press Enter')}
        page={state.page}
        perPage={perPage}
        totalCount={state.totalCount}
        toolbar={
          <>
            <TokenPicker
              idPrefix="token"
              tokens={tokens}
              selected={selectedTokens}
              onChange={onTokensChange}
              hideEmpty={hideEmpty}
              onHideEmptyChange={onHideEmptyChange}
            />
            <ColumnPicker
              label="Metrics"
              icon={<Columns3 size={14} aria-hidden />}
              options={metrics.map((m) => ({ key: m.parameter, label: m.name }))}
              selected={visibleMetrics}
              onChange={onMetricsChange}
              testId="metric-picker"
            />
            {bulk.toolbar}
            {creative?.unavailable ? (
              <span className="cell-muted target-creative-note">
                Creative switches: {creative.unavailable}
              </span>
            ) : null}
          </>
        }
        empty={
          <SearchEmptyState
            icon={Target}
            search={query.search}
            noun="target"
            title="No targets in this range"
          >
            Targets appear when visits arrive with the target parameter of the tracking link. Try a wider date
            range.
          </SearchEmptyState>
        }
      />
      {creative?.enabled ? (
        <LineItemModal
          creative={creative.modal}
          onClose={creative.closeModal}
          onToggle={(item, next) => void creative.toggleLineItem(item, next)}
          busy={creative.busyLineItems}
        />
      ) : null}
    </>
  );
}
