import { Plug } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'Facebook connect, disconnect and conversion test',
  'TikTok and MediaGo tokens',
  'Taboola client id and secret',
] as const;

/** Integrations: placeholder until a later release builds the screen. */
export function IntegrationsScreen() {
  useDocumentTitle('Integrations');
  return (
    <ComingSoon
      title="Integrations"
      icon={Plug}
      description="Connections to the ad platforms that import your costs and conversions."
      features={FEATURES}
    />
  );
}
