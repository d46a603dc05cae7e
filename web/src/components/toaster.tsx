import 'sonner/dist/styles.css';
import { TriangleAlert } from 'lucide-react';
import { type ExternalToast, Toaster, toast } from 'sonner';

/** Spec 4 §9: errors in the warning theme, so both show the warning's sign (and colours, CSS). */
const WARNING_SIGN = <TriangleAlert size={18} aria-hidden="true" />;

/**
 * Toasts (spec 4 §9: 6 s, action label OK, errors in the warning theme; decision 176) at the bottom centre, never over the header's balances or a Save
 * button (docs/decisions/140): the top right holds the balances and the page's primary action,
 * Save buttons sit on the right of their bars, and on phones the save bar sticks to the bottom
 * of the screen, so there the toasts stand above it, and above where it rests at the end of the
 * page (over the footer and the page's padding, about 130 px up).
 */
export function AppToaster() {
  return (
    <Toaster
      position="bottom-center"
      offset={{ bottom: 24 }}
      mobileOffset={{ bottom: 144, left: 12, right: 12 }}
      duration={6000}
      closeButton
      richColors
      icons={{ error: WARNING_SIGN, warning: WARNING_SIGN }}
      toastOptions={{ className: 'toast' }}
    />
  );
}

type Options = Pick<ExternalToast, 'id' | 'description' | 'action' | 'duration' | 'classNames'>;
type Kind = 'success' | 'error' | 'warning' | 'info';

/** What a new toast makes stale: a success ends the failures before it, a failure the successes. */
const STALE: Partial<Record<Kind, readonly string[]>> = {
  success: ['error', 'warning'],
  error: ['success'],
};

/** Spec 4 §9: a toast's action is labelled OK (it closes the toast) unless the caller gives one. */
const OK = { label: 'OK', onClick: () => {} };

/** Errors and warnings look alike (spec 4 §9), so the same words in either are one toast. */
const family = (kind: Kind) => (kind === 'error' || kind === 'warning' ? 'problem' : kind);

function show(kind: Kind, message: string | null | undefined, options?: Options) {
  // Spec 4 §5: toast content is ignored when empty.
  const text = message?.trim();
  if (!text) return;
  // The same message of the same kind is one toast whose timer restarts, not a pile (issue 17).
  // A toast with an action (Undo) keeps its own id: each one undoes a different change.
  const id = options?.id ?? (options?.action ? undefined : `${family(kind)}:${text}`);
  const stale = STALE[kind] ?? [];
  for (const t of toast.getToasts()) {
    if ('type' in t && stale.includes(String(t.type)) && t.id !== id) toast.dismiss(t.id);
  }
  toast[kind](text, { action: OK, ...options, id });
}

/**
 * The app's toasts: repeated messages (several 401s at once) stay one toast, and a success
 * replaces the errors still shown (and an error the successes), so an old failure never stays
 * under the success that followed it.
 */
export const notify = {
  success: (message: string | null | undefined, options?: Options) => show('success', message, options),
  error: (message: string | null | undefined, options?: Options) => show('error', message, options),
  warning: (message: string | null | undefined, options?: Options) => show('warning', message, options),
  info: (message: string | null | undefined, options?: Options) => show('info', message, options),
};
