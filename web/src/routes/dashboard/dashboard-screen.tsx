import { LayoutDashboard } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'A campaign select, start and end dates and quick ranges from today to this year',
  'Totals: ad spend, revenue, conversions, CPA, clicks, net, visitors, landing-page CTR and ad CTR',
  'A daily graph of ad spend, ad CTR, revenue, ROI, net profit, CPC, CPLPC, CPA or EPC',
] as const;

/** Dashboard: placeholder until a later release builds the screen. */
export function DashboardScreen() {
  useDocumentTitle('Dashboard');
  return (
    <ComingSoon
      title="Dashboard"
      icon={LayoutDashboard}
      description="Ad spend, revenue, profit and ROI of a campaign over a date range, with a daily graph."
      features={FEATURES}
    />
  );
}
