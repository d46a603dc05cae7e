import type { Column } from './data-table';

type Props = {
  checked: boolean;
  onChange: (next: boolean) => void;
  /** What is switched, for screen readers ("Landing page hA_img1"). */
  label: string;
  busy?: boolean;
  testId?: string;
};

/** The Active/Inactive switch of landing, offer, path and element rows. */
export function StatusSwitch({ checked, onChange, label, busy, testId }: Props) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={`${label}: ${checked ? 'Active' : 'Inactive'}`}
      aria-busy={busy || undefined}
      className={checked ? 'status-switch is-on' : 'status-switch'}
      onClick={() => {
        if (!busy) onChange(!checked);
      }}
      data-testid={testId}
    >
      <span className="status-switch-track" aria-hidden>
        <span className="status-switch-thumb" />
      </span>
      <span className="status-switch-label">{checked ? 'Active' : 'Inactive'}</span>
    </button>
  );
}

/**
 * The Status column of a landing, offer or path table: the switch, or 'Deleted' (deleted rows
 * show no switch, spec 3 §4). `kind` names the row for screen readers and test ids.
 */
export function statusColumn<R extends { active: number; deleted: number }>(opts: {
  kind: string;
  testPrefix: string;
  idOf: (row: R) => number;
  nameOf: (row: R) => string;
  busyIds: ReadonlySet<number>;
  onToggle: (row: R, next: boolean) => void;
}): Column<R> {
  return {
    key: 'active',
    label: 'Status',
    sortable: false,
    className: 'actions',
    render: (r) =>
      r.deleted ? (
        <span className="cell-muted">Deleted</span>
      ) : (
        <StatusSwitch
          checked={r.active === 1}
          label={`${opts.kind} ${opts.nameOf(r)}`}
          busy={opts.busyIds.has(opts.idOf(r))}
          onChange={(next) => opts.onToggle(r, next)}
          testId={`${opts.testPrefix}-switch-${opts.idOf(r)}`}
        />
      ),
  };
}
