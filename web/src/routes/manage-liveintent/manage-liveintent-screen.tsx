// Manage LiveIntent (spec 4 §2): the access rules first (a student with their own LiveIntent
// account, a campaign whose traffic source is not liveintent: only the spec's text, no content),
// then the tabs or the form the route names. The server enforces the same rules (403).
import { ArrowLeft, ShieldAlert } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { LIVEINTENT_MESSAGES as M } from '../../../../schema/liveintent-api';
import { Alert } from '../../components/alert';
import { Card } from '../../components/card';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/spinner';
import { useDocumentTitle } from '../../lib/use-document-title';
import '../../styles/liveintent.css';
import { CreateAdsForm, EditAdForm } from './ad-forms';
import { useTrackerCampaign } from './api';
import { CampaignForm } from './campaign-form';
import { LineItemForm } from './lineitem-form';
import { ManageTabs } from './manage-tabs';
import { errorText, managePath } from './shared';
import { TrackerForm } from './tracker-form';

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

const BACK_TAB: Record<LiveintentView, string | undefined> = {
  manage: undefined,
  'create-campaign': 'campaigns',
  'edit-campaign': 'campaigns',
  'create-lineitem': 'lineitems',
  'edit-lineitem': 'lineitems',
  'create-conversion-tracker': undefined,
  'edit-conversion-tracker': undefined,
  'create-ad': 'ads',
  'edit-ad': 'ads',
};

function View({ view, id }: { view: LiveintentView; id: number }) {
  switch (view) {
    case 'manage':
      return <ManageTabs id={id} />;
    case 'create-campaign':
    case 'edit-campaign':
      return <CampaignForm id={id} />;
    case 'create-lineitem':
    case 'edit-lineitem':
      return <LineItemForm id={id} />;
    case 'create-conversion-tracker':
    case 'edit-conversion-tracker':
      return <TrackerForm id={id} />;
    case 'create-ad':
      return <CreateAdsForm id={id} />;
    case 'edit-ad':
      return <EditAdForm id={id} />;
  }
}

export function ManageLiveintentScreen({ view }: { view: LiveintentView }) {
  useDocumentTitle('Manage LiveIntent');
  const id = Number(useParams().id);
  const campaign = useTrackerCampaign(id);
  if (!campaign.data && !campaign.error) return <PageSpinner />;
  const denied = campaign.data?.hasLiveIntentAccount
    ? M.hasOwnAccount
    : campaign.data && campaign.data.campaign.trafficSource !== 'liveintent'
      ? M.notLiveIntent
      : null;
  return (
    <div className="page li-page">
      <PageHeader
        eyebrow={campaign.data ? `Campaign #${id} · ${campaign.data.campaign.name}` : `Campaign #${id}`}
        title="Manage LiveIntent"
        description={denied ? undefined : 'Campaigns, line items, conversion trackers and ads on LiveIntent.'}
        actions={
          view !== 'manage' && !denied ? (
            <Link className="btn btn-secondary btn-md" to={managePath(id, BACK_TAB[view])}>
              <ArrowLeft size={16} aria-hidden />
              <span>Back to manage</span>
            </Link>
          ) : null
        }
      />
      {campaign.error ? (
        <Alert>{errorText(campaign.error)}</Alert>
      ) : denied ? (
        <Card>
          <EmptyState icon={ShieldAlert} title={<span data-testid="li-denied">{denied}</span>} />
        </Card>
      ) : (
        <View view={view} id={id} />
      )}
    </div>
  );
}
