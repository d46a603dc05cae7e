-- LiveIntent management (issue 13, docs/decisions/090): which platform campaigns and ads a
-- tracker campaign manages. The platform keeps the objects; this is only the link.
CREATE TABLE `liveintent_objects` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`kind` text NOT NULL,
	`ref_id` text NOT NULL,
	`parent_ref_id` text DEFAULT '' NOT NULL,
	`image_key` text DEFAULT '' NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `liveintent_objects_campaign_idx` ON `liveintent_objects` (`campaign_id`,`kind`);
--> statement-breakpoint
-- The force sync of a campaign's LiveIntent costs (spec 3 §4): one row per campaign, its state,
-- the day it is at, the progress logs and the completed message until it is dismissed.
CREATE TABLE `liveintent_force_sync` (
	`campaign_id` integer PRIMARY KEY NOT NULL,
	`run_id` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'idle' NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`progress_logs` text DEFAULT '[]' NOT NULL,
	`since` text DEFAULT '' NOT NULL,
	`until` text DEFAULT '' NOT NULL,
	`next_day` text DEFAULT '' NOT NULL,
	`stop_requested` integer DEFAULT 0 NOT NULL,
	`started_by` integer,
	`completed_message` text DEFAULT '' NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The campaign editor's LiveIntent campaign and line item lists (spec 2 §3, §5; docs/decisions/092).
CREATE TABLE `li_campaign_list` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`li_campaign_id` text NOT NULL,
	`li_campaign_name` text DEFAULT '' NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `li_campaign_list_campaign_idx` ON `li_campaign_list` (`campaign_id`);
--> statement-breakpoint
CREATE TABLE `li_lineitem_list` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`li_line_item_id` text NOT NULL,
	`li_line_item_name` text DEFAULT '' NOT NULL,
	`li_daily_budget_micros` integer DEFAULT 0 NOT NULL,
	`li_campaign_id` text NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `li_lineitem_list_campaign_idx` ON `li_lineitem_list` (`campaign_id`);
