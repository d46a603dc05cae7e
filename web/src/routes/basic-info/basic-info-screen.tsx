import { PencilRuler } from 'lucide-react';
import { useParams } from 'react-router';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'Settings and tokens of the campaign',
  'Landing pages and offers with weighted shares, devices and paths',
  'Traffic-source integrations, banners and assets',
] as const;

/** Campaign editor: placeholder until a later release builds the screen. */
export function BasicInfoScreen() {
  useDocumentTitle('Campaign editor');
  const params = useParams();
  return (
    <ComingSoon
      title="Campaign editor"
      icon={PencilRuler}
      description="The campaign's settings, tracking tokens, landing pages, offers, paths and traffic source."
      features={FEATURES}
      context={params.id ? `Campaign #${params.id}` : 'New campaign'}
    />
  );
}
