import { NO_VALUE, type RatioBase, undefinedRatios } from '../../../../schema/undefined-ratios';

// A ratio without a value (its denominator is 0): "—" with the reason as its tooltip and for
// screen readers, never 0 % or $0.00 (issue 27, docs/decisions/131-undefined-ratios.md).

export function NoValue({ why }: { why: string }) {
  return (
    <span className="no-value" title={why} data-no-value={why}>
      <span aria-hidden="true">{NO_VALUE}</span>
      <span className="sr-only">{why}</span>
    </span>
  );
}

/** The ratios without a value of a totals object of the statistics answers (spec 3 §3 totals). */
export function totalsNoValue(
  t:
    | {
        ad_spent?: number;
        visitsTotal?: number;
        conversionsTotal?: number;
        impressionsTotal?: number;
        lpclicksTotal?: number;
      }
    | null
    | undefined,
): Record<string, string> {
  if (!t) return {};
  const base: RatioBase = {
    spend: t.ad_spent ?? 0,
    visits: t.visitsTotal ?? 0,
    conversions: t.conversionsTotal ?? 0,
    impressions: t.impressionsTotal ?? 0,
    lpClicks: t.lpclicksTotal ?? 0,
  };
  return undefinedRatios(base);
}
