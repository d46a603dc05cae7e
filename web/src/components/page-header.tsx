import type { ReactNode } from 'react';

type Props = { title: ReactNode; description?: ReactNode; actions?: ReactNode; eyebrow?: ReactNode };

export function PageHeader({ title, description, actions, eyebrow }: Props) {
  return (
    <div className="page-header">
      <div>
        {eyebrow && <p className="page-eyebrow">{eyebrow}</p>}
        <h1 className="page-title">{title}</h1>
        {description && <p className="page-description">{description}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </div>
  );
}
