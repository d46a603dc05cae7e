// Under the campaigns toolbar: the range of the metric columns, the column picker, and the
// filters by type, traffic source and status (a filter or a search looks in every folder).
import { Columns3 } from 'lucide-react';
import { LIST_METRIC_LABELS, LIST_METRICS, type ListMetric } from '../../../../schema/across-campaigns-api';
import { DateRange, type DateRangeValue } from '../../components/date-range/date-range';
import { SOURCE_LABELS, TYPE_LABELS } from './campaigns-table';

export type ListFilters = { type: string; source: string; status: '' | 'active' | 'paused' };
export const NO_FILTERS: ListFilters = { type: '', source: '', status: '' };
export const hasFilters = (f: ListFilters) => Boolean(f.type || f.source || f.status);

/** Whether a campaign row passes the filters (folders pass only when no filter is set). */
export function passes(
  row: { is_dir: number; campaignType: string; trafficSource: string; active: number },
  f: ListFilters,
) {
  if (!hasFilters(f)) return true;
  if (row.is_dir === 1) return false;
  if (f.type && row.campaignType !== f.type) return false;
  if (f.source && row.trafficSource !== f.source) return false;
  if (f.status === 'active' && row.active !== 1) return false;
  if (f.status === 'paused' && row.active === 1) return false;
  return true;
}

type Props = {
  range: DateRangeValue | null;
  today: string | null;
  onRange: (range: DateRangeValue) => void;
  columns: readonly ListMetric[];
  onToggleColumn: (metric: ListMetric) => void;
  filters: ListFilters;
  onFilters: (filters: ListFilters) => void;
};

export function ListFiltersBar({
  range,
  today,
  onRange,
  columns,
  onToggleColumn,
  filters,
  onFilters,
}: Props) {
  const set = (patch: Partial<ListFilters>) => onFilters({ ...filters, ...patch });
  return (
    <div className="cl-metrics-bar">
      {range && today && <DateRange id="cl-range" value={range} today={today} onChange={onRange} />}
      <div className="cl-filter-fields">
        <label className="field cl-filter">
          <span className="field-label">Type</span>
          <select
            className="input select input-sm"
            value={filters.type}
            onChange={(e) => set({ type: e.target.value })}
            data-testid="filter-type"
          >
            <option value="">All types</option>
            {Object.entries(TYPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field cl-filter">
          <span className="field-label">Traffic source</span>
          <select
            className="input select input-sm"
            value={filters.source}
            onChange={(e) => set({ source: e.target.value })}
            data-testid="filter-source"
          >
            <option value="">All sources</option>
            {Object.entries(SOURCE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field cl-filter">
          <span className="field-label">Status</span>
          <select
            className="input select input-sm"
            value={filters.status}
            onChange={(e) => set({ status: e.target.value as ListFilters['status'] })}
            data-testid="filter-status"
          >
            <option value="">Any status</option>
            <option value="active">Active</option>
            <option value="paused">Paused</option>
          </select>
        </label>
        <details className="cl-columns">
          <summary className="btn btn-secondary btn-sm" data-testid="column-picker">
            <Columns3 size={14} aria-hidden />
            <span>Columns</span>
          </summary>
          <fieldset className="cl-columns-menu">
            <legend className="sr-only">Metric columns</legend>
            {LIST_METRICS.map((m) => (
              <label key={m} className="cl-columns-item">
                <input
                  type="checkbox"
                  checked={columns.includes(m)}
                  onChange={() => onToggleColumn(m)}
                  data-testid={`column-${m}`}
                />
                <span>{LIST_METRIC_LABELS[m]}</span>
              </label>
            ))}
          </fieldset>
        </details>
      </div>
    </div>
  );
}
