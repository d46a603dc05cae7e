import { useEffect } from 'react';
import { MONEY_MESSAGES as M } from '../../../../schema/money-api';
import { useCurrentUser } from '../../api/hooks';
import { selectBalanceUser, useBalance, useBalanceUsers, useSelectedBalanceUser } from '../../api/money';
import { UpdateBalanceForm } from '../../components/balance/update-balance-form';
import { WalletGrid } from '../../components/balance/wallet-grid';
import { Card } from '../../components/card';
import { usePaging } from '../../components/data-table/page-length';
import { SelectField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { notify } from '../../components/toaster';
import { getStoredUser } from '../../lib/auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { BalanceLogTable } from './balance-log';
import { RotatorFunding } from './rotator-funding';
import { WalletSettingsCard } from './wallet-settings-card';

/**
 * Funding (spec 4 "Funding screen"): the six balances, the update form of admins and coaches
 * (for the student they pick), rotator funding for users with rotator_is_enabled, and the log.
 */
export function FundingScreen() {
  useDocumentTitle('Funding');
  const stored = getStoredUser();
  const elevated = stored?.roleType === 'admin' || stored?.roleType === 'coach';
  const picked = useSelectedBalanceUser();
  const userId = elevated ? picked : null;
  const { page, perPage, setPage } = usePaging();
  const balance = useBalance(userId, page, perPage);
  const students = useBalanceUsers(elevated);
  const me = useCurrentUser();
  const data = balance.data;

  useEffect(() => {
    if (balance.error) notify.error(M.fetchFailed, { id: 'balance-fetch' });
  }, [balance.error]);

  const owner = data ? data.user.name || data.user.username : '';
  const ownWallets = !userId || userId === stored?.userId;

  return (
    <div className="page funding-page">
      <PageHeader
        title="Funding"
        description={
          elevated
            ? 'Balances of the ad wallets, adjustments and their log.'
            : 'Your ad-wallet balances and their log.'
        }
        actions={
          elevated ? (
            <SelectField
              id="balance-user"
              label="Student"
              fieldClassName="funding-user-picker"
              value={userId ? String(userId) : ''}
              onValueChange={(v) => {
                selectBalanceUser(v ? Number(v) : null);
                setPage(1);
              }}
              options={[
                { value: '', label: 'My own wallets' },
                ...(students.data?.result ?? []).map((s) => ({
                  value: String(s.id),
                  label: s.name ? `${s.name} (${s.username})` : s.username,
                })),
              ]}
            />
          ) : null
        }
      />

      <Card
        title={ownWallets ? 'Your balances' : `Balances of ${owner}`}
        description="Sum of every entry of each wallet."
      >
        <WalletGrid balance={data?.balance} disabled={data?.disabled} loading={!data} />
      </Card>

      {elevated && data && ownWallets && (
        <Card title="Update balance">
          <p className="muted" data-testid="own-wallets-note">
            {M.ownWalletsNote}
          </p>
        </Card>
      )}

      {elevated && data && !ownWallets && (
        <Card
          title="Update balance"
          description="Amounts may be negative or have cents; a blank amount leaves the wallet as it is."
        >
          <UpdateBalanceForm
            key={data.user.id}
            userId={userId}
            ownerName={owner}
            disabled={data.disabled}
            idPrefix="funding-update"
            onDone={() => setPage(1)}
          />
        </Card>
      )}

      {me.data?.user.rotator_is_enabled && ownWallets && <RotatorFunding balance={data?.balance} />}

      {stored?.roleType === 'admin' && data && (
        <WalletSettingsCard
          key={`${data.user.id}-${students.data ? 'ready' : 'loading'}`}
          data={data}
          student={(!ownWallets && students.data?.result.find((s) => s.id === data.user.id)) || null}
        />
      )}

      <Card title="Balance log" description="Every change, newest first." flush>
        <BalanceLogTable
          data={data}
          loading={balance.isLoading}
          page={page}
          perPage={perPage}
          onPageChange={setPage}
          onPerPageChange={() => setPage(1)}
        />
      </Card>
    </div>
  );
}
