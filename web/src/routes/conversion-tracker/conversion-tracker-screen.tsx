import { Crosshair } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'Reads the account, conversion name and event type you chose',
  'Fires the conversion pixel and closes after a 10-second countdown',
] as const;

/** Conversion tracker: placeholder until a later release builds the screen. */
export function ConversionTrackerScreen() {
  useDocumentTitle('Conversion tracker');
  return (
    <ComingSoon
      title="Conversion tracker"
      icon={Crosshair}
      description="Fires a conversion pixel for the selected audience-provider conversion, then closes itself."
      features={FEATURES}
    />
  );
}
