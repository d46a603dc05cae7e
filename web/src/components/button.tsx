import { type LucideIcon, Trash2 } from 'lucide-react';
import type { ButtonHTMLAttributes, MouseEvent, ReactNode } from 'react';
import { Spinner } from './spinner';

type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: 'sm' | 'md' | 'lg';
  /** Busy: a spinner, aria-busy, and clicks ignored; focus stays on the button. */
  busy?: boolean;
  icon?: ReactNode;
  block?: boolean;
};

export function Button({
  variant = 'secondary',
  size = 'md',
  busy = false,
  icon,
  block = false,
  className,
  children,
  onClick,
  type = 'button',
  ...rest
}: Props) {
  const classes = ['btn', `btn-${variant}`, `btn-${size}`, block && 'btn-block', busy && 'is-busy', className]
    .filter(Boolean)
    .join(' ');
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      type={type}
      className={classes}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      onClick={handleClick}
      {...rest}
    >
      {busy ? <Spinner size={size === 'sm' ? 14 : 16} /> : icon}
      {children && <span>{children}</span>}
    </button>
  );
}

/** A small Delete button of a toolbar or a row: ghost, in the danger colour, with the bin. */
export function DeleteButton(props: Omit<Props, 'size' | 'variant' | 'icon' | 'className'>) {
  return (
    <Button
      size="sm"
      variant="ghost"
      className="btn-danger-ghost"
      icon={<Trash2 size={14} aria-hidden />}
      {...props}
    />
  );
}

type IconButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'type'> & {
  icon: LucideIcon;
  /** What the button does, read out (aria-label); a `title` shows it on hover. */
  label: string;
  iconSize?: number;
};

/** A button that shows only its icon (.icon-btn). */
export function IconButton({ icon: Icon, label, iconSize = 16, className, ...rest }: IconButtonProps) {
  return (
    <button
      type="button"
      className={['icon-btn', className].filter(Boolean).join(' ')}
      aria-label={label}
      {...rest}
    >
      <Icon size={iconSize} aria-hidden />
    </button>
  );
}
