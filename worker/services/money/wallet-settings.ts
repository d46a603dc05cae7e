import { WALLETS, type Wallet, type WalletFlags } from '../../../schema/money-api';
import type { Env } from '../../env';

// Wallet configuration in wallet_settings: user 0 is the installation (header dashboard,
// minimum balance), a user's rows are its disabled wallets (docs/decisions/050).

const INSTALLATION = 0;
/** spec 2 §9: the minimum required provider balance is 1500 unless configured. */
const DEFAULT_MINIMUM_MICROS = 1500 * 1_000_000;

export type WalletConfig = { headerBalance: boolean; minimumMicros: number };

export async function walletConfig(env: Pick<Env, 'DB'>): Promise<WalletConfig> {
  const { results } = await env.DB.prepare('SELECT key, value FROM wallet_settings WHERE user_id = ?1')
    .bind(INSTALLATION)
    .all<{ key: string; value: string }>();
  const map = new Map(results.map((r) => [r.key, r.value]));
  const minimum = Number(map.get('minimum_balance_micros'));
  return {
    // On unless an admin turned it off: a student should see what it can spend.
    headerBalance: map.get('header_balance') !== '0',
    minimumMicros: Number.isSafeInteger(minimum) && minimum >= 0 ? minimum : DEFAULT_MINIMUM_MICROS,
  };
}

export async function disabledWallets(env: Pick<Env, 'DB'>, userId: number): Promise<WalletFlags> {
  const { results } = await env.DB.prepare(
    "SELECT key, value FROM wallet_settings WHERE user_id = ?1 AND key LIKE 'disabled.%'",
  )
    .bind(userId)
    .all<{ key: string; value: string }>();
  const flags = Object.fromEntries(WALLETS.map((w) => [w, false])) as WalletFlags;
  for (const row of results) {
    const wallet = row.key.slice('disabled.'.length) as Wallet;
    if (wallet in flags) flags[wallet] = row.value === '1';
  }
  return flags;
}

export async function saveWalletSettings(
  env: Pick<Env, 'DB'>,
  input: {
    headerBalance?: boolean;
    minimumBalance?: number;
    userId?: number;
    disabled?: Partial<Record<Wallet, boolean>>;
    rotatorEnabled?: boolean;
  },
): Promise<void> {
  if (input.userId && input.rotatorEnabled !== undefined) {
    await env.DB.prepare('UPDATE users SET rotator_is_enabled = ?1, updated_at = ?2 WHERE id = ?3')
      .bind(input.rotatorEnabled ? 1 : 0, Date.now(), input.userId)
      .run();
  }
  const rows: [number, string, string][] = [];
  if (input.headerBalance !== undefined)
    rows.push([INSTALLATION, 'header_balance', input.headerBalance ? '1' : '0']);
  if (input.minimumBalance !== undefined)
    rows.push([INSTALLATION, 'minimum_balance_micros', String(input.minimumBalance)]);
  if (input.userId && input.disabled) {
    for (const [wallet, off] of Object.entries(input.disabled))
      rows.push([input.userId, `disabled.${wallet}`, off ? '1' : '0']);
  }
  if (!rows.length) return;
  await env.DB.batch(
    rows.map(([userId, key, value]) =>
      env.DB.prepare(
        `INSERT INTO wallet_settings (user_id, key, value, updated_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ).bind(userId, key, value, Date.now()),
    ),
  );
}
