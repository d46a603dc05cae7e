import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

type Props = { icon: LucideIcon; title: ReactNode; children?: ReactNode; action?: ReactNode };

/** What is missing and what to do next. */
export function EmptyState({ icon: Icon, title, children, action }: Props) {
  return (
    <div className="empty-state">
      <div className="empty-state-icon">
        <Icon size={20} aria-hidden />
      </div>
      <h3 className="empty-state-title">{title}</h3>
      {children && <p className="empty-state-text">{children}</p>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}
