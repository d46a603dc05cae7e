import { ChartColumn } from 'lucide-react';
import { useParams } from 'react-router';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'Reports by date range with totals and sortable columns',
  'Drill-downs by extra tokens, and exports',
  'Landing-page split tests with statistical significance',
] as const;

/** Statistics: placeholder until a later release builds the screen. */
export function StatsScreen() {
  useDocumentTitle('Statistics');
  const params = useParams();
  return (
    <ComingSoon
      title="Statistics"
      icon={ChartColumn}
      description="Visits, clicks, conversions, revenue, spend and ROI per ad target, landing page, offer, path and day."
      features={FEATURES}
      context={params.id ? `Campaign #${params.id}` : undefined}
    />
  );
}
