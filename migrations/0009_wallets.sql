-- Ad wallets as an append-only ledger (docs/decisions/050-wallet-ledger.md). A balance is the
-- sum of its entries; nothing here is ever updated or deleted by the product. `wallet` is one of
-- the six ad wallets or 'rotator' (an offer's rotator funding, then `offer_id` names the offer).
-- `idempotency_key` makes a retried request or a re-run job book nothing twice. `ref_campaign_id`
-- names the campaign an entry is about (spend, rotator funding) without belonging to it: ledger
-- rows outlive a permanently deleted campaign, so it is not a `campaign_id` column.
CREATE TABLE `wallet_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`wallet` text NOT NULL,
	`offer_id` integer,
	`amount_micros` integer NOT NULL CHECK (`amount_micros` <> 0),
	`note` text DEFAULT '' NOT NULL,
	`cause` text NOT NULL CHECK (`cause` IN ('adjustment', 'rotator_funding', 'platform_spend')),
	`added_by` integer,
	`added_by_name` text DEFAULT '' NOT NULL,
	`role` text DEFAULT '' NOT NULL,
	`ref_campaign_id` integer,
	`day` text,
	`idempotency_key` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_ledger_idempotency_unique` ON `wallet_ledger` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `wallet_ledger_user_wallet_idx` ON `wallet_ledger` (`user_id`, `wallet`, `amount_micros`);--> statement-breakpoint
CREATE INDEX `wallet_ledger_user_created_idx` ON `wallet_ledger` (`user_id`, `id`);--> statement-breakpoint
CREATE INDEX `wallet_ledger_offer_idx` ON `wallet_ledger` (`offer_id`) WHERE `offer_id` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `wallet_ledger_spend_idx` ON `wallet_ledger` (`day`, `ref_campaign_id`, `wallet`) WHERE `cause` = 'platform_spend';--> statement-breakpoint
-- Wallet configuration: user_id 0 holds the installation's (header dashboard on or off, the
-- minimum balance), a user's own rows hold its disabled wallets.
CREATE TABLE `wallet_settings` (
	`user_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `key`)
) WITHOUT ROWID;
