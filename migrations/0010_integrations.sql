-- Ad-platform integrations (issue 12, docs/decisions/070-073): stored credentials, the link of a
-- campaign to its campaign on a platform with the state of its cost sync, and the jobs that build
-- the ad performance records. Credential values are AES-GCM ciphertexts (worker/lib/secrets.ts);
-- only their last four characters are kept in clear, for display.
CREATE TABLE `platform_credentials` (
	`platform` text NOT NULL,
	-- 0: the installation's own credential; otherwise the user who connected it.
	`user_id` integer DEFAULT 0 NOT NULL,
	-- The access token, API token, or (Taboola) client secret, encrypted.
	`token` text DEFAULT '' NOT NULL,
	`token_last4` text DEFAULT '' NOT NULL,
	-- The client id (Taboola) or username (LiveIntent), encrypted.
	`client_id` text DEFAULT '' NOT NULL,
	`client_id_last4` text DEFAULT '' NOT NULL,
	-- 'active' after a connect, 'inactive' after a disconnect or a refused token.
	`status` text DEFAULT 'active' NOT NULL,
	`expires_at` integer,
	-- Clear, non-secret details (a platform's user or account id).
	`meta` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`platform`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `platform_sync` (
	`campaign_id` integer NOT NULL REFERENCES `campaigns`(`id`) ON DELETE CASCADE,
	`platform` text NOT NULL,
	-- The platform's ad account (Facebook act_..., TikTok advertiser id, Taboola account id).
	`external_account_id` text DEFAULT '' NOT NULL,
	-- The platform's campaign id whose ads are this campaign's targets.
	`external_campaign_id` text DEFAULT '' NOT NULL,
	`enabled` integer DEFAULT 1 NOT NULL,
	-- When the cron last queued a sync (so a sync waiting on its retries is not queued twice).
	`queued_at` integer,
	`last_sync_at` integer,
	`last_success_at` integer,
	`last_error` text DEFAULT '' NOT NULL,
	`last_error_at` integer,
	`synced_from` text DEFAULT '' NOT NULL,
	`synced_to` text DEFAULT '' NOT NULL,
	`rows_imported` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`campaign_id`, `platform`)
);
--> statement-breakpoint
CREATE INDEX `platform_sync_platform_idx` ON `platform_sync` (`platform`, `enabled`);
--> statement-breakpoint
CREATE TABLE `ad_record_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`campaign_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`platform` text NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	-- queued, running, done or error
	`status` text DEFAULT 'queued' NOT NULL,
	`result` text,
	`error` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `ad_record_jobs_created_idx` ON `ad_record_jobs` (`created_at`);
