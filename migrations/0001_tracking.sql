CREATE TABLE `agents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_agent_name_unique` ON `agents` (`agent_name`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`is_dir` integer DEFAULT 0 NOT NULL,
	`parent_id` integer,
	`url_append_token` text DEFAULT 'tid' NOT NULL,
	`keyword_parameter` text DEFAULT 'keyword' NOT NULL,
	`custom_url` text DEFAULT '' NOT NULL,
	`rotator_base_url` text DEFAULT '' NOT NULL,
	`rotator_requires_signed_contract` integer DEFAULT 0 NOT NULL,
	`custom_url_result` text DEFAULT '' NOT NULL,
	`offer_promotion` text DEFAULT 'other' NOT NULL,
	`traffic_source` text DEFAULT '' NOT NULL,
	`affiliate_network` text DEFAULT '' NOT NULL,
	`postback_enabled` integer DEFAULT 0 NOT NULL,
	`postback` text DEFAULT '' NOT NULL,
	`active` integer DEFAULT 1 NOT NULL,
	`campaign_type` text DEFAULT 'direct_link' NOT NULL,
	`lp_target_param` text DEFAULT '' NOT NULL,
	`op_target_param` text DEFAULT '' NOT NULL,
	`cpc_micros` integer DEFAULT 0 NOT NULL,
	`li_conversion_image_pixel` text DEFAULT '' NOT NULL,
	`li_conversion_lp` text DEFAULT '' NOT NULL,
	`li_conversion_atc1` text DEFAULT '' NOT NULL,
	`li_conversion_atc2` text DEFAULT '' NOT NULL,
	`custom_conversion_goal` text DEFAULT 'purchase' NOT NULL,
	`li_custom_name_enabled` integer DEFAULT 0 NOT NULL,
	`landing_pages_auto_optimized` integer DEFAULT 0 NOT NULL,
	`enable_lp_test_reporting` integer DEFAULT 0 NOT NULL,
	`landing_pages_optimization_goal` text DEFAULT '' NOT NULL,
	`landing_pages_optimization_metric` text DEFAULT '' NOT NULL,
	`landing_pages_optimization_threshold` real DEFAULT 0 NOT NULL,
	`landing_pages_optimization_min_visits` integer DEFAULT 10 NOT NULL,
	`redirect_type` text DEFAULT '302' NOT NULL,
	`metainfo` text DEFAULT '{}' NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`deleted_at` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `campaigns_parent_idx` ON `campaigns` (`parent_id`,`deleted`);--> statement-breakpoint
CREATE INDEX `campaigns_created_by_idx` ON `campaigns` (`created_by`);--> statement-breakpoint
CREATE TABLE `extra_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`slot` integer NOT NULL,
	`token_name` text NOT NULL,
	`parameter` text NOT NULL,
	`url_append` text DEFAULT '' NOT NULL,
	`landing_page_enabled` integer DEFAULT 0 NOT NULL,
	`offer_page_enabled` integer DEFAULT 0 NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `extra_tokens_campaign_idx` ON `extra_tokens` (`campaign_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `extra_tokens_live_slot_unique` ON `extra_tokens` (`campaign_id`,`slot`) WHERE "extra_tokens"."deleted" = 0;--> statement-breakpoint
CREATE TABLE `landing_pages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`path_id` integer,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`share` integer DEFAULT 100 NOT NULL,
	`active` integer DEFAULT 1 NOT NULL,
	`agents` text DEFAULT '1' NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`path_id`) REFERENCES `paths`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `landing_pages_campaign_idx` ON `landing_pages` (`campaign_id`);--> statement-breakpoint
CREATE TABLE `offer_pages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`path_id` integer,
	`option_id` integer,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`share` integer DEFAULT 100 NOT NULL,
	`payout_micros` integer DEFAULT 0 NOT NULL,
	`active` integer DEFAULT 1 NOT NULL,
	`postback_parameter` text DEFAULT '' NOT NULL,
	`agents` text DEFAULT '1' NOT NULL,
	`li_conversion_name` text DEFAULT '' NOT NULL,
	`rotator_participant_email` text DEFAULT '' NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`path_id`) REFERENCES `paths`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`option_id`) REFERENCES `options`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `offer_pages_campaign_idx` ON `offer_pages` (`campaign_id`);--> statement-breakpoint
CREATE TABLE `options` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`name` text NOT NULL,
	`active` integer DEFAULT 1 NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `options_campaign_idx` ON `options` (`campaign_id`);--> statement-breakpoint
CREATE TABLE `paths` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`name` text NOT NULL,
	`share` integer DEFAULT 100 NOT NULL,
	`active` integer DEFAULT 1 NOT NULL,
	`agents` text DEFAULT '1' NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `paths_campaign_idx` ON `paths` (`campaign_id`);--> statement-breakpoint
