import { Gauge } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'Ad spend, revenue, ROI and net profit per student',
  'Detailed and general modes with quick date ranges',
  'A graph per student and campaign',
] as const;

/** Master dashboard: placeholder until a later release builds the screen. */
export function MasterDashboardScreen() {
  useDocumentTitle('Master dashboard');
  return (
    <ComingSoon
      title="Master dashboard"
      icon={Gauge}
      description="An operator's view over many student installations."
      features={FEATURES}
    />
  );
}
