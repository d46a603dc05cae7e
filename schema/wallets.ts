import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, serialId, updatedAt } from './columns';

// Ad wallets and rotator funding as one append-only ledger (migration 0009, written by hand:
// drizzle cannot declare its CHECK constraints or WITHOUT ROWID; docs/decisions/050).

/** The six ad wallets of a student (spec 4 §3, spec 2 §9), in the spec's order. */
export const WALLETS = ['liveintent', 'blaze', 'blazeDedicated', 'cpc', 'dsp', 'mediago'] as const;
export type Wallet = (typeof WALLETS)[number];

/** What booked a ledger entry. */
export const LEDGER_CAUSES = ['adjustment', 'rotator_funding', 'platform_spend'] as const;
export type LedgerCause = (typeof LEDGER_CAUSES)[number];

/** The ledger's wallet of an offer's rotator funding (its entries carry offer_id). */
export const ROTATOR_WALLET = 'rotator';

export const walletLedger = sqliteTable(
  'wallet_ledger',
  {
    id: serialId(),
    userId: integer('user_id').notNull(),
    wallet: text('wallet').notNull(),
    offerId: integer('offer_id'),
    amountMicros: integer('amount_micros').notNull(),
    note: text('note').notNull().default(''),
    cause: text('cause', { enum: LEDGER_CAUSES }).notNull(),
    addedBy: integer('added_by'),
    addedByName: text('added_by_name').notNull().default(''),
    role: text('role').notNull().default(''),
    refCampaignId: integer('ref_campaign_id'),
    day: text('day'),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('wallet_ledger_idempotency_unique').on(t.idempotencyKey),
    index('wallet_ledger_user_wallet_idx').on(t.userId, t.wallet, t.amountMicros),
    index('wallet_ledger_user_created_idx').on(t.userId, t.id),
    index('wallet_ledger_offer_idx').on(t.offerId).where(sql`${t.offerId} IS NOT NULL`),
    index('wallet_ledger_spend_idx')
      .on(t.day, t.refCampaignId, t.wallet)
      .where(sql`${t.cause} = 'platform_spend'`),
  ],
);

export const walletSettings = sqliteTable(
  'wallet_settings',
  {
    userId: integer('user_id').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
