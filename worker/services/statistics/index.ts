// The numbers of the statistics screen (docs/statistics.md), by concern: common (campaign, day
// bounds, money), targets, tokens (grouping by extra tokens), totals (footers, paging),
// placements (offers, paths), landings (landing table, tests) and activity (per-day series).
// Importers outside the folder use '../services/statistics' for what they read.

export { activity, campaignReport, campaignVisits, dailySeries } from './activity';
export { dayBounds, dollars } from './common';
export { landingTests } from './landings';
export { offerTable, pathTable, placementAggregates } from './placements';
export { type TargetAgg, targetAggregates, wholeWeeks } from './targets';
export { targetTokenAggregates } from './tokens';
