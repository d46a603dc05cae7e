import { Megaphone } from 'lucide-react';
import { useParams } from 'react-router';
import { ComingSoon } from '../../components/coming-soon';
import { useDocumentTitle } from '../../lib/use-document-title';

const FEATURES = [
  'Conversion trackers, line items and campaigns in tabs',
  'Create and edit forms for campaigns, line items and conversion trackers',
  'Ads with image upload, activation and deletion',
] as const;

/** The forms reached from the manage screen (spec 4 §2 route table). */
export type LiveintentView =
  | 'manage'
  | 'create-campaign'
  | 'edit-campaign'
  | 'create-lineitem'
  | 'edit-lineitem'
  | 'create-conversion-tracker'
  | 'edit-conversion-tracker'
  | 'create-ad'
  | 'edit-ad';

const VIEW_LABELS: Record<LiveintentView, string> = {
  manage: 'Overview',
  'create-campaign': 'New campaign',
  'edit-campaign': 'Edit campaign',
  'create-lineitem': 'New line item',
  'edit-lineitem': 'Edit line item',
  'create-conversion-tracker': 'New conversion tracker',
  'edit-conversion-tracker': 'Edit conversion tracker',
  'create-ad': 'New ad',
  'edit-ad': 'Edit ad',
};

/** Manage LiveIntent and its forms: placeholder until a later release builds them. */
export function ManageLiveintentScreen({ view }: { view: LiveintentView }) {
  useDocumentTitle('Manage LiveIntent');
  const { id, refId, segmentId } = useParams();
  const ref = refId ?? segmentId;
  const context = [`Campaign #${id}`, VIEW_LABELS[view], ref ? `#${ref}` : null].filter(Boolean).join(' · ');
  return (
    <ComingSoon
      title="Manage LiveIntent"
      icon={Megaphone}
      description="Campaigns, line items, conversion trackers and ads of this campaign on the LiveIntent platform."
      features={FEATURES}
      context={context}
    />
  );
}
