import type { BalanceValues, WalletFlags } from '../../../../schema/money-api';
import { WALLET_LABELS, WALLETS } from './wallets';

type Props = { balance?: BalanceValues; disabled?: WalletFlags; loading?: boolean; testId?: string };

/** The six formatted balances (spec 4 "Funding screen"); a negative balance reads in red. */
export function WalletGrid({ balance, disabled, loading, testId = 'wallet-grid' }: Props) {
  return (
    <ul className="wallet-grid" data-testid={testId} aria-busy={loading || undefined}>
      {WALLETS.map((w) => (
        <li key={w} className={disabled?.[w] ? 'wallet-tile is-disabled' : 'wallet-tile'} data-wallet={w}>
          <span className="wallet-tile-label">
            {WALLET_LABELS[w]}
            {disabled?.[w] && <span className="badge badge-neutral">Disabled</span>}
          </span>
          {balance ? (
            <span className={balance[w] < 0 ? 'wallet-tile-value is-negative' : 'wallet-tile-value'}>
              {balance[`${w}Formatted`]}
            </span>
          ) : (
            <span className="skeleton wallet-tile-skeleton" aria-hidden />
          )}
        </li>
      ))}
    </ul>
  );
}
