import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { mailOutbox, users } from '../../schema/auth';
import {
  CREATE_USER_FIELD_ORDER,
  type CurrentUserAnswer,
  changeRoleSchema,
  createUserSchema,
  type GetUserAnswer,
  getUserSchema,
  type UserChangeAnswer,
  type UsersAnswer,
} from '../../schema/auth-api';
import type { AppEnv } from '../env';
import { requireAuth, requireRole } from '../lib/auth';
import { getDb } from '../lib/db';
import { ApiError } from '../lib/errors';
import { pathId, validate } from '../lib/validate';
import { createUser, publicUser, revokeTokens } from '../services/accounts/users';

const idParam = (raw: string) => pathId(raw, 'User not found.');

/** GET /api/user and its older name /api/user-get: the signed-in user. */
async function currentUser(c: Context<AppEnv>) {
  const row = await getDb(c.env)
    .select()
    .from(users)
    .where(eq(users.id, c.get('user').id))
    .get();
  return c.json({ data: { user: publicUser(row!) } satisfies CurrentUserAnswer });
}

export const userRoutes = new Hono<AppEnv>()
  .get('/user', requireAuth, currentUser)
  .get('/user-get', requireAuth, currentUser)
  // The user lookup of spec 2 §7 and spec 4 §7: an admin finds anybody; a coach finds only
  // themselves and their own students (docs/decisions/174); a student is refused (403).
  .post(
    '/auth/getUser',
    requireAuth,
    requireRole('admin', 'coach'),
    validate('json', getUserSchema),
    async (c) => {
      const me = c.get('user');
      const { username } = c.req.valid('json');
      const mine =
        me.role === 'admin'
          ? undefined
          : or(eq(users.id, me.id), and(eq(users.coachId, me.id), eq(users.role, 'student')));
      const rows = await getDb(c.env)
        .select()
        .from(users)
        .where(and(sql`instr(lower(${users.username}), lower(${username})) > 0`, mine))
        .orderBy(asc(users.username))
        .limit(50)
        .all();
      return c.json({ data: { user: rows.map(publicUser) } satisfies GetUserAnswer });
    },
  )
  .get('/users', requireAuth, requireRole('admin'), async (c) => {
    const rows = await getDb(c.env).select().from(users).orderBy(asc(users.id)).all();
    return c.json({ data: { result: rows.map(publicUser) } satisfies UsersAnswer });
  })
  .post(
    '/registeruser',
    requireAuth,
    requireRole('admin'),
    validate('json', createUserSchema, CREATE_USER_FIELD_ORDER),
    async (c) => {
      const user = await createUser(c.env, c.req.valid('json'));
      return c.json(
        {
          data: { message: 'User created successfully.', user: publicUser(user) } satisfies UserChangeAnswer,
        },
        201,
      );
    },
  )
  .put(
    '/users/:id/role',
    requireAuth,
    requireRole('admin'),
    validate('json', changeRoleSchema),
    async (c) => {
      const id = idParam(c.req.param('id'));
      const { role } = c.req.valid('json');
      const db = getDb(c.env);
      const target = await db.select().from(users).where(eq(users.id, id)).get();
      if (!target) throw new ApiError(404, 'User not found.');
      if (target.id === c.get('user').id && role !== 'admin') {
        throw new ApiError(422, 'You cannot remove your own admin role.');
      }
      const updated = await db
        .update(users)
        .set({ role, updatedAt: Date.now() })
        .where(eq(users.id, id))
        .returning()
        .get();
      // A changed role takes effect at once: tokens minted with the old role are revoked.
      if (target.role !== role) await revokeTokens(c.env, id);
      return c.json({
        data: { message: 'Role updated.', user: publicUser(updated) } satisfies UserChangeAnswer,
      });
    },
  );

/** Only in development: the mail outbox, so a developer can follow reset links locally. */
export const devRoutes = new Hono<AppEnv>().get('/dev/outbox', async (c) => {
  if (c.env.ENVIRONMENT !== 'development') throw new ApiError(404, 'Not found.');
  const rows = await getDb(c.env).select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(20).all();
  return c.json({ data: { result: rows } });
});
