-- The report rollups and costs are read by primary-key ranges (campaign, day, ...): as WITHOUT
-- ROWID tables their rows are stored in key order, so a month of a campaign is one sequential
-- range instead of an index walk plus a row lookup per row (docs/performance.md, bench:stats).
CREATE TABLE `target_daily_new` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	`has_cost` integer DEFAULT 0 NOT NULL,
	`impressions` integer DEFAULT 0 NOT NULL,
	`ad_clicks` integer DEFAULT 0 NOT NULL,
	`spend_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `target_daily_new` (`campaign_id`, `day`, `target`, `visits`, `lp_clicks`, `conversions`, `revenue_micros`, `has_cost`, `impressions`, `ad_clicks`, `spend_micros`)
  SELECT `campaign_id`, `day`, `target`, `visits`, `lp_clicks`, `conversions`, `revenue_micros`, `has_cost`, `impressions`, `ad_clicks`, `spend_micros` FROM `target_daily`;
--> statement-breakpoint
DROP TABLE `target_daily`;
--> statement-breakpoint
ALTER TABLE `target_daily_new` RENAME TO `target_daily`;
--> statement-breakpoint
CREATE TABLE `placement_daily_new` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `path_id`, `landing_id`, `offer_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `placement_daily_new` SELECT `campaign_id`, `day`, `path_id`, `landing_id`, `offer_id`, `visits`, `lp_clicks`, `conversions`, `revenue_micros` FROM `placement_daily`;
--> statement-breakpoint
DROP TABLE `placement_daily`;
--> statement-breakpoint
ALTER TABLE `placement_daily_new` RENAME TO `placement_daily`;
--> statement-breakpoint
CREATE TABLE `target_event_daily_new` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`event` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`, `event`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `target_event_daily_new` SELECT `campaign_id`, `day`, `target`, `event`, `events`, `revenue_micros` FROM `target_event_daily`;
--> statement-breakpoint
DROP TABLE `target_event_daily`;
--> statement-breakpoint
ALTER TABLE `target_event_daily_new` RENAME TO `target_event_daily`;
--> statement-breakpoint
CREATE TABLE `placement_event_daily_new` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`event` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `path_id`, `landing_id`, `offer_id`, `event`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `placement_event_daily_new` SELECT `campaign_id`, `day`, `path_id`, `landing_id`, `offer_id`, `event`, `events`, `revenue_micros` FROM `placement_event_daily`;
--> statement-breakpoint
DROP TABLE `placement_event_daily`;
--> statement-breakpoint
ALTER TABLE `placement_event_daily_new` RENAME TO `placement_event_daily`;
--> statement-breakpoint
CREATE TABLE `costs_new` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`source` text NOT NULL,
	`priority` integer NOT NULL,
	`impressions` integer DEFAULT 0 NOT NULL,
	`ad_clicks` integer DEFAULT 0 NOT NULL,
	`spend_micros` integer DEFAULT 0 NOT NULL,
	`updated_by` integer,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`, `source`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `costs_new` SELECT `campaign_id`, `day`, `target`, `source`, `priority`, `impressions`, `ad_clicks`, `spend_micros`, `updated_by`, `updated_at` FROM `costs`;
--> statement-breakpoint
DROP TABLE `costs`;
--> statement-breakpoint
ALTER TABLE `costs_new` RENAME TO `costs`;
