import { Newspaper } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = ['One section per release, expandable'] as const;

/** Release notes: placeholder until a later release builds the screen. */
export function ReleaseNotesScreen() {
  useDocumentTitle('Release notes');
  return (
    <ComingSoon
      title="Release notes"
      icon={Newspaper}
      description="What changed in each release of Edge Tracker."
      features={FEATURES}
    />
  );
}
