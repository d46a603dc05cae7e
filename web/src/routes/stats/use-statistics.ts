// The statistics protocol on the screen (spec 3 §4): POST statistics answers the offer and path
// tables and queue ids; target rows (with the totals of the same request) and landing rows are
// polled separately, each with its own cancel so a newer request replaces an older one. The first poll goes out at
// once (the server answers a fast job in it) and the waits are short; a request or job that fails
// is asked for again once (forced), then the screen says so in a sentence with a Retry button
// (docs/decisions/110-fresh-statistics.md).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StatsFreshness } from '../../../../schema/stats-api';
import { ApiError } from '../../api/client';
import {
  getLandingStatistics,
  getTargetStatistics,
  type LandingRecord,
  type LandingResult,
  postStatistics,
  type StatisticsAnswer,
  type StatisticsRequestBody,
  type StatsTotals,
  type TargetRecord,
  type TargetResult,
} from '../../api/endpoints';
import { notify } from '../../components/toaster';
import { isAbort, POLL_MESSAGES, pollUntilDone } from '../../lib/poll';

type Slot = 'all' | 'target' | 'landing';

export type TargetState = {
  rows: TargetRecord[];
  totalCount: number;
  page: number;
  loading: boolean;
  /** Named events' columns that occurred in the range (issue 17): shown even when not ticked. */
  eventColumns?: string[];
};
export type LandingState = {
  rows: LandingRecord[];
  count: number;
  page: number;
  total: StatsTotals | null;
  loading: boolean;
};

const EMPTY_TARGET: TargetState = { rows: [], totalCount: 0, page: 1, loading: false };
const EMPTY_LANDING: LandingState = { rows: [], count: 0, page: 1, total: null, loading: false };

/** Shown instead of a bare status text when a request still fails after its one retry. */
export const STATS_FAILURE_MESSAGE =
  'The statistics could not be loaded because the server did not answer in time. Your filters are kept; press Retry to ask again.';

/** A failure worth one more try: the network, a server error, a failed or endless job. A 4xx is an answer. */
function retryable(err: unknown): boolean {
  if (isAbort(err)) return false;
  if (err instanceof ApiError) return err.status >= 500 || err.status === 408 || err.status === 429;
  return true;
}

/** Spec 3 §8: a 422 toasts its first message; other failures the message the server sent. */
export function toastFailure(err: unknown) {
  if (isAbort(err)) return;
  if (err instanceof ApiError) {
    if (err.status === 401) return; // the app signs the user out
    notify.error(err.firstMessage);
    return;
  }
  notify.error(err instanceof Error ? err.message : String(err));
}

/** At once, then 50 ms doubling to 1 s: the server holds a poll up to 400 ms for a running job. */
const FAST_POLL = { firstDelay: 0, initialDelay: 50, maxDelay: 1000 } as const;

const pollTarget = (uuid: string, message: string, signal: AbortSignal) =>
  pollUntilDone<TargetResult>(
    async (s) => {
      const answer = await getTargetStatistics(uuid, s);
      return { done: answer.done, error: answer.error, result: answer.data?.data ?? undefined };
    },
    { exhaustedMessage: message, signal, ...FAST_POLL },
  );

const pollLanding = (key: string, signal: AbortSignal) =>
  pollUntilDone<LandingResult>(
    async (s) => {
      const answer = await getLandingStatistics(key, s);
      return { done: answer.done, error: answer.error, result: answer.data ?? undefined };
    },
    { exhaustedMessage: POLL_MESSAGES.landing, signal, ...FAST_POLL },
  );

type Retry = (() => Promise<void>) | null;

