// The dashboard's "All campaigns" choice (issue 17 item 2) and the hints on the numbers that only
// imported ad data fills (clicks, ad CTR).
import { Info } from 'lucide-react';
import useSWR from 'swr';
import type { QuickStats } from '../../../../schema/stats-api';
import { api } from '../../api/client';
import { useQuickStats } from '../../api/hooks';

export const ALL = 'all' as const;
export type DashboardChoice = number | typeof ALL;

/** The chosen campaign's daily series, or every campaign's summed (POST /api/quick-stats-all). */
export function useDashboardStats(choice: DashboardChoice | null, start: string, end: string) {
  const one = useQuickStats(typeof choice === 'number' ? choice : null, start, end);
  const all = useSWR<QuickStats>(
    choice === ALL ? ['quick-stats-all', start, end] : null,
    () => api.post<QuickStats>('quick-stats-all', { start_date: start, end_date: end }),
    { revalidateOnFocus: false, keepPreviousData: true },
  );
  return choice === ALL ? all : one;
}

const AD_DATA_HINT =
  'Counted by the ad platform, not the tracker: this shows 0 until ad data is imported (a connected platform’s cost sync, or costs entered or uploaded on the statistics screen).';

/** Clicks on the ads as the platform counts them: not the tracker's visits (issue 27). */
export const AD_CLICKS_HINT =
  'Counted by the ad platform (clicks on your ads), not by the tracker, whose visits are under Visitors: this shows 0 until ad data is imported (a connected platform’s cost sync, or costs entered or uploaded on the statistics screen).';

/** An info button whose tooltip (on hover and on keyboard focus) says where the number comes from. */
export function AdDataHint({ id, label, text = AD_DATA_HINT }: { id: string; label: string; text?: string }) {
  return (
    <span className="kpi-hint">
      <button
        type="button"
        className="kpi-hint-button"
        aria-label={`Why ${label} may be 0`}
        aria-describedby={id}
      >
        <Info size={13} aria-hidden />
      </button>
      <span role="tooltip" id={id} className="kpi-tooltip">
        {text}
      </span>
    </span>
  );
}
