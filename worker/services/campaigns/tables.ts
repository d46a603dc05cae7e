// The tables that hold a campaign's rows (each has a campaign_id column), listed once: a
// permanent delete empties all of them, a statistics reset only the numbers.

/** A campaign's items: its routing configuration. */
export const CAMPAIGN_ITEM_TABLES = [
  'extra_tokens',
  'landing_pages',
  'offer_pages',
  'options',
  'paths',
] as const;

/** A campaign's numbers: raw events, rollups, costs, statistics jobs, postbacks and corrections. */
export const CAMPAIGN_STATISTICS_TABLES = [
  'visits',
  'lp_clicks',
  'conversions',
  'daily_stats',
  'daily_event_stats',
  'target_daily',
  'target_weekly',
  'target_event_daily',
  'placement_daily',
  'placement_event_daily',
  'costs',
  'stats_jobs',
  'postback_log',
  // The operator's corrections of the campaign's days (docs/decisions/081).
  'operator_corrections',
] as const;

/**
 * Every table with a campaign's rows. The optimiser's log is history, not numbers: a reset keeps
 * it, a permanent delete removes it.
 */
export const CAMPAIGN_TABLES = [
  ...CAMPAIGN_ITEM_TABLES,
  ...CAMPAIGN_STATISTICS_TABLES,
  'optimizer_log',
] as const;
