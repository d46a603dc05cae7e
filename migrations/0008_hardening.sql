-- Hardening (issue 10): reset-request limits, postback secrets, chargebacks and per-click
-- conversion limits, durable tracking mode. docs/decisions/041-044.
CREATE TABLE `password_reset_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ip` text NOT NULL,
	`email_hash` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `password_reset_requests_ip_idx` ON `password_reset_requests` (`ip`,`created_at`);
--> statement-breakpoint
CREATE INDEX `password_reset_requests_email_idx` ON `password_reset_requests` (`email_hash`,`created_at`);
--> statement-breakpoint
ALTER TABLE `conversions` ADD `reversed_at` integer;
--> statement-breakpoint
CREATE TABLE `campaign_postback_secrets` (
	`campaign_id` integer PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `conversion_rejections` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`reason` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `reason`)
);
