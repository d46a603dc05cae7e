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

/** The bar's filters: the field each sets, its label, and its [value, label] choices ('' for all). */
const FILTERS: { key: keyof ListFilters; label: string; options: [string, string][] }[] = [
  { key: 'type', label: 'Type', options: [['', 'All types'], ...Object.entries(TYPE_LABELS)] },
  {
    key: 'source',
    label: 'Traffic source',
    options: [['', 'All sources'], ...Object.entries(SOURCE_LABELS)],
  },
  {
    key: 'status',
    label: 'Status',
    options: [
      ['', 'Any status'],
      ['active', 'Active'],
      ['paused', 'Paused'],
    ],
  },
];

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
        {FILTERS.map(({ key, label, options }) => (
          <FilterSelect
            key={key}
            label={label}
            value={filters[key]}
            onChange={(value) => set({ [key]: value })}
            testId={`filter-${key}`}
            options={options}
          />
        ))}
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
