import { X } from 'lucide-react';
import { type ButtonHTMLAttributes, type ReactNode, useEffect, useId, useRef } from 'react';
import { Button } from './button';

type Props = {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** role="alertdialog" for confirmations. */
  alert?: boolean;
};

/**
 * A modal on the native <dialog>: focus is trapped and restored by the browser, Esc closes.
 * Sizes follow spec 4 §9 (small, medium, large) with sensible minimum widths.
 */
export function Modal({ open, title, onClose, children, footer, size = 'md', alert = false }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The dialog focuses its first control (the close button); a field marked for it wins.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes through the dialog's own cancel event
    <dialog
      ref={ref}
      className={`modal modal-${size}`}
      aria-labelledby={titleId}
      role={alert ? 'alertdialog' : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {open && (
        <div className="modal-box">
          <header className="modal-header">
            <h2 id={titleId} className="modal-title">
              {title}
            </h2>
            <button type="button" className="icon-btn" onClick={onClose} aria-label="Close">
              <X size={16} aria-hidden />
            </button>
          </header>
          <div className="modal-body">{children}</div>
          {footer && <footer className="modal-footer">{footer}</footer>}
        </div>
      )}
    </dialog>
  );
}

/**
 * The footer of a modal: Cancel, then its action on the right: the submit button of the form it
 * holds (`form`), or a button that acts by its `onClick`.
 */
export function FormModalFooter({
  form,
  busy,
  onCancel,
  icon,
  children = 'Save',
  ...button
}: {
  /** The id of the form the submit button sends. */
  form?: string;
  busy: boolean;
  onCancel: () => void;
  icon?: ReactNode;
  children?: ReactNode;
} & Pick<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'disabled'> & { 'data-testid'?: string }) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button
        type={form ? 'submit' : 'button'}
        form={form}
        variant="primary"
        busy={busy}
        icon={icon}
        {...button}
      >
        {children}
      </Button>
    </>
  );
}
