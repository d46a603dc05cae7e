-- Issue 16 (decision 105): grouping the target table by extra tokens reads these rollups instead of
-- the raw rows. A key is (campaign, day, target, tokens), `tokens` being the JSON array of all 20
-- slots' values ('' for none), so one rollup serves grouping by any one or several tokens. Each
-- campaign and day holds at most 1,000 keys (worker/services/statistics/token-rollup.ts
-- TOKEN_ROLLUP_LIMIT); what comes past that is counted in the day's "other" key (target '',
-- tokens '*'), so the rows a report reads stay bounded however many values a token takes.
CREATE TABLE `token_daily` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`tokens` text NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`, `tokens`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `token_event_daily` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`tokens` text NOT NULL,
	`event` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`, `tokens`, `event`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Backfill: per campaign and day the 1,000 keys with the most visits, the rest in "other".
INSERT INTO `token_daily` (`campaign_id`, `day`, `target`, `tokens`, `visits`)
  SELECT `campaign_id`, `day`, CASE WHEN rk <= 999 THEN `target` ELSE '' END, CASE WHEN rk <= 999 THEN k ELSE '*' END, sum(n)
  FROM (SELECT `campaign_id`, `day`, `target`, k, n, row_number() OVER (PARTITION BY `campaign_id`, `day` ORDER BY n DESC, `target`, k) rk
    FROM (SELECT `campaign_id`, `day`, `target`, json_array(coalesce(t1, ''), coalesce(t2, ''), coalesce(t3, ''), coalesce(t4, ''), coalesce(t5, ''), coalesce(t6, ''), coalesce(t7, ''), coalesce(t8, ''), coalesce(t9, ''), coalesce(t10, ''), coalesce(t11, ''), coalesce(t12, ''), coalesce(t13, ''), coalesce(t14, ''), coalesce(t15, ''), coalesce(t16, ''), coalesce(t17, ''), coalesce(t18, ''), coalesce(t19, ''), coalesce(t20, '')) k, count(*) n FROM `visits` WHERE `filter` IS NULL GROUP BY 1, 2, 3, 4))
  GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO `token_daily` (`campaign_id`, `day`, `target`, `tokens`, `lp_clicks`)
  SELECT s.`campaign_id`, s.`day`, coalesce(t.`target`, ''), coalesce(t.`tokens`, '*'), sum(s.n)
  FROM (SELECT `campaign_id`, `day`, `target`, json_array(coalesce(t1, ''), coalesce(t2, ''), coalesce(t3, ''), coalesce(t4, ''), coalesce(t5, ''), coalesce(t6, ''), coalesce(t7, ''), coalesce(t8, ''), coalesce(t9, ''), coalesce(t10, ''), coalesce(t11, ''), coalesce(t12, ''), coalesce(t13, ''), coalesce(t14, ''), coalesce(t15, ''), coalesce(t16, ''), coalesce(t17, ''), coalesce(t18, ''), coalesce(t19, ''), coalesce(t20, '')) k, count(*) n FROM `lp_clicks` WHERE `filter` IS NULL AND `orphan` = 0 GROUP BY 1, 2, 3, 4) s
  LEFT JOIN `token_daily` t ON t.`campaign_id` = s.`campaign_id` AND t.`day` = s.`day` AND t.`target` = s.`target` AND t.`tokens` = s.k
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (`campaign_id`, `day`, `target`, `tokens`) DO UPDATE SET `lp_clicks` = `lp_clicks` + excluded.`lp_clicks`;
--> statement-breakpoint
INSERT INTO `token_event_daily` (`campaign_id`, `day`, `target`, `tokens`, `event`, `events`, `revenue_micros`)
  SELECT s.`campaign_id`, s.`day`, coalesce(t.`target`, ''), coalesce(t.`tokens`, '*'), s.`event`, sum(s.n), sum(s.r)
  FROM (SELECT `campaign_id`, `day`, `target`, json_array(coalesce(t1, ''), coalesce(t2, ''), coalesce(t3, ''), coalesce(t4, ''), coalesce(t5, ''), coalesce(t6, ''), coalesce(t7, ''), coalesce(t8, ''), coalesce(t9, ''), coalesce(t10, ''), coalesce(t11, ''), coalesce(t12, ''), coalesce(t13, ''), coalesce(t14, ''), coalesce(t15, ''), coalesce(t16, ''), coalesce(t17, ''), coalesce(t18, ''), coalesce(t19, ''), coalesce(t20, '')) k, `event`, count(*) n, sum(coalesce(`payout_micros`, 0)) r
    FROM `conversions` WHERE `orphan` = 0 GROUP BY 1, 2, 3, 4, 5) s
  LEFT JOIN `token_daily` t ON t.`campaign_id` = s.`campaign_id` AND t.`day` = s.`day` AND t.`target` = s.`target` AND t.`tokens` = s.k
  GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO `token_daily` (`campaign_id`, `day`, `target`, `tokens`, `conversions`, `revenue_micros`)
  SELECT s.`campaign_id`, s.`day`, coalesce(t.`target`, ''), coalesce(t.`tokens`, '*'), sum(s.g), sum(s.r)
  FROM (SELECT `campaign_id`, `day`, `target`, json_array(coalesce(t1, ''), coalesce(t2, ''), coalesce(t3, ''), coalesce(t4, ''), coalesce(t5, ''), coalesce(t6, ''), coalesce(t7, ''), coalesce(t8, ''), coalesce(t9, ''), coalesce(t10, ''), coalesce(t11, ''), coalesce(t12, ''), coalesce(t13, ''), coalesce(t14, ''), coalesce(t15, ''), coalesce(t16, ''), coalesce(t17, ''), coalesce(t18, ''), coalesce(t19, ''), coalesce(t20, '')) k, sum(`is_goal`) g, sum(coalesce(`payout_micros`, 0)) r
    FROM `conversions` WHERE `orphan` = 0 GROUP BY 1, 2, 3, 4) s
  LEFT JOIN `token_daily` t ON t.`campaign_id` = s.`campaign_id` AND t.`day` = s.`day` AND t.`target` = s.`target` AND t.`tokens` = s.k
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (`campaign_id`, `day`, `target`, `tokens`) DO UPDATE SET `conversions` = `conversions` + excluded.`conversions`,
    `revenue_micros` = `revenue_micros` + excluded.`revenue_micros`;
