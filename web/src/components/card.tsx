import type { ReactNode } from 'react';

type Props = {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Body without padding, for tables that run to the card's edges. */
  flush?: boolean;
  id?: string;
};

export function Card({ title, description, actions, children, className, flush, id }: Props) {
  return (
    <section className={['card', className].filter(Boolean).join(' ')} id={id}>
      {(title || actions) && (
        <header className="card-header">
          <div>
            {title && <h2 className="card-title">{title}</h2>}
            {description && <p className="card-description">{description}</p>}
          </div>
          {actions && <div className="card-actions">{actions}</div>}
        </header>
      )}
      <div className={flush ? 'card-body card-body-flush' : 'card-body'}>{children}</div>
    </section>
  );
}
