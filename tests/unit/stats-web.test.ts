import { describe, expect, it, vi } from 'vitest';
import { nextSort, pageRows, sortRows, tooltipParts } from '../../web/src/components/data-table/sorting';
import {
  chooseLastN,
  chooseQuick,
  type DateRangeValue,
  initialRange,
  setEnd,
  setStart,
} from '../../web/src/components/date-range/range';
import {
  POLL_MESSAGES,
  PollExhaustedError,
  PollJobError,
  pollDelays,
  pollUntilDone,
} from '../../web/src/lib/poll';
import { dailyBases, dashboardTotals, graphPoint } from '../../web/src/routes/dashboard/dashboard-metrics';

// The pure parts of the statistics and dashboard screens: date-range rules, table sorting and
// paging, the polling schedule, and the dashboard's totals from quick-stats-v2.

const TODAY = '2026-11-18'; // a Wednesday

describe('date range', () => {
  it('sets the quick choices from today', () => {
    const r = initialRange('today', TODAY);
    expect(r).toMatchObject({ start: TODAY, end: TODAY, quick: 'today' });
    expect(chooseQuick(r, 'yesterday', TODAY)).toMatchObject({ start: '2026-11-17', end: '2026-11-17' });
    expect(chooseQuick(r, 'past-7-days', TODAY)).toMatchObject({ start: '2026-11-12', end: TODAY });
    expect(chooseQuick(r, 'past-30-days', TODAY)).toMatchObject({ start: '2026-10-20', end: TODAY });
    expect(chooseQuick(r, 'this-month', TODAY)).toMatchObject({ start: '2026-11-01', end: TODAY });
    expect(chooseQuick(r, 'this-year', TODAY)).toMatchObject({ start: '2026-01-01', end: TODAY });
  });

  it("leaves the dates alone for 'this-week' (the spec: it does nothing)", () => {
    const r: DateRangeValue = { start: '2026-11-02', end: '2026-11-05', quick: null, lastN: 90 };
    expect(chooseQuick(r, 'this-week', TODAY)).toEqual({ ...r, quick: 'this-week' });
  });

  it('counts last N days to today, -1 meaning all time with both dates blank', () => {
    const r = initialRange('today', TODAY);
    expect(chooseLastN(r, 3, TODAY)).toMatchObject({
      start: '2026-11-16',
      end: TODAY,
      quick: 'last-n',
      lastN: 3,
    });
    expect(chooseLastN(r, -1, TODAY)).toMatchObject({ start: '', end: '', quick: 'last-n', lastN: -1 });
    expect(chooseLastN(r, 0, TODAY)).toMatchObject({ start: TODAY, end: TODAY, lastN: 1 });
  });

  it('clears the quick choice on a manual date and sets an end before the start to the start', () => {
    const r = initialRange('past-7-days', TODAY);
    expect(setStart(r, '2026-11-14')).toEqual({ start: '2026-11-14', end: TODAY, quick: null, lastN: 90 });
    expect(setEnd(r, '2026-11-01')).toEqual({
      start: '2026-11-12',
      end: '2026-11-12',
      quick: null,
      lastN: 90,
    });
    expect(setStart({ ...r, end: '2026-11-13' }, '2026-11-15')).toMatchObject({
      start: '2026-11-15',
      end: '2026-11-15',
    });
  });
});

describe('table sorting, paging and tooltips', () => {
  it('sorts a new column descending first, then flips', () => {
    expect(nextSort(undefined, 'visits')).toEqual({ key: 'visits', order: 'desc' });
    expect(nextSort({ key: 'visits', order: 'desc' }, 'visits')).toEqual({ key: 'visits', order: 'asc' });
    expect(nextSort({ key: 'visits', order: 'asc' }, 'visits')).toEqual({ key: 'visits', order: 'desc' });
    expect(nextSort({ key: 'visits', order: 'asc' }, 'cr')).toEqual({ key: 'cr', order: 'desc' });
  });

  it('sorts money strings as numbers and text without case', () => {
    const rows = [{ v: '$1,200.00' }, { v: '$99.50' }, { v: '-$5.00' }];
    expect(sortRows(rows, { key: 'v', order: 'desc' }, (r, k) => r[k as 'v']).map((r) => r.v)).toEqual([
      '$1,200.00',
      '$99.50',
      '-$5.00',
    ]);
    const names = [{ n: 'beta' }, { n: 'Alpha' }, { n: 'gamma' }];
    expect(sortRows(names, { key: 'n', order: 'asc' }, (r, k) => r[k as 'n']).map((r) => r.n)).toEqual([
      'Alpha',
      'beta',
      'gamma',
    ]);
  });

  it('pages rows and clamps a page past the end', () => {
    const rows = Array.from({ length: 23 }, (_, i) => i);
    expect(pageRows(rows, 3, 10)).toEqual([20, 21, 22]);
    expect(pageRows(rows, 9, 10)).toEqual([20, 21, 22]);
  });

  it('gives text over 30 characters a tooltip split on commas', () => {
    expect(tooltipParts('short, text')).toBeNull();
    expect(tooltipParts('exactly thirty characters long')).toBeNull();
    expect(tooltipParts('alpha-campaign-creative, beta-placement, gamma')).toEqual([
      'alpha-campaign-creative',
      'beta-placement',
      'gamma',
    ]);
  });
});

