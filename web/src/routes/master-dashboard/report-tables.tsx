import { ChartLine } from 'lucide-react';
import type { ReportTotal } from '../../../../schema/masterdashboard-api';
import type { Student, StudentReport } from '../../../../schema/operator-api';
import { formatDollars, formatPercent } from '../../lib/format';

const signed = (v: number) => (v > 0 ? 'num is-positive' : v < 0 ? 'num is-negative' : 'num');

function Money({ total }: { total: ReportTotal }) {
  return (
    <>
      <td className="num" data-col="ad_spend">
        {formatDollars(total.ad_spend)}
      </td>
      <td className="num" data-col="revenue">
        {formatDollars(total.revenue)}
      </td>
      <td className={signed(total.roi)} data-col="roi">
        {formatPercent(total.roi, 2)}
      </td>
      <td className={signed(total.net_profit)} data-col="net_profit">
        {formatDollars(total.net_profit)}
      </td>
    </>
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
  return (
    <section
      className="table-wrap"
      aria-label="Table, scrollable"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
      tabIndex={0}
    >
      <table className="table md-table" aria-label="Selected students" data-testid="detailed-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="num">
              Ad spend
            </th>
            <th scope="col" className="num">
              Revenue
            </th>
            <th scope="col" className="num">
              ROI
            </th>
            <th scope="col" className="num">
              Net Profit
            </th>
            <th scope="col">
              <span className="sr-only">Graph</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id_hash} data-student={r.name}>
              <td>{r.name}</td>
              <Money total={r.total} />
              <td className="actions">
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => onGraph(r)}>
                  <ChartLine size={14} aria-hidden />
                  <span>View Graph</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

type GeneralRow = StudentReport & { refreshed_at: number | null; error: string | null };

/** General mode: every student from the operator's cache, and the sum over all of them. */
export function GeneralTable({ rows, total }: { rows: readonly GeneralRow[]; total: ReportTotal }) {
  return (
    <section
      className="table-wrap"
      aria-label="Table, scrollable"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
      tabIndex={0}
    >
      <table className="table md-table" aria-label="All students" data-testid="general-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Domain</th>
            <th scope="col" className="num">
              Ad spend
            </th>
            <th scope="col" className="num">
              Revenue
            </th>
            <th scope="col" className="num">
              ROI
            </th>
            <th scope="col" className="num">
              Net Profit
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id_hash} data-student={r.name}>
              <td>
                {r.name}
                {r.error && (
                  <span className="md-stale" title={r.error}>
                    Not refreshed: {r.error}
                  </span>
                )}
              </td>
              <td className="md-domain">{r.domain.replace(/^https?:\/\//, '')}</td>
              <Money total={r.total} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-student="total">
            <th scope="row" colSpan={2}>
              Total
            </th>
            <Money total={total} />
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
