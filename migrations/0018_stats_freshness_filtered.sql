-- Issue 17: the statistics' freshness stamp per campaign (docs/decisions/110) and the filtered
-- traffic rollup (docs/decisions/111). Both are written by the ingest transaction.
CREATE TABLE `stats_freshness` (
	`campaign_id` integer PRIMARY KEY NOT NULL,
	`newest_event_at` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`changed_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `filtered_daily` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`reason` text NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `reason`)
) WITHOUT ROWID;