describe('polling', () => {
  it('waits 100 ms, doubling, capped at 3 s, at most 100 times', () => {
    const delays = pollDelays();
    expect(delays).toHaveLength(100);
    expect(delays.slice(0, 7)).toEqual([100, 200, 400, 800, 1600, 3000, 3000]);
    expect(pollDelays({ initialDelay: 3000, factor: 1, maxTries: 20 })).toEqual(Array(20).fill(3000));
  });

  it('answers the result when done, the job error, or the retries message when exhausted', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const done = pollUntilDone(async () => (++calls < 3 ? { done: false } : { done: true, result: 42 }), {
        exhaustedMessage: POLL_MESSAGES.target,
      });
      await vi.advanceTimersByTimeAsync(100 + 200 + 400);
      await expect(done).resolves.toBe(42);
      expect(calls).toBe(3);

      const failed = pollUntilDone(async () => ({ done: true, error: 'broken' }), {
        exhaustedMessage: POLL_MESSAGES.target,
      });
      const failure = expect(failed).rejects.toThrow(PollJobError);
      await vi.advanceTimersByTimeAsync(100);
      await failure;

      let tries = 0;
      const never = pollUntilDone(
        async () => {
          tries++;
          return null;
        },
        { exhaustedMessage: POLL_MESSAGES.landing, maxTries: 5 },
      );
      const exhausted = expect(never).rejects.toThrow(
        new PollExhaustedError('Exceed number of retries for landing page performance table'),
      );
      await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 800 + 1600);
      await exhausted;
      expect(tries).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops when the request is cancelled', async () => {
    const controller = new AbortController();
    const once = vi.fn(async () => ({ done: false }));
    const polling = pollUntilDone(once, {
      exhaustedMessage: POLL_MESSAGES.totals,
      signal: controller.signal,
    });
    controller.abort();
    await expect(polling).rejects.toMatchObject({ name: 'AbortError' });
    expect(once).not.toHaveBeenCalled();
  });
});

describe('dashboard totals', () => {
  const answer = {
    liveintent: {
      reports: [
        { date: '2026-11-10', advertiserSpent: 18.1, clicks: 20, impressions: 1000 },
        { date: '2026-11-11', advertiserSpent: 2.2, clicks: 0, impressions: 0 },
      ],
    },
    visitors: [
      { date: '2026-11-10', visitors: 16, lpclicks: 8, revenue: 40.3 },
      { date: '2026-11-11', visitors: 4, lpclicks: 1, revenue: 0 },
    ],
    conversions: [
      { date: '2026-11-10', conversions: 3 },
      { date: '2026-11-11', conversions: 0 },
    ],
  };

  it('sums money in cents and derives CPA, net, LP CTR and ad CTR with the shared formulas', () => {
    const totals = dashboardTotals(dailyBases(answer));
    expect(totals).toEqual({
      adSpend: 20.3,
      revenue: 40.3,
      net: 20,
      cpa: 6.77,
      conversions: 3,
      clicks: 20,
      visitors: 20,
      lpCtr: 45,
      adCtr: 2,
    });
  });

  it('gives each day its graph value: money in dollars, ROI in percent, 0 for a zero denominator', () => {
    const [d1, d2] = dailyBases(answer);
    expect(graphPoint('ad_spent', d1)).toBe(18.1);
    expect(graphPoint('net_profit', d2)).toBe(-2.2);
    expect(graphPoint('roi', d1)).toBe(122.65);
    expect(graphPoint('roi', d2)).toBe(-100);
    expect(graphPoint('cpa', d2)).toBe(0);
    expect(graphPoint('cplpc', d1)).toBe(2.26);
    expect(graphPoint('epc', d1)).toBe(2.52);
    expect(graphPoint('ad_ctr', d1)).toBe(2);
  });
});
