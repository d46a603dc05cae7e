// The campaigns list's metric columns (issue 17 item 2): the range's numbers per campaign and
// folder from GET /api/campaign-metrics, the chosen columns (remembered), the sort and the totals.
import { useCallback, useState } from 'react';
import {
  type CampaignMetricsAnswer,
  LIST_METRICS,
  type ListMetric,
  type ListMetrics,
} from '../../../../schema/across-campaigns-api';
import { cr, epc, roi } from '../../../../schema/metrics';
import { useApi } from '../../api/hooks';
import { formatDollars, formatInteger, formatPercent } from '../../lib/format';

export type { ListMetric, ListMetrics };

const metricsKey = (start: string, end: string) =>
  `campaign-metrics?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`;

export const isMetricsKey = (key: unknown) => typeof key === 'string' && key.startsWith('campaign-metrics?');

export function useCampaignMetrics(range: { start: string; end: string } | null) {
  return useApi<CampaignMetricsAnswer>(range ? metricsKey(range.start, range.end) : null, {
    keepPreviousData: true,
  });
}

const COLUMNS_KEY = 'campaignMetricColumns';
// Five fit beside the list's own columns at 1366 px; the picker adds spend, CR and EPC.
const DEFAULT_COLUMNS: ListMetric[] = ['visits', 'conversions', 'revenue', 'profit', 'roi'];

function readColumns(): ListMetric[] {
  try {
    const saved = JSON.parse(window.localStorage.getItem(COLUMNS_KEY) ?? 'null');
    if (Array.isArray(saved)) return LIST_METRICS.filter((m) => saved.includes(m));
  } catch {
    // Unreadable or blocked storage: the default columns.
  }
  return DEFAULT_COLUMNS;
}

/** The chosen metric columns, in the fixed order of LIST_METRICS, remembered in storage. */
export function useMetricColumns() {
  const [columns, setState] = useState<ListMetric[]>(readColumns);
  const toggle = useCallback((metric: ListMetric) => {
    setState((now) => {
      const next = LIST_METRICS.filter((m) => (m === metric ? !now.includes(m) : now.includes(m)));
      try {
        window.localStorage.setItem(COLUMNS_KEY, JSON.stringify(next));
      } catch {
        // Storage blocked: the choice holds for this page view.
      }
      return next;
    });
  }, []);
  return { columns, toggle };
}

const MONEY: readonly ListMetric[] = ['revenue', 'spend', 'profit', 'epc'];

export function formatMetric(metric: ListMetric, value: number): string {
  if (MONEY.includes(metric)) return formatDollars(value);
  if (metric === 'roi' || metric === 'cr') return formatPercent(value, 2);
  return formatInteger(value);
}

/** Profit and ROI are coloured by sign. */
export const signed = (metric: ListMetric) => metric === 'profit' || metric === 'roi';

const cents = (dollars: number) => Math.round(dollars * 100);

/** Totals of rows that do not overlap (no folder with one of its own campaigns): sums in cents. */
export function sumMetrics(rows: readonly ListMetrics[]): ListMetrics {
  let visits = 0;
  let conversions = 0;
  let revenue = 0;
  let spend = 0;
  for (const r of rows) {
    visits += r.visits;
    conversions += r.conversions;
    revenue += cents(r.revenue);
    spend += cents(r.spend);
  }
  return {
    visits,
    conversions,
    revenue: revenue / 100,
    spend: spend / 100,
    profit: (revenue - spend) / 100,
    roi: roi(revenue, spend),
    cr: cr(conversions, visits),
    epc: Math.round(epc(revenue, visits)) / 100,
  };
}

export type MetricSort = { key: ListMetric; desc: boolean } | null;

/** Folders first, each group by the metric; equal values keep the id order. */
export function sortByMetric<T extends { campaignId: number; is_dir: number }>(
  rows: readonly T[],
  sort: NonNullable<MetricSort>,
  metricsOf: (id: number) => ListMetrics | undefined,
): T[] {
  const value = (r: T) => metricsOf(r.campaignId)?.[sort.key] ?? 0;
  const by = (a: T, b: T) => (value(a) - value(b)) * (sort.desc ? -1 : 1) || a.campaignId - b.campaignId;
  return [...rows.filter((r) => r.is_dir === 1).sort(by), ...rows.filter((r) => r.is_dir !== 1).sort(by)];
}
