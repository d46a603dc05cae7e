import { Hono } from 'hono';
import {
  type BalanceAnswer,
  type BalanceSettingsAnswer,
  type BalanceUsersAnswer,
  balanceSettingsSchema,
  getBalanceSchema,
  MONEY_MESSAGES as M,
  type SaveBalanceSettingsAnswer,
  UPDATE_BALANCE_FIELD_ORDER,
  type UpdateBalanceAnswer,
  updateBalanceSchema,
} from '../../schema/money-api';
import type { AppEnv } from '../env';
import { requireAuth, requireRole, roleString } from '../lib/auth';
import { ApiError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import {
  adjustBalances,
  balanceAnswer,
  balanceValues,
  walletMicros,
  walletOwner,
} from '../services/money/ledger';
import { saveWalletSettings, walletConfig } from '../services/money/wallet-settings';

// Ad-wallet balances and adjustments (spec 4 §7, spec 2 §7; docs/api.md "Funding and balances").

export const fundingRoutes = new Hono<AppEnv>()
  .post('/get-balance', requireAuth, async (c) => {
    const input = parseInput(getBalanceSchema, await readBody(c), ['userId']);
    const owner = await walletOwner(c.env, c.get('user'), input.userId);
    return c.json({
      data: (await balanceAnswer(c.env, owner, input.page, input.perPage)) satisfies BalanceAnswer,
    });
  })
  .post('/update-balance', requireAuth, async (c) => {
    const user = c.get('user');
    const body = await readBody(c);
    // Roles first: a student learns nothing about the payload or the named user.
    if (user.role !== 'admin' && user.role !== 'coach') {
      throw new ApiError(403, M.unauthorized);
    }
    const input = parseInput(updateBalanceSchema, body, UPDATE_BALANCE_FIELD_ORDER);
    const owner = await walletOwner(c.env, user, input.userId);
    const { applied, entries } = await adjustBalances(c.env, user, owner, input);
    const answer: UpdateBalanceAnswer = {
      status: true,
      message: M.updated,
      applied,
      entries,
      balance: balanceValues(await walletMicros(c.env, owner.id)),
    };
    return c.json({ data: answer satisfies UpdateBalanceAnswer });
  })
  .get('/balance-users', requireAuth, requireRole('admin', 'coach'), async (c) => {
    // A coach lists their own students only: the ones they may adjust (docs/decisions/124).
    const user = c.get('user');
    const { results } = await c.env.DB.prepare(
      `SELECT id, username, name, role, rotator_is_enabled FROM users
       WHERE role = 'student' AND (?1 IS NULL OR coach_id = ?1) ORDER BY lower(username)`,
    )
      .bind(user.role === 'coach' ? user.id : null)
      .all<{ id: number; username: string; name: string; role: 'student'; rotator_is_enabled: number }>();
    const answer: BalanceUsersAnswer = {
      result: results.map((r) => ({
        ...r,
        role: roleString(r.role),
        rotator_is_enabled: r.rotator_is_enabled === 1,
      })),
    };
    return c.json({ data: answer satisfies BalanceUsersAnswer });
  })
  .get('/balance-settings', requireAuth, async (c) => {
    const config = await walletConfig(c.env);
    return c.json({
      data: {
        headerBalance: config.headerBalance,
        minimumBalance: config.minimumMicros / 1e6,
      } satisfies BalanceSettingsAnswer,
    });
  })
  .put('/balance-settings', requireAuth, requireRole('admin'), async (c) => {
    const input = parseInput(balanceSettingsSchema, await readBody(c), [
      'headerBalance',
      'minimumBalance',
      'userId',
    ]);
    if (input.userId) await walletOwner(c.env, c.get('user'), input.userId);
    await saveWalletSettings(c.env, input);
    const config = await walletConfig(c.env);
    return c.json({
      data: {
        message: 'Balance settings saved.',
        headerBalance: config.headerBalance,
        minimumBalance: config.minimumMicros / 1e6,
      } satisfies SaveBalanceSettingsAnswer,
    });
  });
