import type { ReactNode } from 'react';

// One row of a settings pane's list of actions (Data, Postback secret): its title and text on the
// left, its control on the right (or below, `stack`), titled for screen readers by its heading.

export function DataRow({
  id,
  title,
  tone,
  testId,
  description,
  details,
  children,
}: {
  /** The heading's id is `${id}-title`. */
  id: string;
  title: ReactNode;
  tone?: 'stack' | 'danger';
  testId?: string;
  /** One paragraph of text under the title. */
  description?: ReactNode;
  /** Text under the title written out by the pane (several or changing paragraphs). */
  details?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section
      className={tone ? `data-row data-row-${tone}` : 'data-row'}
      aria-labelledby={`${id}-title`}
      data-testid={testId}
    >
      <div className="data-row-text">
        <h3 id={`${id}-title`} className="data-row-title">
          {title}
        </h3>
        {description && <p className="data-row-description">{description}</p>}
        {details}
      </div>
      {children}
    </section>
  );
}