--> statement-breakpoint
-- Raw events archived to R2 (decision 107): one row per campaign and day moved, so a drill-down
-- knows to read the archive, and the archive job where it stopped.
CREATE TABLE `raw_archives` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`object_key` text NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`archived_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Ingest that stays fast as tables grow (decision 106). daily_stats is the largest rollup (a row
-- per target, path, landing page and offer each day) and every batch upserts into it: as a
-- WITHOUT ROWID table it is one B-tree instead of three (the table, its key's index and a
-- (campaign_id, day) index the key's prefix already serves), same for daily_event_stats.
CREATE TABLE `daily_stats_new` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`filtered_visits` integer DEFAULT 0 NOT NULL,
	`lp_clicks` integer DEFAULT 0 NOT NULL,
	`conversions` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`, `path_id`, `landing_id`, `offer_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `daily_stats_new` SELECT `campaign_id`, `day`, `target`, `path_id`, `landing_id`, `offer_id`, `visits`, `filtered_visits`, `lp_clicks`, `conversions`, `revenue_micros` FROM `daily_stats`;
--> statement-breakpoint
DROP TABLE `daily_stats`;
--> statement-breakpoint
ALTER TABLE `daily_stats_new` RENAME TO `daily_stats`;
--> statement-breakpoint
CREATE TABLE `daily_event_stats_new` (
	`campaign_id` integer NOT NULL,
	`day` text NOT NULL,
	`target` text DEFAULT '' NOT NULL,
	`path_id` integer DEFAULT 0 NOT NULL,
	`landing_id` integer DEFAULT 0 NOT NULL,
	`offer_id` integer DEFAULT 0 NOT NULL,
	`event` text NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`revenue_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `day`, `target`, `path_id`, `landing_id`, `offer_id`, `event`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `daily_event_stats_new` SELECT `campaign_id`, `day`, `target`, `path_id`, `landing_id`, `offer_id`, `event`, `events`, `revenue_micros` FROM `daily_event_stats`;
--> statement-breakpoint
DROP TABLE `daily_event_stats`;
--> statement-breakpoint
ALTER TABLE `daily_event_stats_new` RENAME TO `daily_event_stats`;
--> statement-breakpoint
-- A counted landing-page click's dedupe key is its click id, so the ingest's lookups go through
-- the unique dedupe index; orphans keep their partial click-id index. One index less per click.
DROP INDEX `lp_clicks_click_id_idx`;
