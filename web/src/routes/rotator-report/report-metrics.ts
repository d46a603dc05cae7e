import { cpa, cr, epc, roi } from '../../../../schema/metrics';
import type { ReportRow } from '../../../../schema/money-api';

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
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString('en-US', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** 'Nov 1, 2026 – Nov 30, 2026' for the period selector. */
export function periodLabel(start: string, end: string): string {
  const f = (day: string) => {
    const [y, m, d] = day.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
  };
  return `${f(start)} – ${f(end)}`;
}
