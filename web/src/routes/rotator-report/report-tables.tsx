import type { ReportRow } from '../../../../schema/money-api';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { formatDollars } from '../../lib/format';
import { dayLabel, figures, monthLabel, type ReportFigures, totalOf } from './report-metrics';

function columns(first: Column<ReportFigures>): Column<ReportFigures>[] {
  return [
    first,
    { key: 'ad_spend', label: 'Ad spend', kind: 'money', sortable: false },
    { key: 'clicks', label: 'Clicks', kind: 'int', sortable: false },
    { key: 'sales', label: 'Sales', kind: 'int', sortable: false },
    { key: 'revenue', label: 'Revenue', kind: 'money', sortable: false },
    {
      key: 'net_profit',
      label: 'Net profit',
      kind: 'money',
      sortable: false,
      render: (r) => (
        <span className={r.net_profit < 0 ? 'is-negative' : 'is-positive'}>
          {formatDollars(r.net_profit)}
        </span>
      ),
    },
    { key: 'conversion_rate', label: 'Conv. rate', kind: 'percent', sortable: false },
    { key: 'roi', label: 'ROI', kind: 'percent', sortable: false },
    { key: 'epc', label: 'EPC', kind: 'money', sortable: false },
    { key: 'cpa', label: 'CPA', kind: 'money', sortable: false },
    { key: 'cpc', label: 'CPC', kind: 'money', sortable: false },
  ];
}

const MONTH_COLUMNS = columns({
  key: 'date',
  label: 'Month',
  sortable: false,
  render: (r) => monthLabel(r.date),
});
const DAY_COLUMNS = columns({ key: 'date', label: 'Day', sortable: false, render: (r) => dayLabel(r.date) });

function footer(rows: readonly ReportRow[]) {
  const t = totalOf(rows);
  const m = (n: number) => formatDollars(n);
  return {
    date: 'Total',
    ad_spend: m(t.ad_spend),
    clicks: t.clicks.toLocaleString('en-US'),
    sales: t.sales.toLocaleString('en-US'),
    revenue: m(t.revenue),
    net_profit: <span className={t.net_profit < 0 ? 'is-negative' : 'is-positive'}>{m(t.net_profit)}</span>,
    conversion_rate: `${t.conversion_rate.toFixed(2)}%`,
    roi: `${t.roi.toFixed(2)}%`,
    epc: m(t.epc),
    cpa: m(t.cpa),
    cpc: m(t.cpc),
  };
}

type Props = {
  id: string;
  label: string;
  rows?: readonly ReportRow[];
  loading: boolean;
  by: 'month' | 'day';
};

/** Monthly totals or daily figures with a total row; placeholder rows while they load. */
export function ReportTable({ id, label, rows, loading, by }: Props) {
  const list = (rows ?? []).map(figures);
  return (
    <DataTable<ReportFigures>
      id={id}
      label={label}
      columns={by === 'month' ? MONTH_COLUMNS : DAY_COLUMNS}
      rows={list}
      rowKey={(r) => r.date}
      loading={loading}
      perPage={by === 'month' ? 24 : 31}
      footer={rows ? footer(rows) : null}
      footerLoading={loading}
      maxHeight={by === 'month' ? 420 : 560}
      empty={<p className="dt-empty">No traffic in this period yet.</p>}
    />
  );
}
