import { Wrench } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'CPC email and news-feed campaign builder',
  'Asset uploads in batches with progress',
] as const;

/** Tools: placeholder until a later release builds the screen. */
export function ToolsScreen() {
  useDocumentTitle('Tools');
  return (
    <ComingSoon
      title="Tools"
      icon={Wrench}
      description="Utilities around your campaigns, such as the cost-per-click campaign builder."
      features={FEATURES}
    />
  );
}
