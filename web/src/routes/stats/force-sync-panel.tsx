// The force sync panel of a liveintent campaign's statistics (spec 3 §4, §7; docs/decisions/091):
// start and stop, the state and its progress logs polled about every 3 seconds, and the completed
// message until it is dismissed. A sync this user started reruns the search when it is done.
import { Play, RefreshCw, Square, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { mutate } from 'swr';
import { FORCE_SYNC_MESSAGES as F, type ForceSyncAnswer } from '../../../../schema/liveintent-api';
import { STATS_MESSAGES } from '../../../../schema/stats-api';
import { api } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useBusyAction } from '../../components/confirmed-action';
import { notify } from '../../components/toaster';
import '../../styles/liveintent.css';

const POLL_MS = 3000;
const SEARCH_DELAY_MS = 3000;

const call = (verb: string, campaignId: number) => api.post<ForceSyncAnswer>(verb, { campaignId });
const running = (s: ForceSyncAnswer['status']) => s === 'started' || s === 'in-progress';

export function ForceSyncPanel({ campaignId, onDone }: { campaignId: number; onDone: () => void }) {
  const [state, setState] = useState<ForceSyncAnswer | null>(null);
  const { busy, run } = useBusyAction<'start' | 'stop' | 'dismiss'>();
  const startedHere = useRef(false);
  const doneRef = useRef(onDone);
  doneRef.current = onDone;

  const show = useCallback((next: ForceSyncAnswer) => {
    if (next.status === 'done' && !startedHere.current) {
      // A sync finished before this visit: only its completed message is news.
      setState({ ...next, status: 'idle', message: '', progressLogs: [] });
      return;
    }
    setState(next);
  }, []);

  useEffect(() => {
    startedHere.current = false;
    setState(null);
    call('liveintent-get-force-sync-status', campaignId)
      .then(show)
      .catch(() => setState({ status: 'idle', message: '', progressLogs: [], completedMessage: '' }));
  }, [campaignId, show]);

  // Polls while a sync runs; a done sync started here reruns the search after a short delay.
  const status = state?.status;
  // biome-ignore lint/correctness/useExhaustiveDependencies: every new state (even an unchanged copy after a failed poll) arms the next poll
  useEffect(() => {
    if (!status) return;
    if (status === 'done' && startedHere.current) {
      startedHere.current = false;
      const t = setTimeout(() => {
        // The imported costs show in the costs table and in the refreshed search.
        void mutate((key) => typeof key === 'string' && key.startsWith(`costs?campaignId=${campaignId}&`));
        doneRef.current();
      }, SEARCH_DELAY_MS);
      return () => clearTimeout(t);
    }
    if (!running(status)) return;
    const t = setTimeout(() => {
      call('liveintent-get-force-sync-status', campaignId)
        .then((next) => (running(next.status) ? setState(next) : show(next)))
        .catch(() => setState((s) => (s ? { ...s } : s)));
    }, POLL_MS);
    return () => clearTimeout(t);
  }, [state, status, campaignId, show]);

  const start = () =>
    run(
      'start',
      async () => {
        startedHere.current = true;
        setState(await call('liveintent-force-sync', campaignId));
      },
      (err) => {
        startedHere.current = false;
        notify.error(err instanceof Error ? err.message : String(err));
      },
    );
  const stop = () =>
    run(
      'stop',
      async () => {
        setState(await call('liveintent-stop-force-sync', campaignId));
        notify.info('The force sync stops after the day it is on.');
      },
      () => notify.error(F.stopFailed),
    );
  const dismiss = () =>
    run(
      'dismiss',
      async () => setState(await call('liveintent-update-force-sync-completed-status', campaignId)),
      () => notify.error(STATS_MESSAGES.dismissMessageFailed),
    );

  if (!state) return null;
  const tone = state.status === 'error' ? 'error' : state.status === 'done' ? 'success' : 'info';
  return (
    <Card
      title="LiveIntent force sync"
      description="Imports the spend, impressions and clicks LiveIntent reports, day by day, into this campaign's costs."
      className="stats-card"
      id="force-sync"
      actions={
        running(state.status) ? (
          <Button
            variant="secondary"
            busy={busy === 'stop'}
            onClick={() => void stop()}
            icon={<Square size={14} aria-hidden />}
            data-testid="force-sync-stop"
          >
            Stop sync
          </Button>
        ) : (
          <Button
            variant="primary"
            busy={busy === 'start'}
            onClick={() => void start()}
            icon={<Play size={14} aria-hidden />}
            data-testid="force-sync-start"
          >
            Start force sync
          </Button>
        )
      }
    >
      <div className="force-sync" aria-live="polite">
        {state.completedMessage && (
          <div className="force-sync-completed" data-testid="force-sync-completed">
            <Alert tone="success">{state.completedMessage}</Alert>
            <Button
              variant="ghost"
              size="sm"
              busy={busy === 'dismiss'}
              onClick={() => void dismiss()}
              icon={<X size={14} aria-hidden />}
              aria-label="Dismiss the completed message"
            >
              Dismiss
            </Button>
          </div>
        )}
        {state.message ? (
          <Alert tone={tone}>
            <span data-testid="force-sync-message">
              {running(state.status) && <RefreshCw size={14} aria-hidden className="force-sync-spin" />}{' '}
              {state.message}
            </span>
          </Alert>
        ) : (
          !state.completedMessage && <p className="cell-muted">No force sync is running.</p>
        )}
        {state.progressLogs.length > 0 && (
          <ol className="force-sync-logs" aria-label="Progress" data-testid="force-sync-logs">
            {state.progressLogs.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ol>
        )}
      </div>
    </Card>
  );
}
