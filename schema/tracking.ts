import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  primaryKey,
  type SQLiteColumn,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';
import {
  campaignDay,
  createdAt,
  eventCounters,
  placementIds,
  serialId,
  target,
  timestamps,
  visitorColumns,
} from './columns';

// Raw tracking events and their daily rollups (docs/tracking.md, docs/decisions/011-ingest-idempotency.md).
// Timestamps are UTC milliseconds; `day` is the day in the installation's time zone when the
// event happened (YYYY-MM-DD). Ids of paths, landing pages and offers are 0 when there is none,
// so that rollup keys never hold NULL (NULLs never conflict in a unique index).

/** Why a visit or landing-page click is stored but left out of the numbers. */
export const FILTER_REASONS = ['bot', 'head', 'prefetch', 'inactive', 'unrouted', 'lp_direct'] as const;
export type FilterReason = (typeof FILTER_REASONS)[number];

export const EVENT_SOURCES = ['postback', 'pixel', 'iframe', 'script'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/** Values of the campaign's extra tokens, by the token's slot (schema/campaigns.ts extraTokens). */
const tokenColumns = () => ({
  t1: text('t1'),
  t2: text('t2'),
  t3: text('t3'),
  t4: text('t4'),
  t5: text('t5'),
  t6: text('t6'),
  t7: text('t7'),
  t8: text('t8'),
  t9: text('t9'),
  t10: text('t10'),
  t11: text('t11'),
  t12: text('t12'),
  t13: text('t13'),
  t14: text('t14'),
  t15: text('t15'),
  t16: text('t16'),
  t17: text('t17'),
  t18: text('t18'),
  t19: text('t19'),
  t20: text('t20'),
});
export const TOKEN_SLOTS = Array.from({ length: 20 }, (_, i) => i + 1);

export const visits = sqliteTable(
  'visits',
  {
    id: integer('id').primaryKey(),
    clickId: text('click_id').notNull(),
    campaignId: integer('campaign_id').notNull(),
    /** offerId: the offer chosen at the visit (direct link and rotator campaigns); 0 otherwise. */
    ...placementIds(),
    createdAt: integer('created_at').notNull(),
    day: text('day').notNull(),
    ...visitorColumns(),
    referrer: text('referrer').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** Null for a counted visit; otherwise why it is left out (bot, head, prefetch...). */
    filter: text('filter', { enum: FILTER_REASONS }),
    /** 1 when the visit came from the direct-tracking script rather than the redirect. */
    direct: integer('direct').notNull().default(0),
    ...tokenColumns(),
  },
  (t) => [
    uniqueIndex('visits_click_id_unique').on(t.clickId),
    index('visits_campaign_day_idx').on(t.campaignId, t.day),
  ],
);

/**
 * The keys of a landing-page click or a conversion: its row id, the key that makes a second
 * delivery a no-op (what it is made of is said at each table), the click and where it went.
 */
const eventKeys = () => ({
  id: integer('id').primaryKey(),
  dedupeKey: text('dedupe_key').notNull(),
  clickId: text('click_id').notNull(),
  campaignId: integer('campaign_id').notNull(),
  ...placementIds(),
});

/**
 * When a landing-page click or a conversion was stored and its day, when its visit happened (null
 * while the event is an orphan), and who the visit came from.
 */
const eventTimes = () => ({
  createdAt: integer('created_at').notNull(),
  day: text('day').notNull(),
  visitAt: integer('visit_at'),
  ...visitorColumns(),
});

/** The orphans waiting for their visit, and the rows just adopted (services/ingest adopts them). */
const adoptionIndexes = (
  table: string,
  t: { clickId: SQLiteColumn; orphan: SQLiteColumn; adoptedMark: SQLiteColumn },
) => [
  index(`${table}_orphan_idx`).on(t.clickId).where(sql`${t.orphan} = 1`),
  index(`${table}_adopted_idx`).on(t.adoptedMark).where(sql`${t.adoptedMark} IS NOT NULL`),
];

export const lpClicks = sqliteTable(
  'lp_clicks',
  {
    /** dedupe_key: the click id for a counted click; click id and filter reason for a filtered one. */
    ...eventKeys(),
    optionId: integer('option_id').notNull().default(0),
    ...eventTimes(),
    filter: text('filter', { enum: FILTER_REASONS }),
    /** 1 while its visit is unknown; adopted (set to 0 and counted) when the visit arrives. */
    orphan: integer('orphan').notNull().default(0),
    adoptedMark: integer('adopted_mark'),
    ...tokenColumns(),
  },
  (t) => [
    // A counted click's dedupe key is its click id: lookups use this index (migration 0017).
    uniqueIndex('lp_clicks_dedupe_unique').on(t.dedupeKey),
    index('lp_clicks_campaign_day_idx').on(t.campaignId, t.day),
    ...adoptionIndexes('lp_clicks', t),
  ],
);

export const conversions = sqliteTable(
  'conversions',
  {
    /** dedupe_key: click id + transaction id, or click id + event name when there is no transaction id. */
    ...eventKeys(),
    ...eventTimes(),
    /** purchase, the campaign's goal, lp, atc1, atc2 or any named event. */
    event: text('event').notNull(),
    /** 1 when the event is the campaign's conversion goal (counted as a conversion). */
    isGoal: integer('is_goal').notNull().default(1),
    transactionId: text('transaction_id').notNull().default(''),
    /** Null only for an orphan whose payout defaults to an offer not known yet. */
    payoutMicros: integer('payout_micros'),
    source: text('source', { enum: EVENT_SOURCES }).notNull(),
    orphan: integer('orphan').notNull().default(0),
    /** When a chargeback (a negative payout of the same click and txid) reversed it; docs/tracking.md. */
    reversedAt: integer('reversed_at'),
    adoptedMark: integer('adopted_mark'),
    ...tokenColumns(),
  },
  (t) => [
    uniqueIndex('conversions_dedupe_unique').on(t.dedupeKey),
    index('conversions_click_id_idx').on(t.clickId),
    index('conversions_campaign_day_idx').on(t.campaignId, t.day),
    ...adoptionIndexes('conversions', t),
  ],
);

/**
 * Daily totals per (campaign, day, target, path, landing, offer). Visits of landing-page
 * campaigns carry offer 0 (the offer is chosen at the landing-page click); their LP clicks
 * and conversions carry the offer.
 */
export const dailyStats = sqliteTable(
  'daily_stats',
  {
    ...campaignDay(),
    target: target(),
    ...placementIds(),
    visits: integer('visits').notNull().default(0),
    /** Bots, HEAD and prefetch requests, visits to an inactive or unroutable campaign. */
    filteredVisits: integer('filtered_visits').notNull().default(0),
    lpClicks: integer('lp_clicks').notNull().default(0),
    conversions: integer('conversions').notNull().default(0),
    /** Sum of the payouts of every event (goal and named events), micro-units. */
    revenueMicros: integer('revenue_micros').notNull().default(0),
  },
  (t) => [
    // WITHOUT ROWID since migration 0017: the key's prefix serves (campaign_id, day) reads.
    primaryKey({ columns: [t.campaignId, t.day, t.target, t.pathId, t.landingId, t.offerId] }),
  ],
);

/** Daily counts per event name (purchase, lp, atc1, atc2, named events) on the same keys. */
export const dailyEventStats = sqliteTable(
  'daily_event_stats',
  {
    ...campaignDay(),
    target: target(),
    ...placementIds(),
    ...eventCounters(),
  },
  (t) => [
    primaryKey({
      columns: [t.campaignId, t.day, t.target, t.pathId, t.landingId, t.offerId, t.event],
    }),
  ],
);

/**
 * One row per ingest transaction while it runs: the highest row ids before its inserts, so the
 * rollup statements of the same transaction add exactly the rows it inserted.
 */
export const ingestMarks = sqliteTable('ingest_marks', {
  id: integer('id').primaryKey(),
  visitsFrom: integer('visits_from').notNull(),
  lpClicksFrom: integer('lp_clicks_from').notNull(),
  conversionsFrom: integer('conversions_from').notNull(),
  /** How many visits the transaction's insert added (SQLite changes()): all new takes the fast rollup path. */
  visitsInserted: integer('visits_inserted'),
  createdAt: createdAt(),
});

export const POSTBACK_STATUSES = ['pending', 'sent', 'failed', 'blocked'] as const;

/** Outbound postbacks to traffic sources, one per conversion, with their delivery state. */
export const postbackLog = sqliteTable(
  'postback_log',
  {
    id: serialId(),
    conversionId: integer('conversion_id').notNull(),
    campaignId: integer('campaign_id').notNull(),
    clickId: text('click_id').notNull(),
    url: text('url').notNull().default(''),
    status: text('status', { enum: POSTBACK_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    error: text('error').notNull().default(''),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('postback_log_conversion_unique').on(t.conversionId),
    index('postback_log_status_idx').on(t.status, t.updatedAt),
    index('postback_log_campaign_idx').on(t.campaignId),
  ],
);

// ---- events ---------------------------------------------------------------------------------

// The events the hot path hands to the ingest queue (the contract between worker/tracking/, which
// sends them, and the ingest consumer in worker/jobs/ and worker/services/, which stores them). Short keys keep micro-batches small
// (a Queue message holds at most 128 KB). Ids of path, landing and offer are 0 when none.

export type VisitEvent = {
  k: 'v';
  /** Click id. */
  id: string;
  c: number;
  p: number;
  l: number;
  o: number;
  /** UTC milliseconds. */
  at: number;
  tgt: string;
  kw: string;
  dev: string;
  cc: string;
  ref: string;
  ua: string;
  f: FilterReason | null;
  /** 1 when recorded by the direct-tracking script. */
  d: 0 | 1;
  /** Extra-token values by slot (1..20). */
  tok: Record<string, string>;
};

export type LpClickEvent = {
  k: 'l';
  id: string;
  c: number;
  p: number;
  l: number;
  /** The offer the visitor was sent to. */
  o: number;
  opt: number;
  at: number;
  f: FilterReason | null;
};

export type ConversionEvent = {
  k: 'c';
  id: string;
  c: number;
  p: number;
  l: number;
  o: number;
  at: number;
  /** Event name; null means the campaign's conversion goal. */
  ev: string | null;
  tx: string;
  /** Payout in micros; null means the offer's payout (for the goal) or 0 (other events). */
  pay: number | null;
  src: EventSource;
};

export type TrackEvent = VisitEvent | LpClickEvent | ConversionEvent;
export type IngestMessage = { v: 1; events: TrackEvent[] };

/** Limits on stored text, so that one event never grows a message beyond reason. */
export const LIMITS = { text: 255, referrer: 1024, userAgent: 512 } as const;

// Control characters have no place in stored text, and each would grow six-fold in JSON.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL = /[\x00-\x1f\x7f]/g;

/** Text for storage: control characters dropped, cut at `max` characters. */
export function clip(value: string | null | undefined, max: number = LIMITS.text): string {
  if (!value) return '';
  const clean = CONTROL.test(value) ? value.replace(CONTROL, '') : value;
  CONTROL.lastIndex = 0;
  return clean.length > max ? clean.slice(0, max) : clean;
}

const isId = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isStr = (v: unknown) => typeof v === 'string';
const filters = new Set<unknown>([null, ...FILTER_REASONS]);
const sources = new Set<unknown>(EVENT_SOURCES);

/** Checks an event's shape; anything else is poison and goes to the dead letters. */
export function isTrackEvent(e: unknown): e is TrackEvent {
  if (typeof e !== 'object' || e === null) return false;
  const x = e as Record<string, unknown>;
  if (!isStr(x.id) || !(x.id as string).length || !isId(x.c) || (x.c as number) < 1) return false;
  if (!isId(x.p) || !isId(x.l) || !isId(x.o) || !isId(x.at)) return false;
  switch (x.k) {
    case 'v':
      return (
        isStr(x.tgt) &&
        isStr(x.kw) &&
        isStr(x.dev) &&
        isStr(x.cc) &&
        isStr(x.ref) &&
        isStr(x.ua) &&
        filters.has(x.f) &&
        (x.d === 0 || x.d === 1) &&
        typeof x.tok === 'object' &&
        x.tok !== null
      );
    case 'l':
      return isId(x.opt) && filters.has(x.f);
    case 'c':
      return (
        (x.ev === null || isStr(x.ev)) &&
        isStr(x.tx) &&
        (x.pay === null || (typeof x.pay === 'number' && Number.isSafeInteger(x.pay))) &&
        sources.has(x.src)
      );
    default:
      return false;
  }
}
