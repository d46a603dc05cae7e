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
--> statement-breakpoint
-- Breakdowns (docs/decisions/112): per campaign, day and dimension value, and per pair of
-- dimensions (dim < dim2), the counted visits, LP clicks, conversions and revenue.
CREATE TABLE `breakdown_daily` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`dim` text NOT NULL,
	`value` text NOT NULL,
	`dim2` text DEFAULT '' NOT NULL,
	`value2` text DEFAULT '' NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `dim`, `dim2`, `value`, `value2`)
) WITHOUT ROWID;
