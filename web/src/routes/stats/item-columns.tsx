// Columns the statistics tables of campaign items share: the item's name with its Deleted
// badge, and the button that opens a landing page's test results.
import { Info } from 'lucide-react';
import type { Column } from '../../components/data-table/data-table';

/** The item's name in bold, a Deleted badge when it is deleted, and its URL under it if given. */
export function nameColumn<R extends { deleted?: number }>(
  key: string,
  label: string,
  nameOf: (row: R) => string,
  urlOf?: (row: R) => string | null | undefined,
): Column<R> {
  return {
    key,
    label,
    kind: 'text',
    render: (r) => {
      const url = urlOf?.(r);
      return (
        <div className="cell-name">
          <span className="cell-strong">{nameOf(r)}</span>
          {r.deleted ? <span className="badge badge-neutral">Deleted</span> : null}
          {url && (
            <span className="cell-sub" title={url}>
              {url}
            </span>
          )}
        </div>
      );
    },
  };
}

type Tested = { test_data: readonly unknown[]; test_summary: { better: number; worst: number } };

/** The Tests column: an info button with a dot for better and worse results, "—" without tests. */
export function testsColumn<R extends Tested>(
  nameOf: (row: R) => string,
  onShowTests: (row: R) => void,
): Column<R> {
  return {
    key: 'tests',
    label: 'Tests',
    sortable: false,
    className: 'actions',
    render: (r) =>
      r.test_data.length > 0 ? (
        <button
          type="button"
          className="icon-btn test-info"
          aria-label={`Test results of ${nameOf(r)}`}
          title="Test results"
          onClick={() => onShowTests(r)}
        >
          <Info size={16} aria-hidden />
          {r.test_summary.better > 0 && <span className="test-dot is-better" aria-hidden />}
          {r.test_summary.worst > 0 && <span className="test-dot is-worst" aria-hidden />}
        </button>
      ) : (
        <span className="cell-muted">—</span>
      ),
  };
}
