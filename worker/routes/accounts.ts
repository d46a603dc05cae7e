import { Hono } from 'hono';
import {
  type RegistrationAnswer,
  type UserCoachAnswer,
  type UserDeleteAnswer,
  type UserStatusAnswer,
  userCoachSchema,
  userStatusSchema,
} from '../../schema/accounts-api';
import type { AppEnv } from '../env';
import { requireAuth, requireRole } from '../lib/auth';
import { parseInput, pathId, readBody } from '../lib/validate';
import { deleteUser, setUserCoach, setUserDisabled } from '../services/accounts/user-admin';

// Account administration of issue 17 (docs/api.md "Accounts"; docs/decisions/116).

const userId = (raw: string) => pathId(raw, 'User not found.');

export const accountRoutes = new Hono<AppEnv>()
  // Public: /register asks it before showing a form (POST /api/auth/register still refuses).
  .get('/registration', (c) =>
    c.json({ data: { open: c.env.REGISTRATION_ENABLED === 'true' } satisfies RegistrationAnswer }),
  )
  .put('/users/:id/status', requireAuth, requireRole('admin'), async (c) => {
    const id = userId(c.req.param('id'));
    const { disabled } = parseInput(userStatusSchema, await readBody(c), ['disabled']);
    const answer = await setUserDisabled(c.env, c.get('user'), id, disabled);
    return c.json({ data: answer satisfies UserStatusAnswer });
  })
  .put('/users/:id/coach', requireAuth, requireRole('admin'), async (c) => {
    const id = userId(c.req.param('id'));
    const { coachId } = parseInput(userCoachSchema, await readBody(c), ['coachId']);
    const answer = await setUserCoach(c.env, id, coachId);
    return c.json({ data: answer satisfies UserCoachAnswer });
  })
  .delete('/users/:id', requireAuth, requireRole('admin'), async (c) => {
    const answer = await deleteUser(c.env, c.get('user'), userId(c.req.param('id')));
    return c.json({ data: answer satisfies UserDeleteAnswer });
  });
