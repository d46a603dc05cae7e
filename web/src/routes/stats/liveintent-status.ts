// The LiveIntent sync's last error on the statistics screen (spec 3 §8: an error toast unless
// hideNotif; docs/decisions/169). The toast's Dismiss hides that error until a newer one.
import { type LiveIntentStatus, STATS_MESSAGES } from '../../../../schema/stats-api';
import { api } from '../../api/client';
import { notify } from '../../components/toaster';

export function showLiveIntentStatus(campaignId: number, status: LiveIntentStatus | undefined) {
  if (!status?.error || status.hideNotif || !status.message) return;
  notify.error(status.message, {
    id: `liveintent-status:${campaignId}`,
    action: {
      label: 'Dismiss',
      onClick: () => {
        api
          .post<LiveIntentStatus>('liveintent-dismiss-sync-error', { campaignId })
          .catch(() => notify.error(STATS_MESSAGES.dismissMessageFailed));
      },
    },
  });
}
