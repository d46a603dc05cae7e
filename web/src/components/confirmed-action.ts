import { useState } from 'react';
import { ApiError } from '../api/client';
import { type ConfirmOptions, useConfirm } from './confirm-dialog';
import { notify } from './toaster';

/** What a failure says: the server's first message, or what went wrong. */
export const failureText = (err: unknown) => (err instanceof ApiError ? err.firstMessage : String(err));

/** The toast of a failed action, with what it says. */
export const toastFailure = (err: unknown) => notify.error(failureText(err));

/** The toast of a failure with its message; none for a 401 (the app signs the user out). */
export function toastUnlessSignedOut(err: unknown) {
  if (!(err instanceof ApiError && err.status === 401))
    notify.error(err instanceof Error ? err.message : String(err));
}

/** A form's failed save: the server's field messages (422) at the fields, any other failure as above. */
export function showSaveFailure(err: unknown, setErrors: (errors: Record<string, string>) => void) {
  if (err instanceof ApiError && err.status === 422) setErrors(err.fieldErrors);
  else toastUnlessSignedOut(err);
}

/**
 * An action that shows where it runs: `busy` names it (a button, a row) until it ends, and a
 * failure goes to `onError` (a toast of its message unless said otherwise). `run` answers what
 * the action answered, or undefined when it failed.
 */
export function useBusyAction<K extends string | number = 'run'>() {
  const [busy, setBusy] = useState<K | null>(null);
  const run = async <T>(
    key: K,
    action: () => Promise<T>,
    onError: (err: unknown) => void = toastFailure,
  ): Promise<T | undefined> => {
    setBusy(key);
    try {
      return await action();
    } catch (err) {
      onError(err);
      return undefined;
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}

/** The same, asked first (HOUSE-STYLE 24): declined, nothing happens. */
export function useConfirmedAction<K extends string | number = 'run'>() {
  const confirm = useConfirm();
  const { busy, run: runBusy } = useBusyAction<K>();
  const run = async (
    key: K,
    ask: ConfirmOptions,
    action: () => Promise<unknown>,
    onError: (err: unknown) => void,
  ) => {
    if (await confirm(ask)) await runBusy(key, action, onError);
  };
  return { busy, run };
}
