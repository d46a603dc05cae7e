import { Columns3, Target } from 'lucide-react';
import type { StatsExtraToken, StatsMetric, StatsTotals, TargetRecord } from '../../api/endpoints';
import { ColumnPicker } from '../../components/data-table/column-picker';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { EmptyState } from '../../components/empty-state';
import type { TableQuery } from './query';
import { groupedRowKey, TokenPicker } from './token-picker';
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
};

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
}: Props) {
  return (
    <DataTable<TargetRecord>
      id="target"
      label="Targets"
      columns={columns}
      rows={state.rows}
      rowKey={(r, i) => groupedRowKey(r.target, r, selectedTokens, i)}
      loading={state.loading}
      footer={footer}
      footerLoading={totalsLoading}
      sort={query.sort}
      onSortChange={(sort) => onQueryChange({ ...query, sort, page: 1 })}
      page={state.page}
      perPage={perPage}
      totalCount={state.totalCount}
      onPageChange={(page) => onQueryChange({ ...query, page })}
      // The screen reloads every table at page 1 when the shared page length changes.
      onPerPageChange={() => {}}
      search={{
        value: query.search,
        placeholder: 'Search targets and press Enter',
        onSearch: (search) => onQueryChange({ ...query, search, page: 1 }),
      }}
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
        </>
      }
      empty={
        <EmptyState
          icon={Target}
          title={query.search ? 'No target matches this search' : 'No targets in this range'}
        >
          {query.search
            ? 'Clear the search box to see every target.'
            : 'Targets appear when visits arrive with the target parameter of the tracking link. Try a wider date range.'}
        </EmptyState>
      }
    />
  );
}
