import { BellRing, X } from 'lucide-react';
import { type CampaignAlert, dismissAlert } from '../../api/endpoints';
import { useBusyAction } from '../../components/confirmed-action';
import { notify } from '../../components/toaster';
import { formatDateTime } from '../../lib/format';
import { toastFailure } from './use-statistics';

type Props = { campaignId: number; alerts: CampaignAlert[]; onChange: (alerts: CampaignAlert[]) => void };

/** The campaign's alerts (optimiser actions, failing postbacks, spend without conversions), each dismissible. */
export function AlertsList({ campaignId, alerts, onChange }: Props) {
  const { busy, run } = useBusyAction<number>();
  if (alerts.length === 0) return null;

  const dismiss = (index: number) =>
    run(
      index,
      async () => {
        const answer = await dismissAlert(campaignId, index);
        onChange(answer.alerts);
        notify.success(answer.message);
      },
      toastFailure,
    );

  return (
    <section className="stats-alerts" aria-label="Alerts" data-testid="alerts">
      {alerts.map((a, i) => (
        <div
          key={a.key ?? `${i}-${a.message}`}
          className={`stats-alert stats-alert-${a.type ?? 'info'}`}
          data-testid="alert"
        >
          <BellRing size={16} aria-hidden className="stats-alert-icon" />
          <div className="stats-alert-body">
            <p>{a.message}</p>
            {a.created_at ? <p className="stats-alert-time">{formatDateTime(a.created_at)}</p> : null}
          </div>
          <button
            type="button"
            className="icon-btn"
            aria-label={`Dismiss alert: ${a.message}`}
            title="Dismiss"
            disabled={busy !== null}
            onClick={() => void dismiss(i)}
          >
            <X size={16} aria-hidden />
          </button>
        </div>
      ))}
    </section>
  );
}