export function useStatistics() {
  const [answer, setAnswer] = useState<StatisticsAnswer | null>(null);
  const [target, setTarget] = useState<TargetState>(EMPTY_TARGET);
  const [landing, setLanding] = useState<LandingState>(EMPTY_LANDING);
  const [totals, setTotals] = useState<StatsTotals | null>(null);
  const [totalsLoading, setTotalsLoading] = useState(false);
  const [searching, setSearching] = useState(false);
  const [freshness, setFreshness] = useState<StatsFreshness | null>(null);
  const [failed, setFailed] = useState(false);
  const controllers = useRef<Partial<Record<Slot, AbortController>>>({});

  /** A fresh cancel for one slot; the slot's previous request is cancelled. */
  const take = useCallback((slot: Slot) => {
    controllers.current[slot]?.abort();
    const c = new AbortController();
    controllers.current[slot] = c;
    return c;
  }, []);

  useEffect(() => {
    const current = controllers.current;
    return () => {
      for (const c of Object.values(current)) c?.abort();
    };
  }, []);

  /** A failure: asked for once more when `retry` is given, else shown as the failure sentence. */
  const fail = useCallback(async function failOnce(err: unknown, retry: Retry): Promise<void> {
    if (isAbort(err)) return;
    if (!retryable(err)) return toastFailure(err);
    if (!retry) return setFailed(true);
    // The retry's own request can fail or be cancelled by a newer search; callers start these
    // loads with `void`, so nothing may escape from here as an unhandled rejection.
    try {
      await retry();
    } catch (again) {
      await failOnce(again, null);
    }
  }, []);

  const loadTargetRows = useCallback(
    async (queueId: string, signal: AbortSignal, retry: Retry = null) => {
      setTarget((t) => ({ ...t, loading: true }));
      try {
        const result = await pollTarget(queueId, POLL_MESSAGES.target, signal);
        setTarget({
          rows: result.targetRecords ?? [],
          totalCount: result.totalCount ?? 0,
          page: result.currentPage ?? 1,
          loading: false,
          eventColumns: result.eventColumns ?? [],
        });
        // The target job's answer carries the totals of the same request (and search): the
        // footer and the KPI strip take them from it instead of a totalOnly job computing the
        // same sums beside it on the one D1 (issue 17; the server still answers totalOnly).
        setTotals(result.targetTotal);
        setTotalsLoading(false);
        if (result.generatedAt)
          setFreshness({ generatedAt: result.generatedAt, newestEventAt: result.newestEventAt ?? null });
      } catch (err) {
        if (isAbort(err)) return;
        setTarget((t) => ({ ...t, loading: false }));
        setTotalsLoading(false);
        await fail(err, retry);
      }
    },
    [fail],
  );

  const loadLandingRows = useCallback(
    async (key: string, signal: AbortSignal, retry: Retry = null) => {
      setLanding((l) => ({ ...l, loading: true }));
      try {
        const result = await pollLanding(key, signal);
        setLanding({
          rows: result.landingRecords,
          count: result.landingCount,
          page: result.landingCurrentPage,
          total: result.landingTotal,
          loading: false,
        });
      } catch (err) {
        if (isAbort(err)) return;
        setLanding((l) => ({ ...l, loading: false }));
        await fail(err, retry);
      }
    },
    [fail],
  );

  /** The target rows of a request: POST then poll, once more (forced) when that fails. */
  const targetsOf = useCallback(
    (body: StatisticsRequestBody, signal: AbortSignal) => async () => {
      const queued = await postStatistics({ ...body, part: 'target', force: true }, signal);
      await loadTargetRows(queued.queueId, signal);
    },
    [loadTargetRows],
  );
  /** The landing rows of a request, likewise. */
  const landingsOf = useCallback(
    (body: StatisticsRequestBody, signal: AbortSignal) => async () => {
      const data = await postStatistics({ ...body, part: 'all', force: true }, signal);
      if (data.landingQueueKey) await loadLandingRows(data.landingQueueKey, signal);
    },
    [loadLandingRows],
  );

  /** The whole screen: offer and path tables at once, then targets, landings and totals by polling. */
  const search = useCallback(
    async (body: StatisticsRequestBody, retried = false): Promise<StatisticsAnswer | null> => {
      const c = take('all');
      setFailed(false);
      // The tables' slots are taken now: a page, sort or filter asked for while this request runs
      // takes them again, and then this search leaves that table alone.
      const tc = take('target');
      const lc = take('landing');
      setSearching(true);
      setTarget((t) => ({ ...t, loading: true }));
      setLanding((l) => ({ ...l, loading: true }));
      setTotalsLoading(true);
      let data: StatisticsAnswer;
      try {
        data = await postStatistics({ ...body, part: 'all' }, c.signal);
      } catch (err) {
        if (isAbort(err)) return null;
        if (!retried && retryable(err)) return search({ ...body, force: true }, true);
        setTarget((t) => ({ ...t, loading: false }));
        setLanding((l) => ({ ...l, loading: false }));
        setTotalsLoading(false);
        setSearching(false);
        await fail(err, null);
        return null;
      }
      setAnswer(data);
      setSearching(false);
      if (!data.campaignVisits) {
        // No report data: nothing to poll for.
        setTarget(EMPTY_TARGET);
        setLanding(EMPTY_LANDING);
        setTotals(null);
        setTotalsLoading(false);
        return data;
      }
      if (!tc.signal.aborted) void loadTargetRows(data.queueId, tc.signal, targetsOf(body, tc.signal));
      if (lc.signal.aborted) {
        // a newer landing request is on its way
      } else if (data.landingQueueKey)
        void loadLandingRows(data.landingQueueKey, lc.signal, landingsOf(body, lc.signal));
      else setLanding(EMPTY_LANDING);
      return data;
    },
    [take, fail, loadTargetRows, loadLandingRows, targetsOf, landingsOf],
  );

  /** Another page, sort or search of the target table. */
  const searchTargets = useCallback(
    async (body: StatisticsRequestBody, withTotals = false) => {
      const c = take('target');
      setTarget((t) => ({ ...t, loading: true }));
      if (withTotals) setTotalsLoading(true);
      const retry = targetsOf(body, c.signal);
      try {
        const queued = await postStatistics({ ...body, part: 'target' }, c.signal);
        await loadTargetRows(queued.queueId, c.signal, retry);
      } catch (err) {
        if (isAbort(err)) return;
        setTarget((t) => ({ ...t, loading: false }));
        await fail(err, async () => {
          try {
            await retry();
          } catch (again) {
            setTarget((t) => ({ ...t, loading: false }));
            await fail(again, null);
          }
        });
      }
    },
    [take, fail, loadTargetRows, targetsOf],
  );

  /** Another page, sort, search or deleted filter of the landing, offer or path tables. */
  const searchPlacements = useCallback(
    async (body: StatisticsRequestBody) => {
      const c = take('landing');
      setLanding((l) => ({ ...l, loading: true }));
      try {
        const data = await postStatistics({ ...body, part: 'all' }, c.signal);
        setAnswer((a) => (a ? { ...a, offer: data.offer, path: data.path } : data));
        if (data.landingQueueKey)
          await loadLandingRows(data.landingQueueKey, c.signal, landingsOf(body, c.signal));
        else setLanding(EMPTY_LANDING);
      } catch (err) {
        if (isAbort(err)) return;
        setLanding((l) => ({ ...l, loading: false }));
        await fail(err, null);
      }
    },
    [take, fail, loadLandingRows, landingsOf],
  );

  return {
    answer,
    setAnswer,
    target,
    landing,
    setLanding,
    totals,
    totalsLoading,
    searching,
    freshness,
    failed,
    search,
    searchTargets,
    searchPlacements,
  };
}
