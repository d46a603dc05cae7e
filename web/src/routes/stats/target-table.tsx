import { Columns3, Layers, Target } from 'lucide-react';
import type { StatsExtraToken, StatsMetric, StatsTotals, TargetRecord } from '../../api/endpoints';
import { ColumnPicker } from '../../components/data-table/column-picker';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { EmptyState } from '../../components/empty-state';
import type { TableQuery } from './query';
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
  footer,
  totalsLoading,
}: Props) {
  return (
    <DataTable<TargetRecord>
      id="target"
      label="Targets"
      columns={columns}
      rows={state.rows}
      rowKey={(r, i) =>
        `${r.target}\u0000${selectedTokens.map((t) => String(r[t] ?? '')).join('\u0000')}\u0000${i}`
      }
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
          <ColumnPicker
            label="Group by tokens"
            icon={<Layers size={14} aria-hidden />}
            options={tokens.map((t) => ({ key: t.parameter, label: t.token_name || t.parameter }))}
            selected={selectedTokens}
            onChange={onTokensChange}
            emptyText="This campaign has no extra tokens. Add them in the campaign's settings."
            testId="token-picker"
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
