import { useState } from 'react';

/**
 * Runs `reset` while rendering the render in which a dialog opens (or opens for another
 * `key`), so its fields hold their starting values in the very first frame it shows.
 * Resetting in an effect leaves one frame with the old values: a keystroke or a paste in that
 * frame lands after them. `reset` may only set state of the calling component.
 */
export function useOnOpen(open: boolean, key: unknown, reset: () => void): void {
  const [seen, setSeen] = useState<{ open: boolean; key: unknown }>({ open: false, key: undefined });
  if (seen.open !== open || (open && !Object.is(seen.key, key))) {
    setSeen({ open, key });
    if (open) reset();
  }
}
