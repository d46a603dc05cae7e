// Column definitions of the statistics tables: kinds (money, percent, integer) and which totals
// field fills each footer cell (spec 3 §3, §9).
import type { ReactNode } from 'react';
import { CUSTOM_EVENT_PREFIX, STATS_COLUMN_TITLES as T } from '../../../../schema/stats-reports-api';
import { RATIO_KEYS } from '../../../../schema/undefined-ratios';
import type { StatsTotals, TargetRecord } from '../../api/endpoints';
import { type Column, type ColumnKind, valueCell } from '../../components/data-table/data-table';
import { totalsNoValue } from '../../components/data-table/no-value';

type MetricSpec = { kind: ColumnKind; digits?: number; total?: keyof StatsTotals; totalDigits?: number };

/** How each metric parameter of the picker is shown, and its totals field. */
const METRIC_SPECS: Record<string, MetricSpec> = {
  lpclicks: { kind: 'int', total: 'lpclicksTotal' },
  lp_cpc: { kind: 'money', total: 'lp_cpc_total' },
  lpctr: { kind: 'percent', digits: 1, total: 'lpctrTotal', totalDigits: 2 },
  cpa: { kind: 'money', total: 'cpa' },
  cr: { kind: 'percent', total: 'crTotal' },
  ad_spent: { kind: 'money', total: 'ad_spent' },
  revenue: { kind: 'money', total: 'revenue' },
  net: { kind: 'money', total: 'net' },
  roi: { kind: 'percent', total: 'roi_total' },
  epc: { kind: 'money', total: 'epc_total' },
  event_lp_visits: { kind: 'int' },
  event_lp_visits_cpc: { kind: 'money' },
  event_lp_visits_ctr: { kind: 'percent' },
  event_atc1_visits: { kind: 'int' },
  event_atc1_visits_cpc: { kind: 'money' },
  event_atc2_visits: { kind: 'int' },
  event_atc2_visits_cpc: { kind: 'money' },
  optin: { kind: 'int' },
  checkout: { kind: 'int' },
  sales: { kind: 'int' },
  booked_a_call: { kind: 'int' },
  mentorship_sale: { kind: 'int' },
  commission: { kind: 'int' },
};

const AD_CLICKS_HINT = '{m}: the platform’s clicks where its import brought them, tracked visits otherwise';

/** A CTR or CPC cell with what it divided by, when that was the tracked visits (decision 158). */
function withBase(cell: ReactNode, row: TargetRecord): ReactNode {
  if (row.ad_clicks_from !== 'visits') return cell;
  return (
    <span className="cell-with-note">
      {cell} <small className="cell-note">by visits</small>
    </span>
  );
}

/** A CTR or CPC cell: "—" with why when it has no value, else the value and its base. */
function adCell(kind: ColumnKind, key: 'ctr' | 'ad_cpc', row: TargetRecord): ReactNode {
  const why = row.no_value?.[key];
  return why ? valueCell(kind, row[key], why) : withBase(valueCell(kind, row[key]), row);
}

export type TargetColumnsInput = {
  tokens: { parameter: string; token_name: string }[];
  metrics: { parameter: string; name: string }[];
  showAdNumbers: boolean;
  customEvents: string[];
};

/** The export sends these keys too; the server titles them by the event's name. */
const CUSTOM_PREFIX = CUSTOM_EVENT_PREFIX;

/** A target row's "no value" reason for a ratio column (the server's no_value, issue 27). */
const rowNoValue = (key: string) => (row: TargetRecord) => row.no_value?.[key];

export function targetColumns({
  tokens,
  metrics,
  showAdNumbers,
  customEvents,
}: TargetColumnsInput): Column<TargetRecord>[] {
  const cols: Column<TargetRecord>[] = [
    { key: 'target', label: T.target, kind: 'text', className: 'cell-strong' },
  ];
  for (const t of tokens) cols.push({ key: t.parameter, label: t.token_name || t.parameter, kind: 'text' });
  if (showAdNumbers) {
    cols.push(
      { key: 'impressions', label: T.impressions, kind: 'int' },
      { key: 'clicks', label: T.clicks, kind: 'int' },
      {
        key: 'ctr',
        label: T.ctr,
        kind: 'percent',
        hint: AD_CLICKS_HINT.replace('{m}', 'Clicks / impressions'),
        render: (row) => adCell('percent', 'ctr', row),
      },
      {
        key: 'ad_cpc',
        label: T.ad_cpc,
        kind: 'money',
        hint: AD_CLICKS_HINT.replace('{m}', 'Ad spend / clicks'),
        render: (row) => adCell('money', 'ad_cpc', row),
      },
    );
  }
  cols.push(
    { key: 'visits', label: T.visits, kind: 'int' },
    { key: 'conversions', label: T.conversions, kind: 'int', hint: 'Conversions of the campaign’s goal' },
  );
  for (const m of metrics) {
    const spec = METRIC_SPECS[m.parameter] ?? { kind: 'decimal' as const };
    cols.push({
      key: m.parameter,
      label: T[m.parameter] ?? m.name,
      kind: spec.kind,
      digits: spec.digits,
      noValue: RATIO_KEYS.includes(m.parameter) ? rowNoValue(m.parameter) : undefined,
    });
  }
  for (const e of customEvents) {
    cols.push({
      key: `${CUSTOM_PREFIX}${e}`,
      label: e,
      kind: 'int',
      hint: `Custom event "${e}"`,
      sortable: false,
      value: (row) => row.custom_events?.[e] ?? 0,
    });
  }
  return cols;
}

const TARGET_TOTALS: Record<string, { total: keyof StatsTotals; kind: ColumnKind; digits?: number }> = {
  impressions: { total: 'impressionsTotal', kind: 'int' },
  clicks: { total: 'clicksTotal', kind: 'int' },
  ctr: { total: 'ctrTotal', kind: 'percent', digits: 3 },
  ad_cpc: { total: 'ad_cpc_total', kind: 'money' },
  visits: { total: 'visitsTotal', kind: 'int' },
  conversions: { total: 'conversionsTotal', kind: 'int' },
};

/** Footer cells from a totals object, with the spec's rounding (CTR 3 decimals, LP CTR 2). */
export function targetFooter(totals: StatsTotals | null | undefined): Record<string, ReactNode> | null {
  if (!totals) return null;
  const out: Record<string, ReactNode> = {};
  const none = totalsNoValue(totals);
  for (const [key, t] of Object.entries(TARGET_TOTALS))
    out[key] = valueCell(t.kind, totals[t.total], none[key], t.digits);
  for (const [key, spec] of Object.entries(METRIC_SPECS)) {
    if (!spec.total) continue;
    const value = totals[spec.total];
    if (value !== undefined)
      out[key] = valueCell(spec.kind, value, none[key], spec.totalDigits ?? spec.digits);
  }
  return out;
}

/** Custom event names present in the rows (any event without a column of its own). */
export function customEventNames(rows: readonly TargetRecord[]): string[] {
  const names = new Set<string>();
  for (const r of rows) for (const name of Object.keys(r.custom_events ?? {})) names.add(name);
  return [...names].sort();
}
