import { Settings } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'Base URL, time zone and email of the installation',
  'Tracking routes and redirect modes',
  'Logo, favicon and the license',
] as const;

/** Settings: placeholder until a later release builds the screen. */
export function SettingsScreen() {
  useDocumentTitle('Settings');
  return (
    <ComingSoon
      title="Settings"
      icon={Settings}
      description="Installation settings: domain, time zone, tracking routes, branding and the license."
      features={FEATURES}
    />
  );
}
