import { type FormEvent, useState } from 'react';
import { mutate } from 'swr';
import type {
  BalanceAnswer,
  BalanceUser,
  SaveBalanceSettingsAnswer,
  WalletFlags,
} from '../../../../schema/money-api';
import { ApiError, api } from '../../api/client';
import { reloadBalances } from '../../api/money';
import { WALLET_LABELS, WALLETS } from '../../components/balance/wallets';
import { Card } from '../../components/card';
import { useBusyAction } from '../../components/confirmed-action';
import { TextField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import { notify } from '../../components/toaster';

type Props = { data: BalanceAnswer; student: BalanceUser | null };

function Check({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="wallet-check" htmlFor={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/**
 * The admin's wallet settings (docs/decisions/050): the header dashboard and the minimum
 * balance of the installation, and for the picked student its rotator funding and disabled wallets.
 */
export function WalletSettingsCard({ data, student }: Props) {
  const [header, setHeader] = useState(data.headerBalance);
  const [minimum, setMinimum] = useState(data.minimumBalance.toFixed(2));
  const [rotator, setRotator] = useState(student?.rotator_is_enabled ?? false);
  const [disabled, setDisabled] = useState<WalletFlags>(data.disabled);
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useBusyAction<'save'>();

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setError(null);
    await run(
      'save',
      async () => {
        const answer = await api.put<SaveBalanceSettingsAnswer>('balance-settings', {
          headerBalance: header,
          minimumBalance: minimum,
          ...(student ? { userId: student.id, rotatorEnabled: rotator, disabled } : {}),
        });
        notify.success(answer.message);
        await Promise.all([reloadBalances(), mutate('balance-users')]);
      },
      (err) => {
        const message = err instanceof ApiError ? err.firstMessage : String(err);
        if (err instanceof ApiError && err.fieldErrors.minimumBalance)
          setError(err.fieldErrors.minimumBalance);
        notify.error(message);
      },
    );
  };

  return (
    <Card title="Wallet settings" description="Installation-wide, and for the student picked above.">
      <form className="wallet-settings" onSubmit={save} noValidate data-testid="wallet-settings">
        <fieldset className="wallet-settings-group">
          <legend>Installation</legend>
          <Check id="ws-header" label="Show balances in the header" checked={header} onChange={setHeader} />
          <TextField
            id="ws-minimum"
            label="Minimum balance (USD)"
            hint="Below it, the statistics of a campaign paid from that wallet show the insufficient-balance notice."
            inputMode="decimal"
            value={minimum}
            error={error}
            onValueChange={setMinimum}
          />
        </fieldset>
        {student && (
          <fieldset className="wallet-settings-group">
            <legend>{student.name || student.username}</legend>
            <Check id="ws-rotator" label="Rotator funding enabled" checked={rotator} onChange={setRotator} />
            <fieldset className="wallet-check-list">
              <legend className="sr-only">Disabled wallets</legend>
              {WALLETS.map((w) => (
                <Check
                  key={w}
                  id={`ws-disabled-${w}`}
                  label={`${WALLET_LABELS[w]} disabled`}
                  checked={disabled[w]}
                  onChange={(v) => setDisabled((d) => ({ ...d, [w]: v }))}
                />
              ))}
            </fieldset>
          </fieldset>
        )}
        <FormSubmitRow busy={busy !== null}>Save settings</FormSubmitRow>
      </form>
    </Card>
  );
}
