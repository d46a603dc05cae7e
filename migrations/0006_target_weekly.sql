-- Weekly sums per (campaign, week, target), kept by triggers from target_daily, so a month-long
-- report reads about a fifth of the rows (docs/statistics.md, "Rollups"). A week starts on
-- Monday; `week` is that Monday (a day that is not a date is its own week). Spend is split into what cost rows say (`cost_spend`) and the
-- visits of days without a cost row (`uncosted_visits`), priced at the campaign's CPC when read.
CREATE TABLE `target_weekly` (
	`campaign_id` integer NOT NULL,
	`week` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	`impressions` integer DEFAULT 0 NOT NULL,
	`ad_clicks` integer DEFAULT 0 NOT NULL,
	`cost_spend_micros` integer DEFAULT 0 NOT NULL,
	`uncosted_visits` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `week`, `target`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `target_weekly` (`campaign_id`, `week`, `target`, `visits`, `lp_clicks`, `conversions`, `revenue_micros`, `impressions`, `ad_clicks`, `cost_spend_micros`, `uncosted_visits`)
  SELECT `campaign_id`, coalesce(date(`day`, '-6 days', 'weekday 1'), `day`), `target`, sum(`visits`), sum(`lp_clicks`), sum(`conversions`), sum(`revenue_micros`),
    sum(`impressions`), sum(`ad_clicks`), sum(`has_cost` * `spend_micros`), sum((1 - `has_cost`) * `visits`)
  FROM `target_daily` GROUP BY `campaign_id`, coalesce(date(`day`, '-6 days', 'weekday 1'), `day`), `target`;
--> statement-breakpoint
CREATE TRIGGER `target_weekly_insert` AFTER INSERT ON `target_daily` BEGIN
  INSERT INTO `target_weekly` (`campaign_id`, `week`, `target`, `visits`, `lp_clicks`, `conversions`, `revenue_micros`, `impressions`, `ad_clicks`, `cost_spend_micros`, `uncosted_visits`)
  VALUES (NEW.`campaign_id`, coalesce(date(NEW.`day`, '-6 days', 'weekday 1'), NEW.`day`), NEW.`target`, NEW.`visits`, NEW.`lp_clicks`, NEW.`conversions`, NEW.`revenue_micros`,
    NEW.`impressions`, NEW.`ad_clicks`, NEW.`has_cost` * NEW.`spend_micros`, (1 - NEW.`has_cost`) * NEW.`visits`)
  ON CONFLICT (`campaign_id`, `week`, `target`) DO UPDATE SET `visits` = `visits` + excluded.`visits`,
    `lp_clicks` = `lp_clicks` + excluded.`lp_clicks`, `conversions` = `conversions` + excluded.`conversions`,
    `revenue_micros` = `revenue_micros` + excluded.`revenue_micros`, `impressions` = `impressions` + excluded.`impressions`,
    `ad_clicks` = `ad_clicks` + excluded.`ad_clicks`, `cost_spend_micros` = `cost_spend_micros` + excluded.`cost_spend_micros`,
    `uncosted_visits` = `uncosted_visits` + excluded.`uncosted_visits`;
END;
--> statement-breakpoint
CREATE TRIGGER `target_weekly_update` AFTER UPDATE ON `target_daily` BEGIN
  INSERT INTO `target_weekly` (`campaign_id`, `week`, `target`, `visits`, `lp_clicks`, `conversions`, `revenue_micros`, `impressions`, `ad_clicks`, `cost_spend_micros`, `uncosted_visits`)
  VALUES (NEW.`campaign_id`, coalesce(date(NEW.`day`, '-6 days', 'weekday 1'), NEW.`day`), NEW.`target`,
    NEW.`visits` - OLD.`visits`, NEW.`lp_clicks` - OLD.`lp_clicks`, NEW.`conversions` - OLD.`conversions`,
    NEW.`revenue_micros` - OLD.`revenue_micros`, NEW.`impressions` - OLD.`impressions`, NEW.`ad_clicks` - OLD.`ad_clicks`,
    NEW.`has_cost` * NEW.`spend_micros` - OLD.`has_cost` * OLD.`spend_micros`,
    (1 - NEW.`has_cost`) * NEW.`visits` - (1 - OLD.`has_cost`) * OLD.`visits`)
  ON CONFLICT (`campaign_id`, `week`, `target`) DO UPDATE SET `visits` = `visits` + excluded.`visits`,
    `lp_clicks` = `lp_clicks` + excluded.`lp_clicks`, `conversions` = `conversions` + excluded.`conversions`,
    `revenue_micros` = `revenue_micros` + excluded.`revenue_micros`, `impressions` = `impressions` + excluded.`impressions`,
    `ad_clicks` = `ad_clicks` + excluded.`ad_clicks`, `cost_spend_micros` = `cost_spend_micros` + excluded.`cost_spend_micros`,
    `uncosted_visits` = `uncosted_visits` + excluded.`uncosted_visits`;
END;
--> statement-breakpoint
CREATE TRIGGER `target_weekly_delete` AFTER DELETE ON `target_daily` BEGIN
  UPDATE `target_weekly` SET `visits` = `visits` - OLD.`visits`, `lp_clicks` = `lp_clicks` - OLD.`lp_clicks`,
    `conversions` = `conversions` - OLD.`conversions`, `revenue_micros` = `revenue_micros` - OLD.`revenue_micros`,
    `impressions` = `impressions` - OLD.`impressions`, `ad_clicks` = `ad_clicks` - OLD.`ad_clicks`,
    `cost_spend_micros` = `cost_spend_micros` - OLD.`has_cost` * OLD.`spend_micros`,
    `uncosted_visits` = `uncosted_visits` - (1 - OLD.`has_cost`) * OLD.`visits`
  WHERE `campaign_id` = OLD.`campaign_id` AND `week` = coalesce(date(OLD.`day`, '-6 days', 'weekday 1'), OLD.`day`) AND `target` = OLD.`target`;
END;
