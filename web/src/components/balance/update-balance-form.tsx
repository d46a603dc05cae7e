import { CircleCheck } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { MONEY_MESSAGES as M, parseAmount, type WalletFlags } from '../../../../schema/money-api';
import { ApiError } from '../../api/client';
import { reloadBalances, updateBalance } from '../../api/money';
import { getStoredUser } from '../../lib/auth';
import { Alert } from '../alert';
import { Button } from '../button';
import { notify } from '../toaster';
import { WALLET_LABELS, WALLETS, type Wallet } from './wallets';

/** spec 2 §4: idle, confirm, processing, done. */
export type UpdatePhase = 'idle' | 'confirm' | 'processing' | 'done';

type Props = {
  userId: number | null;
  /** Name of the wallets' owner, shown in the confirmation. */
  ownerName: string;
  disabled?: WalletFlags;
  /** Prefix of control ids: the screen and the header dialog may both be on the page. */
  idPrefix: string;
  onDone?: () => void;
};

const emptyValues = () =>
  Object.fromEntries(
    WALLETS.flatMap((w) => [
      [w, ''],
      [`${w}Note`, ''],
    ]),
  ) as Record<string, string>;

/**
 * The balance update of admins and coaches (spec 4 "Balance update"): amounts may be negative
 * or decimal, blank is 0; submitting asks 'Proceed with transaction?' in place, then books the
 * update once (one idempotency key per confirmed submit, a second submit is ignored meanwhile).
 */
export function UpdateBalanceForm({ userId, ownerName, disabled, idPrefix, onDone }: Props) {
  const [values, setValues] = useState(emptyValues);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [phase, setPhase] = useState<UpdatePhase>('idle');
  const inFlight = useRef(false);
  const stored = getStoredUser();

  const changes = WALLETS.flatMap((w) => {
    const parsed = parseAmount(values[w]);
    return 'micros' in parsed && parsed.micros !== 0 ? [{ wallet: w, micros: parsed.micros }] : [];
  });

  const set = (field: string, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
    if (phase === 'done') setPhase('idle');
  };

  const check = (e: FormEvent) => {
    e.preventDefault();
    if (phase === 'processing') return;
    const found: Record<string, string> = {};
    for (const w of WALLETS) {
      const parsed = parseAmount(values[w]);
      if ('error' in parsed) found[w] = parsed.error;
      if (values[`${w}Note`].length > 500) found[`${w}Note`] = M.noteTooLong;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    if (!changes.length) {
      setFormError(M.nothingToUpdate);
      return;
    }
    setFormError(null);
    setPhase('confirm');
  };

  const submit = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPhase('processing');
    const role = stored?.roleType === 'admin' || stored?.roleType === 'coach' ? stored.roleType : undefined;
    try {
      const answer = await updateBalance({
        ...values,
        ...(userId ? { userId } : {}),
        ...(role ? { role } : {}),
        addedByName: stored?.username ?? '',
        idempotencyKey: crypto.randomUUID(),
      });
      notify.success(answer.message);
      setValues(emptyValues());
      setPhase('done');
      await reloadBalances();
      onDone?.();
    } catch (err) {
      setPhase('idle');
      if (err instanceof ApiError && err.status === 422) setErrors(err.fieldErrors);
      notify.error(
        err instanceof ApiError ? (err.status === 400 ? err.body.message : err.firstMessage) : String(err),
      );
    } finally {
      inFlight.current = false;
    }
  };

  const id = (field: string) => `${idPrefix}-${field}`;
  const locked = phase === 'confirm' || phase === 'processing';

  return (
    <form className="balance-form" onSubmit={check} noValidate data-testid={`${idPrefix}-form`}>
      <fieldset className="balance-form-grid">
        <legend className="sr-only">Amounts and notes for {ownerName}</legend>
        <span className="balance-form-head caps-label" aria-hidden>
          Wallet
        </span>
        <span className="balance-form-head caps-label" aria-hidden>
          Amount (USD)
        </span>
        <span className="balance-form-head caps-label" aria-hidden>
          Note
        </span>
        {WALLETS.map((w: Wallet) => {
          const off = disabled?.[w] ?? false;
          return (
            <div className="balance-form-row" key={w}>
              <label className="balance-form-wallet" htmlFor={id(w)}>
                {WALLET_LABELS[w]}
                {off && <span className="badge">Disabled</span>}
              </label>
              <div className="balance-form-cell">
                <input
                  id={id(w)}
                  name={w}
                  className="input input-money"
                  inputMode="decimal"
                  placeholder="0.00"
                  value={values[w]}
                  disabled={off || locked}
                  onChange={(e) => set(w, e.target.value)}
                  aria-invalid={errors[w] ? true : undefined}
                  aria-describedby={errors[w] ? id(`${w}-error`) : undefined}
                />
                {errors[w] && (
                  <p className="field-error" id={id(`${w}-error`)}>
                    {errors[w]}
                  </p>
                )}
              </div>
              <div className="balance-form-cell">
                <label className="sr-only" htmlFor={id(`${w}Note`)}>
                  {WALLET_LABELS[w]} note
                </label>
                <input
                  id={id(`${w}Note`)}
                  name={`${w}Note`}
                  className="input"
                  placeholder="Note (optional)"
                  value={values[`${w}Note`]}
                  disabled={off || locked}
                  onChange={(e) => set(`${w}Note`, e.target.value)}
                  aria-invalid={errors[`${w}Note`] ? true : undefined}
                />
                {errors[`${w}Note`] && <p className="field-error">{errors[`${w}Note`]}</p>}
              </div>
            </div>
          );
        })}
      </fieldset>
      {formError && <Alert>{formError}</Alert>}
      {phase === 'done' && (
        <p className="balance-form-done" role="status">
          <CircleCheck size={16} aria-hidden /> {M.updated}
        </p>
      )}
      {locked ? (
        <div className="balance-confirm" role="alertdialog" aria-labelledby={id('confirm-title')}>
          <p className="balance-confirm-title" id={id('confirm-title')}>
            {M.confirm}
          </p>
          <ul className="balance-confirm-list">
            {changes.map((c) => (
              <li key={c.wallet}>
                <span>{WALLET_LABELS[c.wallet]}</span>
                <strong className={c.micros < 0 ? 'is-negative' : 'is-positive'}>
                  {c.micros > 0 ? '+' : ''}
                  {new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
                    c.micros / 1e6,
                  )}
                </strong>
              </li>
            ))}
          </ul>
          <p className="balance-confirm-owner">Wallets of {ownerName}</p>
          <div className="form-actions">
            <Button variant="secondary" disabled={phase === 'processing'} onClick={() => setPhase('idle')}>
              Cancel
            </Button>
            <Button variant="primary" busy={phase === 'processing'} onClick={submit} data-autofocus>
              {phase === 'processing' ? 'Processing…' : 'Yes, proceed'}
            </Button>
          </div>
        </div>
      ) : (
        <div className="form-actions">
          <Button type="submit" variant="primary">
            Update balance
          </Button>
        </div>
      )}
    </form>
  );
}
