// Ratios whose denominator is 0 have no value (issue 27 item 3): the screens show "—" with the
// reason as a tooltip, the CSV an empty cell; never 0 % or $0.00, which read as break-even. The
// answers keep the spec's 0 (spec 3 §9 "zero if no spend"); this says when that 0 means "no data"
// (docs/decisions/131-undefined-ratios.md). One table for the worker's export and the SPA.

/** What a screen shows for a ratio without a value. */
export const NO_VALUE = '—';

export type RatioBase = {
  /** any unit: only compared with 0 */
  spend: number;
  visits: number;
  conversions: number;
  impressions?: number;
  /** what a per-ad CPC divides by: the platform's clicks where imported, else the visits (decision 158) */
  adClicks?: number;
  lpClicks?: number;
  /** LP, ATC1 and ATC2 event clicks (target rows) */
  events?: { lp?: number; atc1?: number; atc2?: number };
};

/** The reasons, as the tooltip says them. */
export const NO_VALUE_REASONS = {
  spend: 'No value: no ad spend recorded in this range, so there is nothing to divide.',
  conversions: 'No value: no conversions in this range.',
  visits: 'No value: no visits in this range.',
  adClicks: 'No value: no ad clicks or visits in this range.',
  impressions: 'No value: the ad platform reported no impressions in this range.',
  lpClicks: 'No value: no landing-page clicks in this range.',
  events: 'No value: no event clicks in this range.',
} as const;
type Need = keyof typeof NO_VALUE_REASONS;

/** Each ratio by its column key, with the counts that must not be 0, in the order they are told. */
const RATIOS: Record<string, { needs: Need[]; event?: 'lp' | 'atc1' | 'atc2' }> = {
  roi: { needs: ['spend'] },
  cpa: { needs: ['spend', 'conversions'] },
  epc: { needs: ['visits'] },
  cr: { needs: ['visits'] },
  lpctr: { needs: ['visits'] },
  ctr: { needs: ['impressions'] },
  ad_cpc: { needs: ['spend', 'adClicks'] },
  lp_cpc: { needs: ['spend', 'lpClicks'] },
  event_lp_visits_ctr: { needs: ['visits'] },
  event_lp_visits_cpc: { needs: ['spend', 'events'], event: 'lp' },
  event_atc1_visits_cpc: { needs: ['spend', 'events'], event: 'atc1' },
  event_atc2_visits_cpc: { needs: ['spend', 'events'], event: 'atc2' },
};

/** The ratio column keys this applies to. */
export const RATIO_KEYS = Object.keys(RATIOS);

/** The ratios of `base` that have no value, by column key, with the reason. */
export function undefinedRatios(base: RatioBase): Record<string, string> {
  const zero = (need: Need, event?: 'lp' | 'atc1' | 'atc2'): boolean => {
    if (need === 'events') return !(event && base.events?.[event]);
    if (need === 'adClicks') return !(base.adClicks ?? base.visits);
    return !base[need];
  };
  const out: Record<string, string> = {};
  for (const [key, ratio] of Object.entries(RATIOS)) {
    const missing = ratio.needs.find((need) => zero(need, ratio.event));
    if (missing) out[key] = NO_VALUE_REASONS[missing];
  }
  return out;
}

/** A landing row's ratios without a value (money in *_value dollars, spec 3 §3 landing rows). */
export const landingNoValue = (r: {
  ad_spent_value: number;
  visits: number;
  conversions: number;
  lpclicks: number;
}) =>
  undefinedRatios({
    spend: r.ad_spent_value,
    visits: r.visits,
    conversions: r.conversions,
    lpClicks: r.lpclicks,
  });

/** A breakdown row's (or total's) ratios without a value. */
export const breakdownNoValue = (r: {
  ad_spent: number;
  visits: number;
  conversions: number;
  lpclicks: number;
}) =>
  undefinedRatios({ spend: r.ad_spent, visits: r.visits, conversions: r.conversions, lpClicks: r.lpclicks });
