import 'sonner/dist/styles.css';
import { type ExternalToast, Toaster, toast } from 'sonner';

/**
 * Toasts (spec 4 §9: 6 s) at the bottom centre, never over the header's balances or a Save
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

function show(kind: Kind, message: string | null | undefined, options?: Options) {
  // Spec 4 §5: toast content is ignored when empty.
  const text = message?.trim();
  if (!text) return;
  // The same message of the same kind is one toast whose timer restarts, not a pile (issue 17).
  // A toast with an action (Undo) keeps its own id: each one undoes a different change.
  const id = options?.id ?? (options?.action ? undefined : `${kind}:${text}`);
  const stale = STALE[kind] ?? [];
  for (const t of toast.getToasts()) {
    if ('type' in t && stale.includes(String(t.type)) && t.id !== id) toast.dismiss(t.id);
  }
  toast[kind](text, { ...options, id });
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
