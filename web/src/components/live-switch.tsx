import { LIVE_INTERVAL_MS } from '../lib/use-live';

// The visible, keyboard-usable "Live" switch of the statistics screen and the dashboard (issue 27).

export function LiveSwitch({ live, onChange }: { live: boolean; onChange: (on: boolean) => void }) {
  const seconds = LIVE_INTERVAL_MS / 1000;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={live}
      className={live ? 'live-switch is-on' : 'live-switch'}
      onClick={() => onChange(!live)}
      title={`Refreshes the numbers every ${seconds} s while this tab is visible`}
      data-testid="live-switch"
    >
      <span className="live-dot" aria-hidden="true" />
      <span>Live</span>
      <span className="live-state">{live ? `every ${seconds} s` : 'off'}</span>
    </button>
  );
}
