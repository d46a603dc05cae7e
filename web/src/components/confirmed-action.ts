import { useState } from 'react';
import { type ConfirmOptions, useConfirm } from './confirm-dialog';

/**
 * An action that asks first (HOUSE-STYLE 24): once confirmed it runs with `busy` naming it, and
 * a failure goes to `onError`. Declined, nothing happens.
 */
export function useConfirmedAction<K extends string = 'run'>() {
  const confirm = useConfirm();
  const [busy, setBusy] = useState<K | null>(null);
  const run = async (
    key: K,
    ask: ConfirmOptions,
    action: () => Promise<unknown>,
    onError: (err: unknown) => void,
  ) => {
    if (!(await confirm(ask))) return;
    setBusy(key);
    try {
      await action();
    } catch (err) {
      onError(err);
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}
