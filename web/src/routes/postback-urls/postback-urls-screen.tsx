import { Webhook } from 'lucide-react';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = ['A list of postback URLs with one-click copy', 'Setup videos per network'] as const;

/** Postback URLs: placeholder until a later release builds the screen. */
export function PostbackUrlsScreen() {
  useDocumentTitle('Postback URLs');
  return (
    <ComingSoon
      title="Postback URLs"
      icon={Webhook}
      description="The postback URLs to give your affiliate networks, ready to copy."
      features={FEATURES}
    />
  );
}
