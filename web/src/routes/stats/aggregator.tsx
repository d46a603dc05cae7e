import { Puzzle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { type LandingElementsAnswer, STATS_MESSAGES } from '../../../../schema/stats-api';
import { api } from '../../api/client';
import {
  type AggregateResult,
  type ElementRow,
  getAggregate,
  queueAggregate,
  type StatisticsRequestBody,
  updateLandingStatusMany,
} from '../../api/endpoints';
import { Card } from '../../components/card';
import { useBusyAction } from '../../components/confirmed-action';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { type SortState, sortRows } from '../../components/data-table/sorting';
import { StatusSwitch } from '../../components/data-table/status-switch';
import { EmptyState } from '../../components/empty-state';
import { notify } from '../../components/toaster';
import { isAbort, pollUntilDone } from '../../lib/poll';
import { type ElementContent, elementKey, elementPreview, readElementContents } from './element-content';
import { testsColumn } from './item-columns';
import type { TestSubject } from './test-results-modal';

// The landing-element aggregator of spec 3: landing pages grouped by the parts of their names,
// per position, polled every 3 s with at most 20 empty tries; then each element's content is read
// from its landing page, one element at a time, and shown as a CTA (an image) or a header.

const AGGREGATE_FAILED = 'Aggregate: Failed to get landing data';

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
  contents,
}: {
  rows: ElementRow[];
  position: number;
  onToggle: (row: ElementRow, next: boolean) => void;
  busy: string | null;
  onShowTests: (row: ElementRow) => void;
  contents: ReadonlyMap<string, ElementContent>;
}) {
  const [sort, setSort] = useState<SortState>({ key: 'visits', order: 'desc' });
  const columns: Column<ElementRow>[] = [
    { key: 'page', label: `Element ${position + 1}`, kind: 'text', className: 'cell-strong' },
    {
      key: 'tagType',
      label: 'Type',
      sortable: false,
      render: (r) => <ElementType content={contents.get(elementKey(position, r.page))} />,
    },
    {
      key: 'tagContent',
      label: 'Content',
      sortable: false,
      render: (r) => <ElementText content={contents.get(elementKey(position, r.page))} />,
    },
    { key: 'visits', label: 'Visits', kind: 'int' },
    { key: 'lpClicks', label: 'LP Clicks', kind: 'int' },
    { key: 'lpCTR', label: 'LP CTR', kind: 'percent', digits: 1 },
    { key: 'conversions', label: 'Purchase Event', kind: 'int' },
    { key: 'cr', label: 'CR', kind: 'percent' },
    { key: 'cpa', label: 'CPA', kind: 'money' },
    { key: 'adSpent', label: 'Ad Spend', kind: 'money' },
    { key: 'revenue', label: 'Revenue', kind: 'money' },
    { key: 'netProfit', label: 'Net', kind: 'money' },
    testsColumn<ElementRow>((r) => r.page, onShowTests),
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
  const { busy, run } = useBusyAction<string>();
  const [contents, setContents] = useState<ReadonlyMap<string, ElementContent>>(new Map());
  const controller = useRef<AbortController | null>(null);

  // Spec 3 §4: the elements are processed one at a time to fetch their content. They are read
  // again when the elements or the range change, not when their numbers or switches do.
  const signature = elementsKey(result);
  const campaignId = request?.campaignId ?? null;
  const startDate = request?.startDate ?? '';
  const endDate = request?.endDate ?? '';
  useEffect(() => {
    const { separator, elements } = JSON.parse(signature) as {
      separator: string;
      elements: { position: number; page: string; urls: string[] }[];
    };
    if (!campaignId || elements.length === 0) return;
    const c = new AbortController();
    setContents(
      new Map(elements.map((e) => [elementKey(e.position, e.page), { status: 'loading' as const }])),
    );
    void readElementContents(
      elements,
      (url) =>
        api.get<LandingElementsAnswer>('landing/get-landing-elements-data', {
          query: { campaignId, url, startDate, endDate, separator },
          signal: c.signal,
        }),
      (key, content) => {
        if (!c.signal.aborted) setContents((m) => new Map(m).set(key, content));
      },
      c.signal,
    );
    return () => c.abort();
  }, [signature, campaignId, startDate, endDate]);

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

  const toggle = (position: number, row: ElementRow, next: boolean) =>
    run(
      `${position}:${row.page}`,
      async () => {
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
      },
      () => notify.error(STATS_MESSAGES.landingStatusNotUpdated),
    );

  const positions = result?.positions ?? [];
  return (
    <Card
      title="Landing page elements"
      description={`Landing pages grouped by the parts of their names (split on "${result?.separator ?? '_'}"): which headline or image wins across every page that uses it. Each element's type comes from its content on the page: an image is a CTA, anything else a header.`}
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
              <h3 className="element-title caps-label">Position {position + 1}</h3>
              <ElementTable
                rows={rows}
                position={position}
                busy={busy}
                contents={contents}
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

/** The elements and the pages they are read from, as one value: a new list reads them again. */
function elementsKey(result: AggregateResult | null): string {
  return JSON.stringify({
    separator: result?.separator ?? '_',
    elements: (result?.positions ?? []).flatMap((rows) =>
      rows.map((e) => ({ position: e.position, page: e.page, urls: e.urls })),
    ),
  });
}

function ElementType({ content }: { content: ElementContent | undefined }) {
  if (!content || content.status === 'loading') return <span className="cell-muted">Reading…</span>;
  if (content.status === 'missing')
    return (
      <span className="cell-muted" title={content.reason}>
        Unknown
      </span>
    );
  return content.tagType === 'cta' ? (
    <span className="badge badge-accent">CTA</span>
  ) : (
    <span className="badge badge-neutral">Header</span>
  );
}

function ElementText({ content }: { content: ElementContent | undefined }) {
  if (!content || content.status === 'loading') return <span className="cell-muted">—</span>;
  if (content.status === 'missing')
    return <span className="cell-muted element-content">{content.reason}</span>;
  const text = elementPreview(content);
  return (
    <span className="element-content" title={content.tagContent}>
      {text || '—'}
    </span>
  );
}
