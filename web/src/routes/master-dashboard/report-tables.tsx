import { ChartLine } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ReportTotal } from '../../../../schema/masterdashboard-api';
import type { Student, StudentReport } from '../../../../schema/operator-api';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { formatDollars, formatPercent } from '../../lib/format';

type Figure = 'ad_spend' | 'revenue' | 'roi' | 'net_profit';

const tone = (v: number) => (v > 0 ? 'is-positive' : v < 0 ? 'is-negative' : undefined);

/** The four figures of a report total, as shown in a row and in the footer. */
function totalCells(total: ReportTotal): Record<Figure, ReactNode> {
  return {
    ad_spend: formatDollars(total.ad_spend),
    revenue: formatDollars(total.revenue),
    roi: <span className={tone(total.roi)}>{formatPercent(total.roi, 2)}</span>,
    net_profit: <span className={tone(total.net_profit)}>{formatDollars(total.net_profit)}</span>,
  };
}

const LABELS: Record<Figure, string> = {
  ad_spend: 'Ad spend',
  revenue: 'Revenue',
  roi: 'ROI',
  net_profit: 'Net Profit',
};

function moneyColumns<R extends StudentReport>(): Column<R>[] {
  return (Object.keys(LABELS) as Figure[]).map((key) => ({
    key,
    label: LABELS[key],
    kind: key === 'roi' ? 'percent' : 'money',
    render: (r) => totalCells(r.total)[key],
  }));
}

/** A table of students' reports: a row a student, found by its name (data-student). */
function StudentTable<R extends StudentReport>(props: {
  id: string;
  label: string;
  columns: Column<R>[];
  rows: readonly R[];
  footer?: Record<string, ReactNode>;
}) {
  return (
    <DataTable<R>
      {...props}
      rowKey={(r) => r.id_hash}
      rowAttributes={(r) => ({ 'data-student': r.name })}
      tableClassName="md-table"
    />
  );
}

/** Detailed mode: the selected students' totals with a View Graph button each. */
export function DetailedTable({
  rows,
  onGraph,
}: {
  rows: readonly StudentReport[];
  onGraph: (s: Student) => void;
}) {
  const columns: Column<StudentReport>[] = [
    { key: 'name', label: 'Name' },
    ...moneyColumns<StudentReport>(),
    {
      key: 'graph',
      label: 'Graph',
      hideLabel: true,
      className: 'actions',
      render: (r) => (
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => onGraph(r)}>
          <ChartLine size={14} aria-hidden />
          <span>View Graph</span>
        </button>
      ),
    },
  ];
  return <StudentTable id="detailed" label="Selected students" columns={columns} rows={rows} />;
}

type GeneralRow = StudentReport & { refreshed_at: number | null; error: string | null };

/** General mode: every student from the operator's cache, and the sum over all of them. */
export function GeneralTable({ rows, total }: { rows: readonly GeneralRow[]; total: ReportTotal }) {
  const columns: Column<GeneralRow>[] = [
    {
      key: 'name',
      label: 'Name',
      render: (r) => (
        <>
          {r.name}
          {r.error && (
            <span className="md-stale" title={r.error}>
              Not refreshed: {r.error}
            </span>
          )}
        </>
      ),
    },
    {
      key: 'domain',
      label: 'Domain',
      className: 'md-domain',
      render: (r) => r.domain.replace(/^https?:\/\//, ''),
    },
    ...moneyColumns<GeneralRow>(),
  ];
  return (
    <StudentTable
      id="general"
      label="All students"
      columns={columns}
      rows={rows}
      footer={totalCells(total)}
    />
  );
}
