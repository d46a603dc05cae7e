import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { StatsFreshness } from '../../../../schema/stats-api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { STATS_FAILURE_MESSAGE } from './use-statistics';

/** "12 s ago", "3 min ago", "2 h ago": how old the numbers on screen are. */
function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return s < 5 ? 'just now' : `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  return `${Math.floor(m / 60)} h ago`;
}

function clock(at: number) {
  return new Date(at).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** When the report was made and the newest event it includes, with a Refresh (docs/decisions/110). */
export function FreshnessLine({
  freshness,
  busy,
  onRefresh,
}: {
  freshness: StatsFreshness | null;
  busy: boolean;
  onRefresh: () => void;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 5000);
    return () => clearInterval(timer);
  }, []);
  const generatedAt = freshness?.generatedAt;
  return (
    <div className="stats-freshness" data-testid="stats-freshness">
      <p aria-live="polite">
        {generatedAt ? (
          <>
            <span>Updated {ago(Math.max(0, now - generatedAt))}</span>
            <span className="stats-freshness-newest">
              {freshness?.newestEventAt
                ? ` · includes events up to ${clock(freshness.newestEventAt)}`
                : ' · no events yet'}
            </span>
          </>
        ) : (
          <span>Loading the latest numbers…</span>
        )}
      </p>
      <Button
        size="sm"
        variant="ghost"
        icon={<RefreshCw size={14} aria-hidden />}
        busy={busy}
        onClick={onRefresh}
      >
        Refresh
      </Button>
    </div>
  );
}

/** A report that could not be loaded after its retry: a sentence and a Retry button, never a status text. */
export function StatsFailure({ busy, onRetry }: { busy: boolean; onRetry: () => void }) {
  return (
    <div className="stats-failure" data-testid="stats-failure">
      <Alert tone="error">
        <p>{STATS_FAILURE_MESSAGE}</p>
      </Alert>
      <Button variant="primary" busy={busy} onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
