// Release notes (spec 4 §2): one accordion section per release, from the versioned file
// docs/release-notes.json, so the notes ship with the code they describe. Each header is a
// button (aria-expanded, aria-controls): Enter and Space toggle it, Tab moves between them.
import { ChevronDown, Newspaper } from 'lucide-react';
import { useId, useState } from 'react';
import notes from '../../../../docs/release-notes.json';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { useDocumentTitle } from '../../lib/use-document-title';
import '../../styles/integrations.css';

type Release = { version: string; date: string; title: string; changes: string[] };

const RELEASES: Release[] = notes.releases;

function Section({ release, open, onToggle }: { release: Release; open: boolean; onToggle: () => void }) {
  const id = useId();
  return (
    <div className={open ? 'accordion-item is-open' : 'accordion-item'}>
      <h2 className="accordion-heading">
        <button
          type="button"
          className="accordion-trigger"
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          id={`${id}-trigger`}
          onClick={onToggle}
        >
          <span className="accordion-version">{release.version}</span>
          <span className="accordion-title">{release.title}</span>
          {release.date ? (
            <time className="accordion-date" dateTime={release.date}>
              {release.date}
            </time>
          ) : (
            <span className="accordion-date">Not released yet</span>
          )}
          <ChevronDown size={18} aria-hidden className="accordion-chevron" />
        </button>
      </h2>
      <section
        id={`${id}-panel`}
        aria-labelledby={`${id}-trigger`}
        className="accordion-panel"
        hidden={!open}
      >
        <ul>
          {release.changes.map((change) => (
            <li key={change}>{change}</li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export function ReleaseNotesScreen() {
  useDocumentTitle('Release notes');
  // The newest release starts open; the others wait for a click.
  const [open, setOpen] = useState<Set<string>>(() => new Set(RELEASES[0] ? [RELEASES[0].version] : []));
  const toggle = (version: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(version)) next.delete(version);
      else next.add(version);
      return next;
    });

  return (
    <div className="page release-notes-page">
      <PageHeader title="Release notes" description="What changed in each release of Edge Tracker." />
      {RELEASES.length === 0 ? (
        <EmptyState icon={Newspaper} title="No release notes yet">
          Notes appear here with the next release.
        </EmptyState>
      ) : (
        <div className="accordion card">
          {RELEASES.map((release) => (
            <Section
              key={release.version}
              release={release}
              open={open.has(release.version)}
              onToggle={() => toggle(release.version)}
            />
          ))}
        </div>
      )}
    </div>
  );
}
