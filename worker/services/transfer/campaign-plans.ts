import { getTableColumns } from 'drizzle-orm';
import type { AddCampaignInput } from '../../../schema/campaign-api';
import { campaigns, extraTokens, landingPages, offerPages, options, paths } from '../../../schema/campaigns';
import type { Env } from '../../env';
import { getDb } from '../../lib/db';
import { campaignValues } from '../campaigns';
import { chunks, listItem } from '../campaigns/campaign-tree';

// Writing copied campaigns (clone, ZIP import, CSV upload). Every write is one D1 batch (one
// transaction), so a bad file or a failure half-way leaves nothing behind. New rows get explicit
// ids allocated before the batch, which lets items point at their new paths and options inside
// the same batch; if another writer took an id meanwhile, the batch fails on the primary key and
// is retried.

type CampaignInsert = typeof campaigns.$inferInsert;

/** A campaign or folder to write, with its items; keys are ids of the source (row or manifest). */
export type Plan = {
  key: number;
  /** Key of a planned folder holding this one; null puts it into the target folder. */
  parentKey: number | null;
  values: Omit<CampaignInsert, 'id' | 'parentId' | 'createdBy'>;
  paths: { key: number; values: Omit<typeof paths.$inferInsert, 'id' | 'campaignId' | 'createdBy'> }[];
  options: { key: number; values: Omit<typeof options.$inferInsert, 'id' | 'campaignId' | 'createdBy'> }[];
  landings: {
    pathKey: number | null;
    values: Omit<typeof landingPages.$inferInsert, 'id' | 'campaignId' | 'pathId' | 'createdBy'>;
  }[];
  offers: {
    pathKey: number | null;
    optionKey: number | null;
    values: Omit<typeof offerPages.$inferInsert, 'id' | 'campaignId' | 'pathId' | 'optionId' | 'createdBy'>;
  }[];
  tokens: Omit<typeof extraTokens.$inferInsert, 'id' | 'campaignId'>[];
};

export const emptyPlan = (key: number, parentKey: number | null, values: Plan['values']): Plan => ({
  key,
  parentKey,
  values,
  paths: [],
  options: [],
  landings: [],
  offers: [],
  tokens: [],
});

/** Column values of a campaign checked by the add-campaign rules (services/campaigns.ts), as a top-level campaign. */
export function campaignColumns(input: AddCampaignInput, name: string): Plan['values'] {
  const { parentId: _parent, ...values } = campaignValues({ ...input, name });
  return { ...values, isDir: 0 };
}

// ---- id mapping --------------------------------------------------------------------------------

const ID_TABLES = ['campaigns', 'paths', 'options', 'landing_pages', 'offer_pages', 'extra_tokens'] as const;
type IdTable = (typeof ID_TABLES)[number];

/** The next unused id of each table: above both the largest id and the AUTOINCREMENT sequence. */
async function nextIds(env: Pick<Env, 'DB'>): Promise<Record<IdTable, number>> {
  const maxes = await env.DB.batch<{ m: number | null }>(
    ID_TABLES.map((t) => env.DB.prepare(`SELECT max(id) AS m FROM ${t}`)),
  );
  const seq = new Map<string, number>();
  try {
    const { results } = await env.DB.prepare(
      `SELECT name, seq FROM sqlite_sequence WHERE name IN (${ID_TABLES.map((_, i) => `?${i + 1}`).join(', ')})`,
    )
      .bind(...ID_TABLES)
      .all<{ name: string; seq: number }>();
    for (const r of results) seq.set(r.name, r.seq);
  } catch {
    // No sequence table readable: the largest id is the floor.
  }
  const out = {} as Record<IdTable, number>;
  ID_TABLES.forEach((t, i) => {
    out[t] = Math.max(maxes[i].results[0]?.m ?? 0, seq.get(t) ?? 0) + 1;
  });
  return out;
}

/** Rows per INSERT so that no statement binds more than 100 parameters (drizzle binds every column). */
function insertChunks<T>(table: Parameters<typeof getTableColumns>[0], rows: T[]): T[][] {
  const columns = Object.keys(getTableColumns(table)).length;
  return chunks(rows, Math.max(1, Math.floor(100 / columns)));
}

// ---- writing -----------------------------------------------------------------------------------

/**
 * Writes the plans in one batch under `parentId` for `ownerId`; answers the new campaign id of
 * each plan, in plan order. Plans must list folders before what they hold.
 */
