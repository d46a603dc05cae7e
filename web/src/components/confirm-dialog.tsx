import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { Button } from './button';
import { Modal } from './modal';

export type ConfirmOptions = {
  title?: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
};

type Pending = ConfirmOptions & { resolve: (ok: boolean) => void };

const ConfirmContext = createContext<((options: ConfirmOptions) => Promise<boolean>) | null>(null);

/** One confirm dialog for the app; `useConfirm()` answers a promise of the user's choice. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        pendingRef.current?.resolve(false);
        const next = { ...options, resolve };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );

  const close = (ok: boolean) => {
    pendingRef.current?.resolve(ok);
    pendingRef.current = null;
    setPending(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Modal
        open={pending !== null}
        title={pending?.title ?? 'Please confirm'}
        onClose={() => close(false)}
        size="sm"
        alert
        footer={
          <>
            <Button variant="secondary" onClick={() => close(false)}>
              {pending?.cancelLabel ?? 'No'}
            </Button>
            <Button
              variant={pending?.danger ? 'danger' : 'primary'}
              onClick={() => close(true)}
              data-autofocus
            >
              {pending?.confirmLabel ?? 'Yes'}
            </Button>
          </>
        }
      >
        <p className="confirm-message">{pending?.message}</p>
      </Modal>
    </ConfirmContext.Provider>
  );
}

export function useConfirm() {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs <ConfirmProvider>');
  return confirm;
}
