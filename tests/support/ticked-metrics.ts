// The metrics the statistics answer ticks for a campaign whose source has no numbers of its own
// (spec 3 §1, "others show none": the money columns and the LP visit events). The statistics
// and the sources tests check the answer against this list, written out here once rather than
// read from schema/stats-api.ts, so that they still state the value they check.
export const OTHER_SOURCE_TICKED_METRICS = [
  'cpa',
  'cr',
  'ad_spent',
  'revenue',
  'net',
  'event_lp_visits',
  'event_lp_visits_cpc',
  'event_lp_visits_ctr',
];