export async function writePlans(env: Env, plans: Plan[], parentId: number | null, ownerId: number) {
  const db = getDb(env);
  for (let attempt = 1; ; attempt++) {
    const next = await nextIds(env);
    const now = Date.now();
    const campaignIds = new Map<number, number>();
    plans.forEach((p, i) => {
      campaignIds.set(p.key, next.campaigns + i);
    });
    const campaignRows: CampaignInsert[] = [];
    const pathRows: (typeof paths.$inferInsert)[] = [];
    const optionRows: (typeof options.$inferInsert)[] = [];
    const landingRows: (typeof landingPages.$inferInsert)[] = [];
    const offerRows: (typeof offerPages.$inferInsert)[] = [];
    const tokenRows: (typeof extraTokens.$inferInsert)[] = [];
    const stamp = { createdBy: ownerId, createdAt: now, updatedAt: now };
    for (const plan of plans) {
      const id = campaignIds.get(plan.key)!;
      campaignRows.push({
        ...plan.values,
        id,
        parentId: plan.parentKey === null ? parentId : (campaignIds.get(plan.parentKey) ?? parentId),
        ...stamp,
      });
      // The id map: each source key to the id of its copy, so items point at the new rows.
      const newPaths = plan.paths.map((p) => ({ ...p.values, id: next.paths++, campaignId: id, ...stamp }));
      const newOptions = plan.options.map((o) => ({
        ...o.values,
        id: next.options++,
        campaignId: id,
        ...stamp,
      }));
      const pathIds = new Map(plan.paths.map((p, i) => [p.key, newPaths[i].id]));
      const optionIds = new Map(plan.options.map((o, i) => [o.key, newOptions[i].id]));
      const newId = (ids: Map<number, number>, key: number | null) =>
        key === null ? null : (ids.get(key) ?? null);
      pathRows.push(...newPaths);
      optionRows.push(...newOptions);
      for (const l of plan.landings) {
        landingRows.push({
          ...l.values,
          id: next.landing_pages++,
          campaignId: id,
          pathId: newId(pathIds, l.pathKey),
          ...stamp,
        });
      }
      for (const o of plan.offers) {
        offerRows.push({
          ...o.values,
          id: next.offer_pages++,
          campaignId: id,
          pathId: newId(pathIds, o.pathKey),
          optionId: newId(optionIds, o.optionKey),
          ...stamp,
        });
      }
      for (const t of plan.tokens) {
        tokenRows.push({ ...t, id: next.extra_tokens++, campaignId: id, createdAt: now, updatedAt: now });
      }
    }
    // Parents before children: the items' foreign keys are checked statement by statement.
    const statements = [
      ...insertChunks(campaigns, campaignRows).map((rows) => db.insert(campaigns).values(rows)),
      ...insertChunks(paths, pathRows).map((rows) => db.insert(paths).values(rows)),
      ...insertChunks(options, optionRows).map((rows) => db.insert(options).values(rows)),
      ...insertChunks(landingPages, landingRows).map((rows) => db.insert(landingPages).values(rows)),
      ...insertChunks(offerPages, offerRows).map((rows) => db.insert(offerPages).values(rows)),
      ...insertChunks(extraTokens, tokenRows).map((rows) => db.insert(extraTokens).values(rows)),
    ];
    try {
      const [first, ...rest] = statements;
      await db.batch([first, ...rest]);
      return plans.map((p) => campaignIds.get(p.key)!);
    } catch (err) {
      // Another writer took one of the ids between the read and the batch: allocate again.
      if (attempt < 4 && /UNIQUE constraint failed: \w+\.id|PRIMARY KEY/i.test(String(err))) continue;
      throw err;
    }
  }
}

/** The written campaigns as the campaigns list answers them. */
export async function listItemsOf(env: Pick<Env, 'DB'>, ids: number[]) {
  const out: ReturnType<typeof listItem>[] = [];
  for (const part of chunks(ids)) {
    const { results } = await env.DB.prepare(
      `SELECT id, name, is_dir, parent_id, deleted, active, campaign_type, traffic_source, offer_promotion
       FROM campaigns WHERE id IN (${part.map((_, i) => `?${i + 1}`).join(', ')}) ORDER BY id`,
    )
      .bind(...part)
      .all<Parameters<typeof listItem>[0]>();
    out.push(...results.map(listItem));
  }
  return out;
}
