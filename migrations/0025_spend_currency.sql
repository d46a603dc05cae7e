-- Issue 25 (docs/decisions/147): spend in the ad platform's own terms.
-- Every cost row names the currency the platform billed in and keeps that amount;
-- spend_micros stays the US-dollar amount the statistics add up (equal when the currency is USD,
-- converted with the rate the user entered on the link otherwise; never a foreign amount as dollars).
ALTER TABLE `costs` ADD `currency` text DEFAULT 'USD' NOT NULL;
ALTER TABLE `costs` ADD `platform_spend_micros` integer;

-- What the platform said about the linked ad account at the last sync, and the user's rate:
-- US-dollar micros for one unit of the account's currency (NULL: none entered).
ALTER TABLE `platform_sync` ADD `account_currency` text DEFAULT '' NOT NULL;
ALTER TABLE `platform_sync` ADD `account_time_zone` text DEFAULT '' NOT NULL;
ALTER TABLE `platform_sync` ADD `usd_rate_micros` integer;
