// The tables that hold a campaign's rows (each has a campaign_id column), listed once: a
// permanent delete empties all of them, a statistics reset only the numbers.

/** A campaign's items: its routing configuration. */
const CAMPAIGN_ITEM_TABLES = ['extra_tokens', 'landing_pages', 'offer_pages', 'options', 'paths'] as const;

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
  // Extra-token rollups and the record of days archived to R2 (migration 0017).
  'token_daily',
  'token_event_daily',
  'raw_archives',
  'costs',
  'stats_jobs',
  'postback_log',
  'ad_record_jobs',
  // The operator's corrections of the campaign's days (docs/decisions/081).
  'operator_corrections',
  // Freshness stamp and filtered traffic (docs/decisions/110, 111).
  'stats_freshness',
  'filtered_daily',
  'breakdown_daily',
] as const;

/**
 * Every table with a campaign's rows. The optimiser's log is history, not numbers, and the link
 * to a campaign on an ad platform is configuration: a reset keeps them, a permanent delete
 * removes them.
 */
export const CAMPAIGN_TABLES = [
  ...CAMPAIGN_ITEM_TABLES,
  ...CAMPAIGN_STATISTICS_TABLES,
  'optimizer_log',
  // The campaign's own postback secret (docs/decisions/042).
  'campaign_postback_secrets',
  // Refused conversions (wrong secret, limits), kept for the campaign's alerts.
  'conversion_rejections',
  // Its conversions accepted with the installation's secret in the grace period (decision 120).
  'postback_legacy_uses',
  // Conversions the ingest refused past the per-click cap (decision 121).
  'refused_conversions',
  // The Tools screen's test clicks and conversions (decision 061).
  'test_conversions',
  'test_clicks',
  'platform_sync',
  // The traffic provider's campaign, assets and banners (docs/decisions/095-099).
  'traffic_campaigns',
  'traffic_assets',
  'banners',
  'blaze_placements',
  // The LiveIntent objects the campaign manages (docs/decisions/090).
  'liveintent_objects',
  'liveintent_force_sync',
  'li_campaign_list',
  'li_lineitem_list',
] as const;