CREATE TABLE `conversions` (
	`id` integer PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`click_id` text NOT NULL,
	`campaign_id` integer NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`day` text NOT NULL,
	`visit_at` integer,
	`target` text DEFAULT '' NOT NULL,
	`keyword` text DEFAULT '' NOT NULL,
	`device` text DEFAULT '' NOT NULL,
	`country` text DEFAULT '' NOT NULL,
	`event` text NOT NULL,
	`is_goal` integer DEFAULT 1 NOT NULL,
	`transaction_id` text DEFAULT '' NOT NULL,
	`payout_micros` integer,
	`source` text NOT NULL,
	`orphan` integer DEFAULT 0 NOT NULL,
	`adopted_mark` integer,
	`t1` text,
	`t2` text,
	`t3` text,
	`t4` text,
	`t5` text,
	`t6` text,
	`t7` text,
	`t8` text,
	`t9` text,
	`t10` text,
	`t11` text,
	`t12` text,
	`t13` text,
	`t14` text,
	`t15` text,
	`t16` text,
	`t17` text,
	`t18` text,
	`t19` text,
	`t20` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversions_dedupe_unique` ON `conversions` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `conversions_click_id_idx` ON `conversions` (`click_id`);--> statement-breakpoint
CREATE INDEX `conversions_campaign_day_idx` ON `conversions` (`campaign_id`,`day`);--> statement-breakpoint
CREATE INDEX `conversions_orphan_idx` ON `conversions` (`click_id`) WHERE "conversions"."orphan" = 1;--> statement-breakpoint
CREATE INDEX `conversions_adopted_idx` ON `conversions` (`adopted_mark`) WHERE "conversions"."adopted_mark" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `daily_event_stats` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`event` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`, `path_id`, `landing_id`, `offer_id`, `event`)
);
--> statement-breakpoint
CREATE INDEX `daily_event_stats_campaign_day_idx` ON `daily_event_stats` (`campaign_id`,`day`);--> statement-breakpoint
CREATE TABLE `daily_stats` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`filtered_visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`, `path_id`, `landing_id`, `offer_id`)
);
--> statement-breakpoint
CREATE INDEX `daily_stats_campaign_day_idx` ON `daily_stats` (`campaign_id`,`day`);--> statement-breakpoint
CREATE TABLE `ingest_marks` (
	`id` integer PRIMARY KEY NOT NULL,
	`visits_from` integer NOT NULL,
	`lp_clicks_from` integer NOT NULL,
	`conversions_from` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `lp_clicks` (
	`id` integer PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`click_id` text NOT NULL,
	`campaign_id` integer NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`option_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`day` text NOT NULL,
	`visit_at` integer,
	`target` text DEFAULT '' NOT NULL,
	`keyword` text DEFAULT '' NOT NULL,
	`device` text DEFAULT '' NOT NULL,
	`country` text DEFAULT '' NOT NULL,
	`filter` text,
	`orphan` integer DEFAULT 0 NOT NULL,
	`adopted_mark` integer,
	`t1` text,
	`t2` text,
	`t3` text,
	`t4` text,
	`t5` text,
	`t6` text,
	`t7` text,
	`t8` text,
	`t9` text,
	`t10` text,
	`t11` text,
	`t12` text,
	`t13` text,
	`t14` text,
	`t15` text,
	`t16` text,
	`t17` text,
	`t18` text,
	`t19` text,
	`t20` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lp_clicks_dedupe_unique` ON `lp_clicks` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `lp_clicks_click_id_idx` ON `lp_clicks` (`click_id`);--> statement-breakpoint
CREATE INDEX `lp_clicks_campaign_day_idx` ON `lp_clicks` (`campaign_id`,`day`);--> statement-breakpoint
CREATE INDEX `lp_clicks_orphan_idx` ON `lp_clicks` (`click_id`) WHERE "lp_clicks"."orphan" = 1;--> statement-breakpoint
CREATE INDEX `lp_clicks_adopted_idx` ON `lp_clicks` (`adopted_mark`) WHERE "lp_clicks"."adopted_mark" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `postback_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`conversion_id` integer NOT NULL,
	`campaign_id` integer NOT NULL,
	`click_id` text NOT NULL,
	`url` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`response_status` integer,
	`error` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `postback_log_conversion_unique` ON `postback_log` (`conversion_id`);--> statement-breakpoint
CREATE INDEX `postback_log_status_idx` ON `postback_log` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `postback_log_campaign_idx` ON `postback_log` (`campaign_id`);--> statement-breakpoint
CREATE TABLE `visits` (
	`id` integer PRIMARY KEY NOT NULL,
	`click_id` text NOT NULL,
	`campaign_id` integer NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`keyword` text DEFAULT '' NOT NULL,
	`device` text DEFAULT '' NOT NULL,
	`country` text DEFAULT '' NOT NULL,
	`referrer` text DEFAULT '' NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	`filter` text,
	`direct` integer DEFAULT 0 NOT NULL,
	`t1` text,
	`t2` text,
	`t3` text,
	`t4` text,
	`t5` text,
	`t6` text,
	`t7` text,
	`t8` text,
	`t9` text,
	`t10` text,
	`t11` text,
	`t12` text,
	`t13` text,
	`t14` text,
	`t15` text,
	`t16` text,
	`t17` text,
	`t18` text,
	`t19` text,
	`t20` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `visits_click_id_unique` ON `visits` (`click_id`);--> statement-breakpoint
CREATE INDEX `visits_campaign_day_idx` ON `visits` (`campaign_id`,`day`);--> statement-breakpoint
-- Devices: 'any' (1) is the default agent of every landing page, offer and path.
INSERT INTO `agents` (`id`, `agent_name`) VALUES (1, 'any'), (2, 'desktop'), (3, 'mobile'), (4, 'tablet');
