import 'sonner/dist/styles.css';
import { Toaster, toast } from 'sonner';

/** Toasts top right over the header chrome, never over page data or actions (spec 4 §9: 6 s). */
export function AppToaster() {
  return (
    <Toaster
      position="top-right"
      offset={{ top: 12, right: 16 }}
      duration={6000}
      closeButton
      richColors
      toastOptions={{ className: 'toast' }}
    />
  );
}

type Options = { id?: string; description?: string; duration?: number };

function show(
  kind: 'success' | 'error' | 'warning' | 'info',
  message: string | null | undefined,
  options?: Options,
) {
  // Spec 4 §5: toast content is ignored when empty.
  if (!message?.trim()) return;
  toast[kind](message, options);
}

/** The app's toasts; a fixed id keeps repeated messages (several 401s at once) to one toast. */
export const notify = {
  success: (message: string | null | undefined, options?: Options) => show('success', message, options),
  error: (message: string | null | undefined, options?: Options) => show('error', message, options),
  warning: (message: string | null | undefined, options?: Options) => show('warning', message, options),
  info: (message: string | null | undefined, options?: Options) => show('info', message, options),
};
