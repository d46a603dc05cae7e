import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * The row under a form's fields with its one submit button: `form-actions` holding a submit
 * button (primary unless told), its 16-pixel icon, and a spinner while the form is busy.
 */
export function FormSubmitRow({
  icon: Icon,
  busy,
  variant = 'primary',
  size,
  testId,
  children,
}: {
  icon?: LucideIcon;
  busy?: boolean;
  variant?: 'primary' | 'secondary';
  size?: 'md' | 'lg';
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="form-actions">
      <Button
        type="submit"
        variant={variant}
        size={size}
        busy={busy}
        icon={Icon ? <Icon size={16} aria-hidden /> : undefined}
        data-testid={testId}
      >
        {children}
      </Button>
    </div>
  );
}
