import { and, asc, eq } from 'drizzle-orm';
import {
  type campaigns,
  extraTokens,
  landingPages,
  offerPages,
  options,
  paths,
} from '../../../schema/campaigns';
import type { Env } from '../../env';
import { getDb } from '../../lib/db';

// A campaign's item rows as clone and export read them.

export type CampaignRow = typeof campaigns.$inferSelect;

export type Items = {
  paths: (typeof paths.$inferSelect)[];
  options: (typeof options.$inferSelect)[];
  landings: (typeof landingPages.$inferSelect)[];
  offers: (typeof offerPages.$inferSelect)[];
  tokens: (typeof extraTokens.$inferSelect)[];
};

type ItemTable = typeof paths | typeof options | typeof landingPages | typeof offerPages | typeof extraTokens;

/** The campaign's items of every kind in id order; `liveOnly` leaves out soft-deleted ones. */
export async function itemsOf(
  env: Pick<Env, 'DB'>,
  campaignId: number,
  { liveOnly }: { liveOnly: boolean },
): Promise<Items> {
  const db = getDb(env);
  const rowsOf = <T extends ItemTable>(table: T) =>
    db
      .select()
      .from(table)
      .where(and(eq(table.campaignId, campaignId), liveOnly ? eq(table.deleted, 0) : undefined))
      .orderBy(asc(table.id));
  const [p, o, l, f, t] = await db.batch([
    rowsOf(paths),
    rowsOf(options),
    rowsOf(landingPages),
    rowsOf(offerPages),
    rowsOf(extraTokens),
  ]);
  return {
    paths: p,
    options: o,
    landings: l,
    offers: f,
    tokens: t,
  };
}

// The columns a copy of an item keeps, whether it is cloned here or written to an export.

export const pathValues = (p: Items['paths'][number]) => ({
  name: p.name,
  share: p.share,
  active: p.active,
  agents: p.agents,
  deleted: p.deleted,
});

export const optionValues = (o: Items['options'][number]) => ({
  name: o.name,
  active: o.active,
  deleted: o.deleted,
});

export const landingValues = (l: Items['landings'][number]) => ({
  name: l.name,
  url: l.url,
  share: l.share,
  active: l.active,
  agents: l.agents,
  deleted: l.deleted,
});
