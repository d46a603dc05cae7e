import { sql } from 'drizzle-orm';
import { integer, text } from 'drizzle-orm/sqlite-core';

// Column sets more than one table holds, declared once and spread into each table (drizzle's
// column helpers). Each is a function, so that every table gets columns of its own.

/** Now in UTC milliseconds, as a column default. */
export const now = sql`(unixepoch() * 1000)`;

/** An autoincrement id. */
export const serialId = () => integer('id').primaryKey({ autoIncrement: true });

export const createdAt = () => integer('created_at').notNull().default(now);
export const updatedAt = () => integer('updated_at').notNull().default(now);
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

/** The campaign and day (YYYY-MM-DD, the installation's time zone) of a daily rollup row. */
export const campaignDay = () => ({
  campaignId: integer('campaign_id').notNull(),
  day: text('day').notNull(),
});

/** The target (creative / ad id) of the campaign link; '' when none. */
export const target = () => text('target').notNull().default('');

/** Path, landing page and offer ids; 0 when there is none, so rollup keys never hold NULL. */
export const placementIds = () => ({
  pathId: integer('path_id').notNull().default(0),
  landingId: integer('landing_id').notNull().default(0),
  offerId: integer('offer_id').notNull().default(0),
});

/** The counters every statistics rollup carries; revenue in micro-units. */
export const counters = () => ({
  visits: integer('visits').notNull().default(0),
  lpClicks: integer('lp_clicks').notNull().default(0),
  conversions: integer('conversions').notNull().default(0),
  revenueMicros: integer('revenue_micros').notNull().default(0),
});

/** What the ad platform reports: impressions, its clicks and spend in micro-units. */
export const adCounters = () => ({
  impressions: integer('impressions').notNull().default(0),
  adClicks: integer('ad_clicks').notNull().default(0),
  spendMicros: integer('spend_micros').notNull().default(0),
});

/** A rollup by event name: the event, how many and their payouts in micro-units. */
export const eventCounters = () => ({
  event: text('event').notNull(),
  events: integer('events').notNull().default(0),
  revenueMicros: integer('revenue_micros').notNull().default(0),
});

/** Who and where a tracked event came from. */
export const visitorColumns = () => ({
  target: target(),
  keyword: text('keyword').notNull().default(''),
  device: text('device').notNull().default(''),
  country: text('country').notNull().default(''),
});
