// The campaign editor's page header (breadcrumb, name, type, status, source, unsaved changes,
// Statistics and the save button) and the page shown when the campaign cannot be loaded.
import { BarChart3, CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { CAMPAIGN_TYPE_OPTIONS, type CampaignForm, labelOf, TRAFFIC_SOURCE_OPTIONS } from './campaign-form';

export function EditorHeader({
  campaignId,
  form,
  dirty,
  saveButton,
}: {
  /** Null while the campaign is new. */
  campaignId: number | null;
  form: CampaignForm;
  dirty: boolean;
  saveButton: ReactNode;
}) {
  return (
    <PageHeader
      eyebrow={
        <span className="ce-breadcrumb">
          <Link to="/campaigns">Campaigns</Link> <span aria-hidden>/</span>{' '}
          {campaignId === null ? 'New campaign' : `#${campaignId}`}
        </span>
      }
      title={<span data-testid="campaign-title">{form.name || 'Untitled campaign'}</span>}
      description={
        <span className="ce-header-meta">
          <span className="badge badge-accent">{labelOf(CAMPAIGN_TYPE_OPTIONS, form.campaignType)}</span>
          {form.active ? (
            <span className="badge badge-success">Active</span>
          ) : (
            <span className="badge badge-warning">Inactive</span>
          )}
          {form.trafficSource && (
            <span className="badge badge-neutral ce-badge-plain">
              {labelOf(TRAFFIC_SOURCE_OPTIONS, form.trafficSource)}
            </span>
          )}
          {dirty && <span className="ce-unsaved">Unsaved changes</span>}
        </span>
      }
      actions={
        <>
          {campaignId && (
            <Link className="btn btn-secondary btn-md" to={`/stats/${campaignId}`}>
              <BarChart3 size={16} aria-hidden />
              <span>Statistics</span>
            </Link>
          )}
          {saveButton}
        </>
      }
    />
  );
}

/** A campaign id that is not a number (`campaignId` null), one not found, or a failed load. */
export function EditorLoadError({ campaignId, error }: { campaignId: number | null; error: unknown }) {
  const notFound = campaignId === null || (error instanceof ApiError && error.status === 404);
  return (
    <div className="page ce-page">
      <PageHeader
        eyebrow={campaignId === null ? 'Campaign editor' : `Campaign #${campaignId}`}
        title="Campaign editor"
      />
      <EmptyState
        icon={CircleAlert}
        title={notFound ? 'Campaign not found' : 'The campaign could not be loaded'}
        action={
          <Link className="btn btn-primary btn-md" to="/campaigns">
            Back to campaigns
          </Link>
        }
      >
        {notFound
          ? 'It may have been deleted, or it belongs to another user.'
          : error instanceof ApiError
            ? error.firstMessage
            : String(error)}
      </EmptyState>
    </div>
  );
}
