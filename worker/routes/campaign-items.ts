import { Hono } from 'hono';
import type { z } from 'zod';
import { itemListQuerySchema, type ListAnswer } from '../../schema/campaign-api';
import type { AppEnv, Env } from '../env';
import { type AuthUser, anyRole, requireAuth } from '../lib/auth';
import { validate } from '../lib/validate';
import { campaignForUser } from '../services/campaigns';

// The one shape of a campaign's item routes (landings, offers, paths, options, extra tokens):
// a list by campaign, and an add and an edit that save and answer the campaign's list again.

/** All three roles manage campaigns; which ones is decided in services/campaigns/access.ts. */

type Lister<Item> = (env: Env, campaignId: number, showDeleted?: 0 | 1) => Promise<Item[]>;

/** GET `path`?campaignId&showDeleted: the campaign's items (a deleted campaign's too) as { result }. */
export function itemListRoute<Item>(path: string, list: Lister<Item>) {
  return new Hono<AppEnv>().get(
    path,
    requireAuth,
    anyRole,
    validate('query', itemListQuerySchema),
    async (c) => {
      const { campaignId, showDeleted } = c.req.valid('query');
      const campaign = await campaignForUser(c.env, c.get('user'), campaignId, { allowDeleted: true });
      return c.json({
        data: { result: await list(c.env, campaign.id, showDeleted) } satisfies ListAnswer<Item>,
      });
    },
  );
}

type ItemSpec<Add extends z.ZodType, Edit extends z.ZodType, Item> = {
  /** The item's name: the paths /NAME, /add-NAME and /edit-NAME and the answer's key. */
  name: string;
  add: Add;
  edit: Edit;
  /** The spec's check order of the fields. */
  order: readonly string[];
  /** The edited item's id in the edit body. */
  idOf: (input: z.output<Edit>) => number;
  save: (env: Env, user: AuthUser, input: z.output<Add>, id?: number) => Promise<Item>;
  list: Lister<Item>;
  /** The answer's message, the same for an add and an edit. */
  saved: string;
};

/**
 * GET /NAME, POST /add-NAME (201) and PUT /edit-NAME: each save answers
 * { message, NAME: the saved item, result: the campaign's items }.
 */
export function itemRoutes<Add extends z.ZodType<{ campaignId: number }>, Edit extends Add, Item>(
  spec: ItemSpec<Add, Edit, Item>,
) {
  const answer = async (env: Env, input: z.output<Add>, item: Item) => ({
    data: { message: spec.saved, [spec.name]: item, result: await spec.list(env, input.campaignId) },
  });
  return new Hono<AppEnv>()
    .route('/', itemListRoute(`/${spec.name}`, spec.list))
    .post(`/add-${spec.name}`, requireAuth, anyRole, validate('json', spec.add, spec.order), async (c) => {
      const input = c.req.valid('json') as z.output<Add>;
      const item = await spec.save(c.env, c.get('user'), input);
      return c.json(await answer(c.env, input, item), 201);
    })
    .put(`/edit-${spec.name}`, requireAuth, anyRole, validate('json', spec.edit, spec.order), async (c) => {
      const input = c.req.valid('json') as z.output<Edit>;
      const item = await spec.save(c.env, c.get('user'), input, spec.idOf(input));
      return c.json(await answer(c.env, input, item));
    });
}
