import { Info, Puzzle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { STATS_MESSAGES } from '../../../../schema/stats-api';
import {
  type AggregateResult,
  type ElementRow,
  getAggregate,
  queueAggregate,
  type StatisticsRequestBody,
  updateLandingStatusMany,
} from '../../api/endpoints';
import { Card } from '../../components/card';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { type SortState, sortRows } from '../../components/data-table/sorting';
import { StatusSwitch } from '../../components/data-table/status-switch';
import { EmptyState } from '../../components/empty-state';
import { notify } from '../../components/toaster';
import { isAbort, pollUntilDone } from '../../lib/poll';
import type { TestSubject } from './test-results-modal';

// The landing-element aggregator of spec 3: landing pages grouped by the parts of their names,
// per position, polled every 3 s with at most 20 empty tries.

export const AGGREGATE_FAILED = 'Aggregate: Failed to get landing data';

type Props = {
  /** The request to aggregate for; a new object runs it again. */
  request: StatisticsRequestBody | null;
  onShowTests: (subject: TestSubject) => void;
  /** Told after elements were switched, so the landing table can follow. */
  onStatusChange: () => void;
};

function ElementTable({
  rows,
  position,
  onToggle,
  busy,
  onShowTests,
}: {
  rows: ElementRow[];
  position: number;
  onToggle: (row: ElementRow, next: boolean) => void;
  busy: string | null;
  onShowTests: (row: ElementRow) => void;
}) {
  const [sort, setSort] = useState<SortState>({ key: 'visits', order: 'desc' });
  const columns: Column<ElementRow>[] = [
    { key: 'page', label: `Element ${position + 1}`, kind: 'text', className: 'cell-strong' },
    { key: 'visits', label: 'Visits', kind: 'int' },
    { key: 'lpClicks', label: 'LP Clicks', kind: 'int' },
    { key: 'lpCTR', label: 'LP CTR', kind: 'percent', digits: 1 },
    { key: 'conversions', label: 'Purchase Event', kind: 'int' },
    { key: 'cr', label: 'CR', kind: 'percent' },
    { key: 'cpa', label: 'CPA', kind: 'money' },
    { key: 'adSpent', label: 'Ad Spend', kind: 'money' },
    { key: 'revenue', label: 'Revenue', kind: 'money' },
    { key: 'netProfit', label: 'Net', kind: 'money' },
    {
      key: 'tests',
      label: 'Tests',
      sortable: false,
      className: 'actions',
      render: (r) =>
        r.test_data.length > 0 ? (
          <button
            type="button"
            className="icon-btn test-info"
            aria-label={`Test results of ${r.page}`}
            title="Test results"
            onClick={() => onShowTests(r)}
          >
            <Info size={16} aria-hidden />
            {r.test_summary.better > 0 && <span className="test-dot is-better" aria-hidden />}
            {r.test_summary.worst > 0 && <span className="test-dot is-worst" aria-hidden />}
          </button>
        ) : (
          <span className="cell-muted">—</span>
        ),
    },
    {
      key: 'status',
      label: 'Status',
      sortable: false,
      className: 'actions',
      render: (r) => (
        <StatusSwitch
          checked={r.status === 1}
          label={`Element ${r.page}`}
          busy={busy === `${position}:${r.page}`}
          onChange={(next) => onToggle(r, next)}
          testId={`element-switch-${position}-${r.page}`}
        />
      ),
    },
  ];
  return (
    <DataTable<ElementRow>
      id={`element-${position}`}
      label={`Elements at position ${position + 1}`}
      columns={columns}
      rows={sortRows(rows, sort, (r, k) => (r as Record<string, unknown>)[k])}
      rowKey={(r) => r.page}
      sort={sort}
      onSortChange={setSort}
      rowClassName={(r) => (r.status ? undefined : 'row-inactive')}
      maxHeight={360}
    />
  );
}

export function Aggregator({ request, onShowTests, onStatusChange }: Props) {
  const [result, setResult] = useState<AggregateResult | null>(null);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!request) return;
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setLoading(true);
    (async () => {
      try {
        const { uuid } = await queueAggregate(request, c.signal);
        const data = await pollUntilDone<AggregateResult>(
          async (s) => {
            const answer = await getAggregate(uuid, s);
            return { done: answer.done, error: answer.error, result: answer.data ?? undefined };
          },
          {
            exhaustedMessage: AGGREGATE_FAILED,
            initialDelay: 3000,
            factor: 1,
            maxTries: 20,
            signal: c.signal,
          },
        );
        setResult(data);
        setLoading(false);
      } catch (err) {
        if (isAbort(err)) return;
        setLoading(false);
        notify.error(AGGREGATE_FAILED);
      }
    })();
    return () => c.abort();
  }, [request]);

  const toggle = async (position: number, row: ElementRow, next: boolean) => {
    setBusy(`${position}:${row.page}`);
    try {
      const answer = await updateLandingStatusMany(row.landingIds, next ? 1 : 0);
      // Every element that shares these pages may change: the union of its pages' flags.
      setResult((r) =>
        r
          ? {
              ...r,
              positions: r.positions.map((rows, p) =>
                rows.map((e) =>
                  p === position && e.page === row.page ? { ...e, status: answer.active ? 1 : 0 } : e,
                ),
              ),
            }
          : r,
      );
      notify.success(STATS_MESSAGES.landingStatusUpdated);
      onStatusChange();
    } catch {
      notify.error(STATS_MESSAGES.landingStatusNotUpdated);
    } finally {
      setBusy(null);
    }
  };

  const positions = result?.positions ?? [];
  return (
    <Card
      title="Landing page elements"
      description={`Landing pages grouped by the parts of their names (split on "${result?.separator ?? '_'}"): which headline or image wins across every page that uses it.`}
      flush
      className="stats-card"
      id="aggregator"
    >
      {loading && positions.length === 0 ? (
        <DataTable<ElementRow>
          id="element-loading"
          label="Elements"
          columns={[{ key: 'page', label: 'Element' }]}
          rows={[]}
          rowKey={(r) => r.page}
          loading
        />
      ) : positions.length === 0 ? (
        <EmptyState icon={Puzzle} title="No landing page elements">
          Name landing pages by their parts, such as headline2_image1, to compare headlines and images across
          pages.
        </EmptyState>
      ) : (
        <div className="element-tables" aria-busy={loading || undefined}>
          {positions.map((rows, position) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: positions are ordinal
            <section key={position} className="element-table" aria-label={`Position ${position + 1}`}>
              <h3 className="element-title">Position {position + 1}</h3>
              <ElementTable
                rows={rows}
                position={position}
                busy={busy}
                onToggle={(r, next) => void toggle(position, r, next)}
                onShowTests={(r) =>
                  onShowTests({
                    name: r.page,
                    summary: r.test_summary,
                    tests: r.test_data,
                    nameOf: (a) => String(a),
                  })
                }
              />
            </section>
          ))}
        </div>
      )}
    </Card>
  );
}
