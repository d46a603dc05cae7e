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
