import { cpa, cr, epc, roi } from '../../../../schema/metrics';
import type { ReportRow } from '../../../../schema/money-api';
import { formatCalendarDay } from '../../lib/format';

/** A report row with the spec 4 §9 derived metrics: 0 when the divisor is 0, 2 decimals. */
export type ReportFigures = ReportRow & { conversion_rate: number; roi: number; epc: number; cpa: number };

const cents = (n: number) => Math.round(n * 100) / 100;

export function figures(row: ReportRow): ReportFigures {
  return {
    ...row,
    conversion_rate: cr(row.sales, row.clicks),
    roi: roi(row.revenue, row.ad_spend),
    epc: cents(epc(row.revenue, row.clicks)),
    cpa: cents(cpa(row.ad_spend, row.sales)),
  };
}

/** The total row: sums of the counted columns, ratios recomputed from the sums. */
export function totalOf(rows: readonly ReportRow[]): ReportFigures {
  const sum = (k: 'ad_spend' | 'clicks' | 'sales' | 'revenue' | 'net_profit') =>
    cents(rows.reduce((n, r) => n + r[k], 0));
  const spend = sum('ad_spend');
  const clicks = sum('clicks');
  return figures({
    date: 'Total',
    ad_spend: spend,
    clicks,
    sales: sum('sales'),
    revenue: sum('revenue'),
    net_profit: sum('net_profit'),
    cpc: clicks ? cents(spend / clicks) : 0,
  });
}

/** 'Jan 2024' from '2024-01' (spec 4 §9). */
export const monthLabel = (month: string): string =>
  formatCalendarDay(month, { month: 'short', year: 'numeric' });

/** 'Nov 1, 2026' from '2026-11-01'. */
export const dayLabel = (day: string): string =>
  formatCalendarDay(day, { month: 'short', day: 'numeric', year: 'numeric' });

/** 'Nov 1, 2026 – Nov 30, 2026' for the period selector. */
export function periodLabel(start: string, end: string): string {
  return `${dayLabel(start)} – ${dayLabel(end)}`;
}
