import { ApiError } from '../api/client';
import { notify } from './toaster';

/**
 * A form's failed save: a 422 puts its messages at their fields; a 401 says nothing (the app signs
 * the user out); anything else toasts what went wrong.
 */
export function showSaveFailure(err: unknown, setErrors: (errors: Record<string, string>) => void) {
  if (err instanceof ApiError && err.status === 422) setErrors(err.fieldErrors);
  else if (!(err instanceof ApiError && err.status === 401))
    notify.error(err instanceof Error ? err.message : String(err));
}
