import { ChartColumn } from 'lucide-react';
import { useParams } from 'react-router';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'A period selector, monthly totals and daily figures',
  'Charts of ad spend, clicks, sales, revenue, net profit, conversion rate, ROI, EPC, CPA and CPC',
] as const;

/** Rotator offer report: placeholder until a later release builds the screen. */
export function RotatorReportScreen() {
  useDocumentTitle('Rotator offer report');
  const params = useParams();
  return (
    <ComingSoon
      title="Rotator offer report"
      icon={ChartColumn}
      description="A public report of a rotator offer's results by month and by day."
      features={FEATURES}
      context={params.offer ? `Offer ${params.offer}` : undefined}
    />
  );
}
