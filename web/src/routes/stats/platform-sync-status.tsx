import { RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { MessageAnswer } from '../../../../schema/auth-api';
import type { SyncStatusAnswer } from '../../../../schema/integrations-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { Button } from '../../components/button';
import { useBusyAction } from '../../components/confirmed-action';
import { notify } from '../../components/toaster';
import { syncLine } from './sync-line';
import { toastFailure } from './use-statistics';

/** How often the status is read again while a queued sync runs, and for how long at most. */
const FOLLOW_EVERY_MS = 1000;
const FOLLOW_FOR_MS = 120_000;

/**
 * The last sync of each ad platform linked to the campaign (docs/statistics.md "Cost sources"),
 * with a button that queues a sync now. The sync runs on the statistics queue: the panel reads
 * the status again until that platform's last sync changes, then calls `onSynced` so that the
 * costs and the totals are read again (docs/decisions/157). Nothing is shown for a campaign linked
 * to no platform.
 */
export function PlatformSyncStatusPanel({
  campaignId,
  onSynced,
}: {
  campaignId: number;
  /** A sync this panel queued has run: the costs and the statistics should be read again. */
  onSynced?: () => void;
}) {
  const status = useApi<SyncStatusAnswer>(`integrations/sync-status?campaignId=${campaignId}`, {
    revalidateOnFocus: false,
  });
  const { busy, run } = useBusyAction<string>();
  /** The platform whose queued sync is awaited, and its last sync time before it was queued. */
  const [following, setFollowing] = useState<{
    platform: string;
    before: number | null;
    since: number;
    /** Reads so far: each read schedules the next one, even when the answer did not change. */
    reads: number;
  } | null>(null);
  const reread = status.mutate;
  const synced = useRef(onSynced);
  synced.current = onSynced;
  const links = status.data?.links ?? [];
  const followed = following ? links.find((l) => l.platform === following.platform) : undefined;
  const done = following !== null && followed !== undefined && followed.lastSyncAt !== following.before;

  useEffect(() => {
    if (!following) return;
    if (done) {
      setFollowing(null);
      synced.current?.();
      return;
    }
    if (Date.now() - following.since > FOLLOW_FOR_MS) {
      setFollowing(null);
      return;
    }
    const next = () => setFollowing((f) => (f ? { ...f, reads: f.reads + 1 } : f));
    const timer = setTimeout(() => void reread().finally(next), FOLLOW_EVERY_MS);
    return () => clearTimeout(timer);
  }, [following, done, reread]);

  if (links.length === 0) return null;

  const syncNow = (platform: string) =>
    run(
      platform,
      async () => {
        const before = links.find((l) => l.platform === platform)?.lastSyncAt ?? null;
        const answer = await api.post<MessageAnswer>('integrations/sync-now', { campaignId, platform });
        notify.success(answer.message);
        setFollowing({ platform, before, since: Date.now(), reads: 0 });
        await status.mutate();
      },
      toastFailure,
    );

  return (
    <section className="stats-alerts" aria-label="Cost import" data-testid="platform-sync">
      {links.map((link) => (
        <div
          key={link.platform}
          className={`stats-alert stats-alert-sync${link.lastError ? ' stats-alert-sync-failed' : ''}`}
        >
          <RefreshCw size={16} aria-hidden className="stats-alert-icon" />
          <p className="stats-alert-body" aria-live="polite">
            {following?.platform === link.platform && !done
              ? `${syncLine(link)} A sync is running…`
              : syncLine(link)}
          </p>
          <Button
            variant="secondary"
            size="sm"
            busy={busy === link.platform || following?.platform === link.platform}
            disabled={busy !== null || following !== null || !link.enabled}
            onClick={() => void syncNow(link.platform)}
          >
            Sync now
          </Button>
        </div>
      ))}
    </section>
  );
}
