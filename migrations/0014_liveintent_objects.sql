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
