-- Postback secrets per campaign (issue 24, docs/decisions/120): a campaign's secret is derived
-- from the installation's, so the installation's own secret stops converting every campaign.
-- Installations that already made one keep it accepted for 60 days (setting
-- postback_legacy_until, milliseconds; an admin can end it sooner), so the postback URLs at the
-- networks keep working while they are updated. A new installation has no secret yet: no grace.
INSERT INTO `settings` (`key`, `value`)
  SELECT 'postback_legacy_until', CAST((unixepoch() + 60 * 86400) * 1000 AS TEXT)
  FROM `settings` WHERE `key` = 'postback_secret' AND `value` <> ''
  ON CONFLICT(`key`) DO NOTHING;
--> statement-breakpoint
-- Conversions accepted with the installation's secret during the grace period, per campaign and
-- UTC day: the admin ends the grace period once no campaign has used it for a while.
CREATE TABLE `postback_legacy_uses` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`)
);
--> statement-breakpoint
-- Conversions the ingest refused because their click had reached conversion_cap_per_click
-- (docs/decisions/121): kept by dedupe key, so a redelivered message neither stores nor counts
-- them again, and the refused sale stays visible beside the counts in conversion_rejections.
CREATE TABLE `refused_conversions` (
	`dedupe_key` text PRIMARY KEY NOT NULL,
	`click_id` text NOT NULL,
	`campaign_id` integer NOT NULL,
	`reason` text NOT NULL,
	`payout_micros` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `refused_conversions_campaign_idx` ON `refused_conversions` (`campaign_id`);
