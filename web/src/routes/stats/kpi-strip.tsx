import type { StatsTotals } from '../../api/endpoints';
import { NoValue, totalsNoValue } from '../../components/data-table/no-value';
import { formatDollars, formatInteger, formatPercent } from '../../lib/format';

type Kpi = { key: string; label: string; value: string; tone?: 'positive' | 'negative' };

/** The headline numbers of the range, from the target totals. */
export function KpiStrip({ totals, loading }: { totals: StatsTotals | null; loading: boolean }) {
  const t = totals;
  const none = totalsNoValue(t);
  const kpis: Kpi[] = t
    ? [
        { key: 'visits', label: 'Visits', value: formatInteger(t.visitsTotal) },
        { key: 'conversions', label: 'Conversions', value: formatInteger(t.conversionsTotal) },
        { key: 'cr', label: 'CR', value: formatPercent(t.crTotal) },
        { key: 'revenue', label: 'Revenue', value: formatDollars(t.revenue) },
        { key: 'spend', label: 'Ad spend', value: formatDollars(t.ad_spent) },
        {
          key: 'net',
          label: 'Net profit',
          value: formatDollars(t.net),
          tone: t.net > 0 ? 'positive' : t.net < 0 ? 'negative' : undefined,
        },
        {
          key: 'roi',
          label: 'ROI',
          value: formatPercent(t.roi_total),
          tone: t.roi_total > 0 ? 'positive' : t.roi_total < 0 ? 'negative' : undefined,
        },
        { key: 'cpa', label: 'CPA', value: formatDollars(t.cpa) },
      ]
    : [];
  const labels = ['Visits', 'Conversions', 'CR', 'Revenue', 'Ad spend', 'Net profit', 'ROI', 'CPA'];
  return (
    <section className="kpi-strip" aria-label="Totals of the range" data-testid="kpis">
      {loading || !t
        ? labels.map((l) => (
            <div key={l} className="kpi">
              <span className="kpi-label">{l}</span>
              <span className="skeleton kpi-skeleton" />
            </div>
          ))
        : kpis.map((k) => (
            <div key={k.key} className="kpi" data-kpi={k.key}>
              <span className="kpi-label">{k.label}</span>
              <span className={k.tone && !none[k.key] ? `kpi-value is-${k.tone}` : 'kpi-value'}>
                {none[k.key] ? <NoValue why={none[k.key]} /> : k.value}
              </span>
            </div>
          ))}
    </section>
  );
}
