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

/** One filter of the bar: its label above a small select of [value, label] options. */
function FilterSelect({
  label,
  value,
  onChange,
  testId,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  options: [string, string][];
}) {
  return (
    <label className="field cl-filter">
      <span className="field-label">{label}</span>
      <select
        className="input select input-sm"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      >
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </label>
  );
}

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
        <FilterSelect
          label="Type"
          value={filters.type}
          onChange={(type) => set({ type })}
          testId="filter-type"
          options={[['', 'All types'], ...Object.entries(TYPE_LABELS)]}
        />
        <FilterSelect
          label="Traffic source"
          value={filters.source}
          onChange={(source) => set({ source })}
          testId="filter-source"
          options={[['', 'All sources'], ...Object.entries(SOURCE_LABELS)]}
        />
        <FilterSelect
          label="Status"
          value={filters.status}
          onChange={(status) => set({ status: status as ListFilters['status'] })}
          testId="filter-status"
          options={[
            ['', 'Any status'],
            ['active', 'Active'],
            ['paused', 'Paused'],
          ]}
        />
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
