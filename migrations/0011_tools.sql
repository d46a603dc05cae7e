-- Test clicks and test conversions of the Tools screen (docs/decisions/061-test-clicks.md).
-- They live apart from visits and conversions so that no statistic, rollup or export ever
-- sees them; a campaign's permanent delete removes them with the campaign.
CREATE TABLE `test_clicks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`click_id` text NOT NULL,
	`campaign_id` integer NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`keyword` text DEFAULT '' NOT NULL,
	`device` text DEFAULT '' NOT NULL,
	`country` text DEFAULT '' NOT NULL,
	`tokens` text DEFAULT '{}' NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `test_clicks_click_id_unique` ON `test_clicks` (`click_id`);--> statement-breakpoint
CREATE INDEX `test_clicks_campaign_idx` ON `test_clicks` (`campaign_id`);--> statement-breakpoint
CREATE TABLE `test_conversions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dedupe_key` text NOT NULL,
	`click_id` text NOT NULL,
	`campaign_id` integer NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`event` text NOT NULL,
	`is_goal` integer DEFAULT 1 NOT NULL,
	`transaction_id` text DEFAULT '' NOT NULL,
	`payout_micros` integer DEFAULT 0 NOT NULL,
	`source` text NOT NULL,
	`duplicates` integer DEFAULT 0 NOT NULL,
	`postback_status` text DEFAULT '' NOT NULL,
	`postback_url` text DEFAULT '' NOT NULL,
	`postback_response` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `test_conversions_dedupe_unique` ON `test_conversions` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `test_conversions_campaign_idx` ON `test_conversions` (`campaign_id`);
