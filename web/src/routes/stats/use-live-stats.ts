import { useRef } from 'react';
import type { StatsFreshness } from '../../../../schema/stats-api';
import type { StatsStampAnswer } from '../../../../schema/stats-reports-api';
import { api } from '../../api/client';
import { useLiveSetting, useLiveTick } from '../../lib/use-live';

// Live statistics on the statistics screen (issue 27, docs/decisions/134-live-statistics.md):
// every 10 s while the tab is visible, one small read of the campaign's data version; the report
// is asked for again only when an event newer than the one on screen arrived or the data changed.

export function useLiveStats(
  campaignId: number | null,
  freshness: StatsFreshness | null,
  busy: boolean,
  refresh: () => void,
): [boolean, (on: boolean) => void] {
  const [live, setLive] = useLiveSetting('statsLive');
  // The version the last tick saw, of which campaign.
  const seen = useRef<{ campaignId: number; version: number } | null>(null);
  useLiveTick(live && campaignId !== null, () => {
    if (busy || campaignId === null) return;
    api
      .get<StatsStampAnswer>(`stats-reports/stamp?campaignId=${campaignId}`)
      .then((stamp) => {
        const newer = (stamp.newestEventAt ?? 0) > (freshness?.newestEventAt ?? 0);
        const before = seen.current;
        const changed =
          before !== null && before.campaignId === campaignId && stamp.version !== before.version;
        seen.current = { campaignId, version: stamp.version };
        if (newer || changed) refresh();
      })
      .catch(() => {
        // A failed read waits for the next tick; the Refresh button stays.
      });
  });
  return [live, setLive];
}
