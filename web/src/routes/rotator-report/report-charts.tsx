import type { ReportRow } from '../../../../schema/money-api';
import { BarChart } from '../../components/charts/bar-chart';
import { formatDollars, formatInteger } from '../../lib/format';
import { figures, type ReportFigures } from './report-metrics';

type Metric = {
  key: keyof ReportFigures;
  label: string;
  kind: 'money' | 'count' | 'percent';
  /** ROI and net profit: green at zero or above, red below (spec 4 §9). */
  signColors?: boolean;
};

const METRICS: Metric[] = [
  { key: 'ad_spend', label: 'Ad spend', kind: 'money' },
  { key: 'clicks', label: 'Clicks', kind: 'count' },
  { key: 'sales', label: 'Sales', kind: 'count' },
  { key: 'revenue', label: 'Revenue', kind: 'money' },
  { key: 'net_profit', label: 'Net profit', kind: 'money', signColors: true },
  { key: 'conversion_rate', label: 'Conversion rate', kind: 'percent' },
  { key: 'roi', label: 'ROI', kind: 'percent', signColors: true },
  { key: 'epc', label: 'EPC', kind: 'money' },
  { key: 'cpa', label: 'CPA', kind: 'money' },
  { key: 'cpc', label: 'CPC', kind: 'money' },
];

const formats = {
  money: {
    value: (v: number) => formatDollars(v),
    axis: (v: number) => `$${Number(v.toFixed(2)).toLocaleString('en-US')}`,
  },
  count: { value: (v: number) => formatInteger(v), axis: (v: number) => formatInteger(v) },
  percent: { value: (v: number) => `${v.toFixed(2)}%`, axis: (v: number) => `${Number(v.toFixed(2))}%` },
};

/** One bar chart per metric over the period's days; axes from zero, $ and % on the axis labels. */
export function ReportCharts({ rows }: { rows: readonly ReportRow[] }) {
  const list = rows.map(figures);
  return (
    <div className="report-charts" data-testid="report-charts">
      {METRICS.map((m) => (
        <section className="report-chart" key={m.key} aria-label={m.label}>
          <h3 className="report-chart-title">{m.label}</h3>
          <BarChart
            data={list.map((r) => ({ date: r.date, value: Number(r[m.key]) }))}
            format={formats[m.kind].value}
            axisFormat={formats[m.kind].axis}
            signColors={m.signColors}
            label={`${m.label} by day`}
            height={200}
            testId={`report-chart-${m.key}`}
          />
        </section>
      ))}
    </div>
  );
}
