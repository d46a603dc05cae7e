-- Issue 16: a version per campaign for the click's two-level routing cache (docs/decisions/100).
-- Kept by triggers, so every change of a campaign's routing bumps it, whichever path wrote it
-- (editor saves, the statistics tables' switches, the optimiser, imports, find and replace).
-- The isolates compare it in the background and re-read a campaign only when it moved. The
-- row outlives the campaign (no campaign_id column: a permanent delete leaves it), so a version
-- never repeats and no cached copy of a deleted campaign can look current.
CREATE TABLE `campaign_versions` (
	`campaign` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_campaigns_insert` AFTER INSERT ON `campaigns` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.id, 1 WHERE NEW.id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_campaigns_update` AFTER UPDATE OF active, deleted, is_dir, campaign_type, custom_url, redirect_type, url_append_token, keyword_parameter, lp_target_param, op_target_param, affiliate_network, custom_conversion_goal ON `campaigns` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.id, 1 WHERE NEW.id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_campaigns_delete` AFTER DELETE ON `campaigns` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.id, 1 WHERE OLD.id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_extra_tokens_insert` AFTER INSERT ON `extra_tokens` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_extra_tokens_update` AFTER UPDATE ON `extra_tokens` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_extra_tokens_delete` AFTER DELETE ON `extra_tokens` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_landing_pages_insert` AFTER INSERT ON `landing_pages` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_landing_pages_update` AFTER UPDATE ON `landing_pages` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_landing_pages_delete` AFTER DELETE ON `landing_pages` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_offer_pages_insert` AFTER INSERT ON `offer_pages` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_offer_pages_update` AFTER UPDATE ON `offer_pages` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_offer_pages_delete` AFTER DELETE ON `offer_pages` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_options_insert` AFTER INSERT ON `options` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_options_update` AFTER UPDATE ON `options` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_options_delete` AFTER DELETE ON `options` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_paths_insert` AFTER INSERT ON `paths` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_paths_update` AFTER UPDATE ON `paths` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT NEW.campaign_id, 1 WHERE NEW.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `campaign_versions_paths_delete` AFTER DELETE ON `paths` BEGIN INSERT INTO `campaign_versions` (`campaign`, `version`) SELECT OLD.campaign_id, 1 WHERE OLD.campaign_id IS NOT NULL ON CONFLICT (`campaign`) DO UPDATE SET `version` = `version` + 1; END;
