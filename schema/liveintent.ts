import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { campaigns, ofCampaign } from './campaigns';
import { createdAt, updatedAt } from './columns';

// Which LiveIntent objects a tracker campaign manages (migration 0014, docs/decisions/090). The
// platform holds the objects themselves; the tracker keeps only the link, so the manage screen
// lists this campaign's platform campaigns and ads and no other campaign's.

export const LI_OBJECT_KINDS = ['campaign', 'ad'] as const;

export const liveintentObjects = sqliteTable(
  'liveintent_objects',
  {
    ...ofCampaign(),
    kind: text('kind', { enum: LI_OBJECT_KINDS }).notNull(),
    refId: text('ref_id').notNull(),
    /** An ad's line item. */
    parentRefId: text('parent_ref_id').notNull().default(''),
    /** An ad's image in R2. */
    imageKey: text('image_key').notNull().default(''),
    deleted: integer('deleted').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('liveintent_objects_campaign_idx').on(t.campaignId, t.kind)],
);

export const FORCE_SYNC_STATUSES = ['idle', 'started', 'in-progress', 'error', 'done'] as const;
export type ForceSyncStatus = (typeof FORCE_SYNC_STATUSES)[number];

/** The force sync of a campaign's LiveIntent costs (spec 3 §4), one row per campaign. */
export const liveintentForceSync = sqliteTable('liveintent_force_sync', {
  campaignId: integer('campaign_id')
    .primaryKey()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  runId: text('run_id').notNull().default(''),
  status: text('status', { enum: FORCE_SYNC_STATUSES }).notNull().default('idle'),
  message: text('message').notNull().default(''),
  progressLogs: text('progress_logs').notNull().default('[]'),
  since: text('since').notNull().default(''),
  until: text('until').notNull().default(''),
  nextDay: text('next_day').notNull().default(''),
  stopRequested: integer('stop_requested').notNull().default(0),
  startedBy: integer('started_by'),
  completedMessage: text('completed_message').notNull().default(''),
  updatedAt: updatedAt(),
});

/** The campaign editor's LiveIntent campaign list (spec 2 §3). */
export const liCampaignList = sqliteTable(
  'li_campaign_list',
  {
    ...ofCampaign(),
    liCampaignId: text('li_campaign_id').notNull(),
    liCampaignName: text('li_campaign_name').notNull().default(''),
    deleted: integer('deleted').notNull().default(0),
  },
  (t) => [index('li_campaign_list_campaign_idx').on(t.campaignId)],
);

/** The campaign editor's LiveIntent line item list (spec 2 §3); the budget in micro-units. */
export const liLineItemList = sqliteTable(
  'li_lineitem_list',
  {
    ...ofCampaign(),
    liLineItemId: text('li_line_item_id').notNull(),
    liLineItemName: text('li_line_item_name').notNull().default(''),
    liDailyBudgetMicros: integer('li_daily_budget_micros').notNull().default(0),
    liCampaignId: text('li_campaign_id').notNull(),
    status: integer('status').notNull().default(0),
    deleted: integer('deleted').notNull().default(0),
  },
  (t) => [index('li_lineitem_list_campaign_idx').on(t.campaignId)],
);
