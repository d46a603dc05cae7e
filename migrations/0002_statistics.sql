CREATE TABLE `costs` (
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
);
--> statement-breakpoint
CREATE INDEX `costs_campaign_day_idx` ON `costs` (`campaign_id`,`day`);--> statement-breakpoint
CREATE TABLE `optimizer_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`landing_id` integer NOT NULL,
	`action` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `optimizer_log_campaign_idx` ON `optimizer_log` (`campaign_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `placement_daily` (
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
);
--> statement-breakpoint
CREATE TABLE `placement_event_daily` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`event` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `path_id`, `landing_id`, `offer_id`, `event`)
);
--> statement-breakpoint
CREATE TABLE `stats_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`campaign_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`request_hash` text NOT NULL,
	`request` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`result` text,
	`error` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `stats_jobs_hash_idx` ON `stats_jobs` (`request_hash`,`created_at`);--> statement-breakpoint
CREATE INDEX `stats_jobs_created_idx` ON `stats_jobs` (`created_at`);--> statement-breakpoint
CREATE TABLE `target_daily` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`)
);
--> statement-breakpoint
CREATE TABLE `target_event_daily` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`event` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`, `event`)
);
