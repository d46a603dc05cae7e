// The numbers of the statistics screen (docs/statistics.md), by concern: common (campaign, day
// bounds, money), targets, tokens (grouping by extra tokens), totals (footers, paging),
// placements (offers, paths), landings (landing table, tests) and activity (per-day series).
// Importers keep using '../services/statistics'.

export { activity, campaignVisits, dailySeries } from './activity';
export { type DayBounds, dayBounds, dollars, type StatsCampaign } from './common';
export { landingTable, landingTests, testSummary } from './landings';
export { offerTable, type PlacementAgg, pathTable, placementAggregates } from './placements';
export { type TargetAgg, targetAggregates, targetRow, wholeWeeks } from './targets';
export { targetTokenAggregates } from './tokens';
export { compareBy, sortAndPage, totals } from './totals';
