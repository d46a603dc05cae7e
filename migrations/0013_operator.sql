-- The operator's master dashboard (issue 15, docs/decisions/080-083).
-- Every installation: the credentials that open /api/masterdashboard/ (SHA-256 only) and the
-- operator's corrections, kept as rows of their own beside the tracked numbers.
CREATE TABLE `operator_credentials` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`secret_hash` text NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_credentials_hash_idx` ON `operator_credentials` (`secret_hash`);
--> statement-breakpoint
CREATE TABLE `operator_corrections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`field` text NOT NULL,
	`value` integer NOT NULL,
	`verb` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`source` text DEFAULT 'operator' NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`reverted_at` integer,
	`reverted_by` text
);
--> statement-breakpoint
CREATE INDEX `operator_corrections_campaign_day_idx` ON `operator_corrections` (`campaign_id`,`day`);
--> statement-breakpoint
-- The operator installation only: its registry of student installations and their cached totals.
CREATE TABLE `student_installations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`domain` text NOT NULL,
	`server` text DEFAULT '' NOT NULL,
	`student_id_hash` text NOT NULL,
	`credential` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `student_installations_domain_idx` ON `student_installations` (`domain`);
--> statement-breakpoint
CREATE UNIQUE INDEX `student_installations_hash_idx` ON `student_installations` (`student_id_hash`);
--> statement-breakpoint
CREATE TABLE `student_daily` (
	`installation_id` integer NOT NULL,
	`day` text NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	`impressions` integer DEFAULT 0 NOT NULL,
	`ad_clicks` integer DEFAULT 0 NOT NULL,
	`spend_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`installation_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `student_refresh` (
	`installation_id` integer PRIMARY KEY NOT NULL,
	`refreshed_at` integer,
	`from_day` text,
	`to_day` text,
	`error` text
);
