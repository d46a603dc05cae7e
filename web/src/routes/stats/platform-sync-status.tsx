import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { MessageAnswer } from '../../../../schema/auth-api';
import type { SyncStatusAnswer } from '../../../../schema/integrations-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { Button } from '../../components/button';
import { notify } from '../../components/toaster';
import { syncLine } from './sync-line';
import { toastFailure } from './use-statistics';

/**
 * The last sync of each ad platform linked to the campaign (docs/statistics.md "Cost sources"),
 * with a button that queues a sync now. Nothing is shown for a campaign linked to no platform.
 */
export function PlatformSyncStatusPanel({ campaignId }: { campaignId: number }) {
  const status = useApi<SyncStatusAnswer>(`integrations/sync-status?campaignId=${campaignId}`, {
    revalidateOnFocus: false,
  });
  const [busy, setBusy] = useState<string | null>(null);
  const links = status.data?.links ?? [];
  if (links.length === 0) return null;

  const syncNow = async (platform: string) => {
    setBusy(platform);
    try {
      const answer = await api.post<MessageAnswer>('integrations/sync-now', { campaignId, platform });
      notify.success(answer.message);
      await status.mutate();
    } catch (err) {
      toastFailure(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="stats-alerts" aria-label="Cost import" data-testid="platform-sync">
      {links.map((link) => (
        <div
          key={link.platform}
          className={`stats-alert stats-alert-sync${link.lastError ? ' stats-alert-sync-failed' : ''}`}
        >
          <RefreshCw size={16} aria-hidden className="stats-alert-icon" />
          <p className="stats-alert-body">{syncLine(link)}</p>
          <Button
            variant="secondary"
            size="sm"
            busy={busy === link.platform}
            disabled={busy !== null || !link.enabled}
            onClick={() => void syncNow(link.platform)}
          >
            Sync now
          </Button>
        </div>
      ))}
    </section>
  );
}
