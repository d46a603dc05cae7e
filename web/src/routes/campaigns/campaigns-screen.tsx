import { Megaphone } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'Search by name, sort, and folders you can drag campaigns into',
  'Clone, export, reset statistics, delete and undo delete',
  'CSV upload and ZIP import of campaigns',
] as const;

/** Campaigns: placeholder until a later release builds the screen. */
export function CampaignsScreen() {
  useDocumentTitle('Campaigns');
  return (
    <ComingSoon
      title="Campaigns"
      icon={Megaphone}
      description="Every campaign and folder of this installation, with search, sort and bulk actions."
      features={FEATURES}
    />
  );
}
