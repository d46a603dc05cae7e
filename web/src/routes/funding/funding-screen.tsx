import { Wallet } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'Balances of the LiveIntent, Blaze, Blaze dedicated, CPC, DSP and MediaGo wallets',
  'A balance log, and balance adjustments for admins and coaches',
  'Funding of rotator offers',
] as const;

/** Funding: placeholder until a later release builds the screen. */
export function FundingScreen() {
  useDocumentTitle('Funding');
  return (
    <ComingSoon
      title="Funding"
      icon={Wallet}
      description="Ad-wallet balances, balance updates and rotator funding."
      features={FEATURES}
    />
  );
}
