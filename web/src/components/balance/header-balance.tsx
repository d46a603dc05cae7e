import { Wallet as WalletIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { MONEY_MESSAGES as M } from '../../../../schema/money-api';
import { useBalance, useSelectedBalanceUser } from '../../api/money';
import { getStoredUser } from '../../lib/auth';
import { Modal } from '../modal';
import { notify } from '../toaster';
import { UpdateBalanceForm } from './update-balance-form';
import { WalletGrid } from './wallet-grid';
import { WALLET_LABELS, WALLETS } from './wallets';

/**
 * The header's balance dashboard (spec 2 "Header"), shown when the installation enables it:
 * the wallets of the signed-in student, or of the student an admin or coach picked on the
 * funding screen. It opens the update-balance dialog (admins and coaches may adjust there).
 */
export function HeaderBalance() {
  const stored = getStoredUser();
  const elevated = stored?.roleType === 'admin' || stored?.roleType === 'coach';
  const picked = useSelectedBalanceUser();
  const userId = elevated ? picked : null;
  const { data, error } = useBalance(userId);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (error) notify.error(M.fetchFailed, { id: 'balance-fetch' });
  }, [error]);

  if (!stored || !data?.headerBalance) return null;
  const owner = data.user.name || data.user.username;
  return (
    <>
      <button
        type="button"
        className="header-balance"
        onClick={() => setOpen(true)}
        data-testid="header-balance"
        title={`Balances of ${owner}: open the balance dashboard`}
      >
        {/* The name is the visible text (WCAG 2.5.3), led by whose balances these are. */}
        <span className="sr-only">{`${owner}: `}</span>
        <WalletIcon size={16} aria-hidden className="header-balance-icon" />
        <span className="header-balance-compact">Balances</span>
        <span className="header-balance-list">
          {WALLETS.map((w) => (
            <span key={w} className="header-balance-item" data-wallet={w}>
              <span className="header-balance-label">{WALLET_LABELS[w]}</span>
              <span
                className={data.balance[w] < 0 ? 'header-balance-value is-negative' : 'header-balance-value'}
              >
                {data.balance[`${w}Formatted`]}
              </span>
            </span>
          ))}
        </span>
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title={`Balances of ${owner}`} size="lg">
        <div className="stack" data-testid="balance-dialog">
          <WalletGrid balance={data.balance} disabled={data.disabled} testId="dialog-wallets" />
          {elevated && data.user.id === stored.userId ? (
            <p className="muted" data-testid="own-wallets-note">
              {M.ownWalletsNote}
            </p>
          ) : elevated ? (
            <UpdateBalanceForm
              userId={userId}
              ownerName={owner}
              disabled={data.disabled}
              idPrefix="header-balance"
            />
          ) : (
            <p className="muted">
              Your coach adjusts these balances; every change is listed on the Funding page.
            </p>
          )}
        </div>
      </Modal>
    </>
  );
}
