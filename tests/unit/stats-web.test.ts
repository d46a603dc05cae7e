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
import {
  type ElementContent,
  elementPreview,
  readElementContents,
} from '../../web/src/routes/stats/element-content';
import { type Applied, baseBody, landingExportColumns, withMetrics } from '../../web/src/routes/stats/query';

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
      // Every ratio has a base here: none is without a value (issue 27).
      none: {},
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

describe('statistics request: several extra tokens and metrics (spec 3 §3)', () => {
  const applied: Applied = {
    campaignId: 7,
    start: '2026-11-01',
    end: '2026-11-18',
    extraTokens: ['sub1', 'placement'],
    landingExtraTokens: ['placement'],
    landingDeleted: false,
    offerDeleted: false,
    pathDeleted: false,
  };

  it('sends every grouped token as extraTokens and extraTokenFields, and the landing ones apart', () => {
    expect(baseBody(applied)).toEqual({
      campaignId: 7,
      startDate: '01-11-2026',
      endDate: '18-11-2026',
      extraTokens: ['sub1', 'placement'],
      extraTokenFields: ['sub1', 'placement'],
      landingExtraTokens: ['placement'],
      landingExtraTokenFields: ['placement'],
      noInputTokens: [],
      landingDeletedStatus: false,
      offerDeletedStatus: false,
      pathDeletedStatus: false,
      showLiveIntentNumbers: false,
      showBlazeNumbers: false,
      showCPCNumbers: false,
    });
  });

  it("sends the number set of the campaign's traffic source (spec 3 §1)", () => {
    const sets = (trafficSource: string) => {
      const b = baseBody({ ...applied, trafficSource });
      return [b.showLiveIntentNumbers, b.showBlazeNumbers, b.showCPCNumbers];
    };
    expect(sets('liveintent')).toEqual([true, false, false]);
    expect(sets('blaze')).toEqual([false, true, false]);
    expect(sets('trrcpc')).toEqual([false, false, true]);
    for (const source of ['apple-news-feed', 'cdsp', 'jeeng', 'crane'])
      expect(sets(source)).toEqual([false, false, false]);
  });

  it('names every grouped token in noInputTokens when rows without values are hidden, and sends the ticked metrics', () => {
    const body = baseBody({ ...applied, noInput: true, metrics: ['roi', 'cpa'] });
    expect(body.noInputTokens).toEqual(['sub1', 'placement']);
    expect(body.metricParams).toEqual(['roi', 'cpa']);
  });

  it('asks for the rows again only when a metric they lack is ticked', () => {
    // Before any choice the rows carry every metric.
    expect(withMetrics(applied, ['roi'])).toEqual({
      applied: { ...applied, metrics: ['roi'] },
      refetch: false,
    });
    const chosen = { ...applied, metrics: ['roi', 'cpa'] };
    expect(withMetrics(chosen, ['roi']).refetch).toBe(false);
    expect(withMetrics(chosen, ['roi', 'epc']).refetch).toBe(true);
  });

  it('puts the landing tokens after the page in the export columns', () => {
    expect(landingExportColumns(applied, ['landing_page', 'visits', 'cr'])).toEqual([
      'landing_page',
      'placement',
      'visits',
      'cr',
    ]);
    expect(landingExportColumns({ ...applied, landingExtraTokens: [] }, ['landing_page', 'visits'])).toEqual([
      'landing_page',
      'visits',
    ]);
  });
});

describe('aggregator element content', () => {
  const answer = (
    url: string,
    variations: { name: string; content: string; tagType: 'cta' | 'header' }[],
  ) => ({
    url,
    variations,
    test_datas: [],
    error: null,
  });

  it('reads one element at a time, each landing page once, trying the next page when the first lacks it', async () => {
    const asked: string[] = [];
    let running = 0;
    const pages: Record<string, ReturnType<typeof answer>> = {
      a: answer('a', [
        { name: 'h1', content: 'Big savings', tagType: 'header' },
        { name: 'img1', content: '<img src="x.png" alt="Shoes">', tagType: 'cta' },
      ]),
      b: answer('b', [{ name: 'h2', content: 'Other', tagType: 'header' }]),
    };
    const results: [string, ElementContent][] = [];
    await readElementContents(
      [
        { position: 0, page: 'h1', urls: ['a'] },
        { position: 0, page: 'h2', urls: ['a', 'b'] },
        { position: 1, page: 'img1', urls: ['a', 'b'] },
        { position: 1, page: 'img9', urls: ['b'] },
      ],
      async (url) => {
        running += 1;
        expect(running).toBe(1); // never two at once
        asked.push(url);
        await new Promise((r) => setTimeout(r, 1));
        running -= 1;
        return pages[url];
      },
      (key, content) => results.push([key, content]),
    );
    expect(asked).toEqual(['a', 'b']);
    expect(results).toEqual([
      ['0:h1', { status: 'found', tagType: 'header', tagContent: 'Big savings' }],
      ['0:h2', { status: 'found', tagType: 'header', tagContent: 'Other' }],
      ['1:img1', { status: 'found', tagType: 'cta', tagContent: '<img src="x.png" alt="Shoes">' }],
      ['1:img9', { status: 'missing', reason: 'No element named "img9" was found on its landing pages.' }],
    ]);
  });

  it("says why a page could not be read, from the server's answer or the failed call", async () => {
    const results: ElementContent[] = [];
    await readElementContents(
      [
        { position: 0, page: 'h1', urls: ['down'] },
        { position: 0, page: 'h2', urls: ['gone'] },
      ],
      async (url) => {
        if (url === 'gone') throw Object.assign(new Error('x'), { firstMessage: 'Campaign not found.' });
        return { ...answer(url, []), error: 'The landing page could not be read (HTTP 500).' };
      },
      (_, content) => results.push(content),
    );
    expect(results).toEqual([
      { status: 'missing', reason: 'The landing page could not be read (HTTP 500).' },
      { status: 'missing', reason: 'Campaign not found.' },
    ]);
  });

  it("shows an image's alt text and a header's text without tags", () => {
    expect(
      elementPreview({ tagType: 'cta', tagContent: '<IMG src="a.png" alt="Red &amp; blue shoes">' }),
    ).toBe('Image: Red & blue shoes');
    expect(elementPreview({ tagType: 'cta', tagContent: '<img src="a.png">' })).toBe('Image');
    expect(elementPreview({ tagType: 'header', tagContent: ' Save <b>50%</b>\n today &lt;3 ' })).toBe(
      'Save 50% today <3',
    );
  });
});
