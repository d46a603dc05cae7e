import { FileText } from 'lucide-react';
import { landingNoValue } from '../../../../schema/undefined-ratios';
import type { LandingRecord, StatsExtraToken } from '../../api/endpoints';
import { type Column, DataTable, formatCell, valueCell } from '../../components/data-table/data-table';
import { totalsNoValue } from '../../components/data-table/no-value';
import { statusColumn } from '../../components/data-table/status-switch';
import { nameColumn, testsColumn } from './item-columns';
import { queryTableProps, type TableQuery } from './query';
import { SearchEmptyState } from './search-empty-state';
import { groupedRowKey, TokenPicker, tokenColumns } from './token-picker';
import type { LandingState } from './use-statistics';

type Props = {
  state: LandingState;
  query: TableQuery;
  perPage: number;
  onQueryChange: (query: TableQuery) => void;
  showDeleted: boolean;
  onShowDeletedChange: (show: boolean) => void;
  onToggle: (row: LandingRecord, active: boolean) => void;
  busyIds: ReadonlySet<number>;
  onShowTests: (row: LandingRecord) => void;
  /** Grouping by extra tokens: the campaign's tokens and the grouped ones. */
  tokens?: StatsExtraToken[];
  selectedTokens?: string[];
  onTokensChange?: (parameters: string[]) => void;
};

export const rowTone = (r: { active: number; deleted: number }) =>
  r.deleted ? 'row-deleted' : r.active ? undefined : 'row-inactive';

export function DeletedToggle({
  id,
  checked,
  onChange,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="toggle-inline" htmlFor={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>Show deleted</span>
    </label>
  );
}

/** Landing pages: own paging, sort and search; test info; Active/Inactive switches. */
export function LandingTable({
  state,
  query,
  perPage,
  onQueryChange,
  showDeleted,
  onShowDeletedChange,
  onToggle,
  busyIds,
  onShowTests,
  tokens = [],
  selectedTokens = [],
  onTokensChange,
}: Props) {
  const total = state.total;
  const columns: Column<LandingRecord>[] = [
    nameColumn<LandingRecord>(
      'landing_page',
      'Landing page',
      (r) => r.landing_page,
      (r) => r.url,
    ),
    ...tokenColumns<LandingRecord>(tokens, selectedTokens),
    { key: 'visits', label: 'Visits', kind: 'int' },
    { key: 'lpclicks', label: 'LP Clicks', kind: 'int' },
    { key: 'lpctr', label: 'LP CTR', kind: 'percent', digits: 1, noValue: (r) => landingNoValue(r).lpctr },
    { key: 'conversions', label: 'Purchase Event', kind: 'int' },
    { key: 'cr', label: 'CR', kind: 'percent', noValue: (r) => landingNoValue(r).cr },
    { key: 'cpa', label: 'CPA', kind: 'money', noValue: (r) => landingNoValue(r).cpa },
    { key: 'ad_spent', label: 'Ad Spend', kind: 'money' },
    { key: 'revenue', label: 'Revenue', kind: 'money' },
    testsColumn<LandingRecord>((r) => r.landing_page, onShowTests),
    statusColumn<LandingRecord>({
      kind: 'Landing page',
      testPrefix: 'landing',
      idOf: (r) => r.page_id,
      nameOf: (r) => r.landing_page,
      busyIds,
      onToggle,
    }),
  ];
  const none = totalsNoValue(total);
  const footer = total
    ? {
        visits: formatCell('int', total.visitsTotal),
        lpclicks: formatCell('int', total.lpclicksTotal),
        lpctr: valueCell('percent', total.lpctrTotal, none.lpctr, 2),
        conversions: formatCell('int', total.conversionsTotal),
        cr: valueCell('percent', total.crTotal, none.cr),
        cpa: valueCell('money', total.cpa, none.cpa),
        ad_spent: formatCell('money', total.ad_spent),
        revenue: formatCell('money', total.revenue),
      }
    : null;

  return (
    <DataTable<LandingRecord>
      id="landing"
      label="Landing pages"
      columns={columns}
      rows={state.rows}
      rowKey={(r, i) => groupedRowKey(r.page_id, r, selectedTokens, i)}
      loading={state.loading}
      footer={footer}
      {...queryTableProps(query, onQueryChange, 'Search landing pages and press Enter')}
      page={state.page}
      perPage={perPage}
      totalCount={state.count}
      toolbar={
        <>
          {onTokensChange && (
            <TokenPicker
              idPrefix="landing-token"
              tokens={tokens}
              selected={selectedTokens}
              onChange={onTokensChange}
            />
          )}
          <DeletedToggle id="landing-show-deleted" checked={showDeleted} onChange={onShowDeletedChange} />
        </>
      }
      rowClassName={rowTone}
      empty={
        <SearchEmptyState icon={FileText} search={query.search} noun="landing page" title="No landing pages">
          Add landing pages to the campaign to see how each one converts.
        </SearchEmptyState>
      }
    />
  );
}
