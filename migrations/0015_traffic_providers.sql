-- Traffic providers (issue 14, docs/decisions/095-099): the CPC traffic campaign of a trrcpc or
-- crane campaign with its assets, the blaze banners with their images, and the $1500 rule.
CREATE TABLE `traffic_campaigns` (
	`campaign_id` integer PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`provider_campaign_id` text DEFAULT '' NOT NULL,
	`offer_name` text DEFAULT '' NOT NULL,
	`traffic` text DEFAULT 'Email' NOT NULL,
	`ad_type` text DEFAULT 'Display' NOT NULL,
	`ad_size` text DEFAULT '300x250' NOT NULL,
	`daily_budget_micros` integer DEFAULT 500000000 NOT NULL,
	`cpc_micros` integer DEFAULT 750000 NOT NULL,
	`max_ad_spend_micros` integer DEFAULT 200000000 NOT NULL,
	`toggle_max_ad_spend` integer DEFAULT 0 NOT NULL,
	`total_budget_micros` integer DEFAULT 1500000000 NOT NULL,
	`headlines` text DEFAULT '[]' NOT NULL,
	`lines` text DEFAULT '[]' NOT NULL,
	`spend_micros` integer DEFAULT 0 NOT NULL,
	`submitted` integer DEFAULT 0 NOT NULL,
	`submitted_at` integer,
	`submitted_on` text,
	`uneditable_assets` text DEFAULT '[]' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `traffic_assets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`name` text NOT NULL,
	`r2_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `traffic_assets_campaign_name_idx` ON `traffic_assets` (`campaign_id`,`name`);
--> statement-breakpoint
CREATE TABLE `banners` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`provider_banner_id` text DEFAULT '' NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`placement_type` text DEFAULT 'EMAIL_PLACEMENT' NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`active` integer DEFAULT 1 NOT NULL,
	`image_name` text NOT NULL,
	`r2_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `banners_campaign_idx` ON `banners` (`campaign_id`);
--> statement-breakpoint
CREATE TABLE `blaze_placements` (
	`campaign_id` integer PRIMARY KEY NOT NULL,
	`placement` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
-- Spec 2 §5, the $1500 rule, kept by the database itself so that no path that writes
-- campaigns.active can skip it (docs/decisions/095). The services check it first and answer the
-- same message as a 422; this trigger is the backstop for every other writer.
CREATE TRIGGER `campaigns_min_spend_before_inactive`
BEFORE UPDATE OF `active` ON `campaigns`
FOR EACH ROW
WHEN NEW.`active` = 0 AND OLD.`active` = 1
	AND (OLD.`traffic_source` IN ('trrcpc', 'crane') OR NEW.`traffic_source` IN ('trrcpc', 'crane'))
	AND EXISTS (
		SELECT 1 FROM `traffic_campaigns` t
		WHERE t.`campaign_id` = OLD.`id` AND t.`submitted` = 1 AND t.`spend_micros` < 1500000000
			AND (t.`submitted_on` IS NULL OR t.`submitted_on` > '2025-07-06')
	)
BEGIN
	SELECT RAISE(ABORT, 'Cannot set the campaign to inactive before reaching $1500 spend');
END;
