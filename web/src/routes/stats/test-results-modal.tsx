import type { TestResult, TestSummary } from '../../api/endpoints';
import { PieChart } from '../../components/charts/pie-chart';
import { Modal } from '../../components/modal';

// The landing test-results modal of spec 3 §2: a pie of Outperformed, Underperformed and
// Insignificant tests (fixed colours) and the pairwise results behind it (docs/statistics.md).

const TEST_COLORS = { better: '#12b76a', worst: '#f04438', insignificant: '#98a2b3' } as const;

export type TestSubject = {
  name: string;
  summary: TestSummary;
  tests: TestResult[];
  /** Names of the other pages or elements by id. */
  nameOf: (against: number | string) => string;
};

function outcome(t: TestResult) {
  if (!t.is_significant) return { label: 'Insignificant', cls: 'badge badge-neutral-soft' };
  return t.best_variant === 1
    ? { label: 'Outperformed', cls: 'badge badge-success' }
    : { label: 'Underperformed', cls: 'badge badge-danger' };
}

export function TestResultsModal({ subject, onClose }: { subject: TestSubject | null; onClose: () => void }) {
  const s = subject?.summary;
  return (
    <Modal
      open={subject !== null}
      onClose={onClose}
      title={subject ? `Test results: ${subject.name}` : ''}
      size="md"
    >
      {subject && s && (
        <div className="test-results" data-testid="test-results">
          <p className="modal-lead">
            Each pair of active pages is compared with a two-proportion z-test at 95 % confidence. A test
            counts once both pages have the campaign's minimum visits.
          </p>
          <PieChart
            label={`Test results of ${subject.name}`}
            slices={[
              { label: 'Outperformed', value: s.better, color: TEST_COLORS.better },
              { label: 'Underperformed', value: s.worst, color: TEST_COLORS.worst },
              { label: 'Insignificant', value: s.insignificants, color: TEST_COLORS.insignificant },
            ]}
          />
          {subject.tests.length > 0 && (
            <table className="table test-table">
              <thead>
                <tr>
                  <th scope="col">Against</th>
                  <th scope="col">Result</th>
                  <th scope="col" className="num">
                    p-value
                  </th>
                </tr>
              </thead>
              <tbody>
                {subject.tests.map((t) => {
                  const o = outcome(t);
                  return (
                    <tr key={String(t.against)}>
                      <td>{subject.nameOf(t.against)}</td>
                      <td>
                        <span className={o.cls}>{o.label}</span>
                      </td>
                      <td className="num">{t.p_value.toFixed(4)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </div>
      )}
    </Modal>
  );
}
