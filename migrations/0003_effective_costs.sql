ALTER TABLE `target_daily` ADD `has_cost` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `target_daily` ADD `impressions` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `target_daily` ADD `ad_clicks` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `target_daily` ADD `spend_micros` integer DEFAULT 0 NOT NULL;