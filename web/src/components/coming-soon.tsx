import { Clock, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageHeader } from './page-header';

type Props = {
  title: string;
  description: string;
  icon: LucideIcon;
  /** What the finished screen will hold, a few short items. */
  features?: readonly string[];
  /** Context from the URL, e.g. "Campaign #12". */
  context?: ReactNode;
};

/** A screen that a later release fills: its title, what will be there, and an honest note. */
export function ComingSoon({ title, description, icon: Icon, features = [], context }: Props) {
  return (
    <>
      <PageHeader title={title} eyebrow={context} />
      <section className="card coming-soon" aria-labelledby="coming-soon-title">
        <div className="coming-soon-icon">
          <Icon size={22} aria-hidden />
        </div>
        <h2 id="coming-soon-title" className="coming-soon-title">
          {title}
        </h2>
        <p className="coming-soon-text">{description}</p>
        {features.length > 0 && (
          <ul className="coming-soon-list" aria-label="What this screen will offer">
            {features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        )}
        <p className="coming-soon-note">
          <Clock size={14} aria-hidden />
          <span>This screen is coming in a later release.</span>
        </p>
      </section>
    </>
  );
}
