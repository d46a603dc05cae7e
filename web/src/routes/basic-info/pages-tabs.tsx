// Tabs 2, 3, 5 and 6 of the editor: landing pages, offer pages, paths and options.
import { FileArchive, FileSpreadsheet, GitBranch, ListChecks, MousePointerClick, Route } from 'lucide-react';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { CAMPAIGN_MESSAGES } from '../../../../schema/campaign-api';
import type { CampaignType } from '../../../../schema/campaigns';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { formatDollars } from '../../lib/format';
import { useItems } from './api';
import { devicesLabel, trafficPercents } from './editor-ui';
import { LandingModal, OfferModal } from './item-modals';
import { type Column, ItemsSection, refreshCampaignLists } from './items-section';
import { OptimizationCard, type OptimizationFields } from './optimization-card';
import { OptionModal, PathModal } from './path-option-modals';
import type { Agent, Landing, Offer, OptionItem, PathItem } from './types';
import { LandingCsvModal, ZipImportModal } from './uploads';

type TabProps = {
  campaignId: number;
  campaignType: CampaignType;
  trafficSource: string;
  agents: Agent[];
  onGoTo: (tab: 'paths' | 'options') => void;
};

function StatusBadge({ active, deleted }: { active: number; deleted: number }) {
  if (deleted) return <span className="badge ce-badge-deleted">Deleted</span>;
  return active ? (
    <span className="badge badge-success">Active</span>
  ) : (
    <span className="badge badge-warning">Paused</span>
  );
}

function NameCell({ name, url }: { name: string; url?: string }) {
  return (
    <div className="ce-name-cell">
      <span className="cell-strong">{name}</span>
      {url && (
        <a
          className="ce-url"
          href={url.replace(/\{[^}]*\}/g, '')}
          target="_blank"
          rel="noreferrer noopener"
          title={url}
        >
          {url}
        </a>
      )}
    </div>
  );
}

const percent = (v: number | undefined) => (v ? `${v.toFixed(1)}%` : '—');

/** The prerequisite of path and option campaigns (spec 2 §5), with the way to meet it. */
function Prerequisite({
  message,
  action,
  onAction,
}: {
  message: string;
  action: string;
  onAction: () => void;
}) {
  return (
    <div className="ce-pad">
      <div className="ce-prerequisite" role="status">
        <Alert tone="info">{message}</Alert>
        <Button variant="primary" onClick={onAction}>
          {action}
        </Button>
      </div>
    </div>
  );
}

function useLivePaths(campaignId: number, enabled: boolean) {
  const { data, isLoading } = useItems('path', enabled ? campaignId : null, false);
  return { paths: (data?.result ?? []) as PathItem[], loading: enabled && isLoading && !data };
}

// ---- landing pages -------------------------------------------------------------------------

export function LandingTab({
  campaignId,
  campaignType,
  agents,
  onGoTo,
  optimization,
  onOptimizationSaved,
}: TabProps & {
  optimization: OptimizationFields;
  onOptimizationSaved: (fields: OptimizationFields) => void;
}) {
  const isPathType = campaignType === 'multiple_path_type';
  const { paths, loading } = useLivePaths(campaignId, true);
  const [modal, setModal] = useState<{ editing: Landing | null } | null>(null);
  const [upload, setUpload] = useState<'csv' | 'zip' | null>(null);
  const { data } = useItems('landing', campaignId, false);
  const refresh = useCallback(() => void refreshCampaignLists(campaignId), [campaignId]);

  const percents = useMemo(() => {
    const rows = (data?.result ?? []) as Landing[];
    return trafficPercents(
      rows,
      (r) => r.landingPageId,
      (r) => (isPathType ? (r.pathId ?? 0) : 0),
      (r) => r.share,
      (r) => r.active === 1 && r.deleted === 0,
    );
  }, [data, isPathType]);

  const columns: Column<Landing>[] = [
    {
      key: 'name',
      label: 'Landing page',
      sortable: true,
      sortValue: (r) => r.name,
      render: (r) => <NameCell name={r.name} url={r.url} />,
      className: 'ce-col-name',
    },
    ...(isPathType || paths.length
      ? [
          {
            key: 'path',
            label: 'Path',
            sortable: true,
            sortValue: (r: Landing) => r.path,
            render: (r: Landing) => r.path || '—',
          },
        ]
      : []),
    { key: 'devices', label: 'Devices', render: (r) => devicesLabel(r.agents, agents) },
    {
      key: 'share',
      label: 'Share',
      num: true,
      sortable: true,
      sortValue: (r) => r.share,
      render: (r) => r.share,
    },
    {
      key: 'traffic',
      label: 'Traffic',
      num: true,
      sortable: true,
      sortValue: (r) => percents.get(r.landingPageId) ?? 0,
      render: (r) => percent(percents.get(r.landingPageId)),
    },
    { key: 'status', label: 'Status', render: (r) => <StatusBadge active={r.active} deleted={r.deleted} /> },
  ];

  const blocked =
    isPathType && !loading && paths.length === 0 ? (
      <Prerequisite
        message={CAMPAIGN_MESSAGES.pathRequiredForType}
        action="Add a path"
        onAction={() => onGoTo('paths')}
      />
    ) : undefined;

  return (
    <div className="ce-tab-stack">
      {campaignType === 'direct_link' && (
        <Alert tone="info">
          A direct-link campaign sends visitors straight to an offer page, so landing pages get no traffic.
          Choose the landing page type on the basic tab to route visitors through them.
        </Alert>
      )}
      <ItemsSection
        kind="landing"
        campaignId={campaignId}
        title="Landing pages"
        description="Visitors are split across the active pages by share, per path and device."
        singular="landing page"
        plural="landing pages"
        icon={MousePointerClick}
        columns={columns}
        idOf={(r) => r.landingPageId}
        verbs={{
          delete: 'delete-landing',
          deleteKey: 'landingId',
          undo: 'undo-landing',
          undoKey: 'landingId',
          clone: 'clone-landings',
          cloneKey: 'landingIds',
          toggle: 'landing-toggle-delete',
          equal: 'landing-equal-share',
          export: 'export-landings',
          exportKey: 'landingIds',
        }}
        onAdd={() => setModal({ editing: null })}
        onEdit={(row) => setModal({ editing: row })}
        blocked={blocked}
        emptyText="Add the pages visitors see before the offer, or upload them from a CSV file."
        actions={
          <>
            <Button icon={<FileSpreadsheet size={16} aria-hidden />} onClick={() => setUpload('csv')}>
              Upload CSV
            </Button>
            <Button icon={<FileArchive size={16} aria-hidden />} onClick={() => setUpload('zip')}>
              Import ZIP
            </Button>
          </>
        }
      />
      <OptimizationCard campaignId={campaignId} value={optimization} onSaved={onOptimizationSaved} />
      <LandingModal
        open={modal !== null}
        campaignId={campaignId}
        campaignType={campaignType}
        agents={agents}
        paths={paths}
        editing={modal?.editing ?? null}
        onClose={() => setModal(null)}
        onSaved={refresh}
      />
      <LandingCsvModal
        open={upload === 'csv'}
        campaignId={campaignId}
        onClose={() => setUpload(null)}
        onUploaded={refresh}
      />
      <ZipImportModal
        open={upload === 'zip'}
        kind="landing"
        campaignId={campaignId}
        onClose={() => setUpload(null)}
        onImported={refresh}
      />
    </div>
  );
}

// ---- offer pages ---------------------------------------------------------------------------

export function OfferTab({ campaignId, campaignType, trafficSource, agents, onGoTo }: TabProps) {
  const isPathType = campaignType === 'multiple_path_type';
  const isOptionType = campaignType === 'multiple_option_type';
  const { paths, loading: pathsLoading } = useLivePaths(campaignId, true);
  const optionList = useItems('option', campaignId, false);
  const options = (optionList.data?.result ?? []) as OptionItem[];
  const optionsLoading = optionList.isLoading && !optionList.data;
  const { data } = useItems('offer', campaignId, false);
  const offers = (data?.result ?? []) as Offer[];
  const [modal, setModal] = useState<{ editing: Offer | null } | null>(null);
  const [importing, setImporting] = useState(false);
  const refresh = useCallback(() => void refreshCampaignLists(campaignId), [campaignId]);

  const percents = useMemo(
    () =>
      trafficPercents(
        offers,
        (r) => r.offerPageId,
        (r) => (isPathType ? (r.pathId ?? 0) : isOptionType ? (r.optionId ?? 0) : 0),
        (r) => r.share,
        (r) => r.active === 1 && r.deleted === 0,
      ),
    [offers, isPathType, isOptionType],
  );

  const columns: Column<Offer>[] = [
    {
      key: 'name',
      label: 'Offer page',
      sortable: true,
      sortValue: (r) => r.name,
      render: (r) => <NameCell name={r.name} url={r.url} />,
      className: 'ce-col-name',
    },
    ...(isPathType || paths.length
      ? [
          {
            key: 'path',
            label: 'Path',
            sortable: true,
            sortValue: (r: Offer) => r.path,
            render: (r: Offer) => r.path || '—',
          },
        ]
      : []),
    ...(isOptionType || options.length
      ? [
          {
            key: 'option',
            label: 'Option',
            sortable: true,
            sortValue: (r: Offer) => r.option,
            render: (r: Offer) => r.option || '—',
          },
        ]
      : []),
    { key: 'devices', label: 'Devices', render: (r) => devicesLabel(r.agents, agents) },
    {
      key: 'payout',
      label: 'Payout',
      num: true,
      sortable: true,
      sortValue: (r) => r.payout,
      render: (r) => formatDollars(r.payout),
    },
    {
      key: 'share',
      label: 'Share',
      num: true,
      sortable: true,
      sortValue: (r) => r.share,
      render: (r) => r.share,
    },
    {
      key: 'traffic',
      label: 'Traffic',
      num: true,
      sortable: true,
      sortValue: (r) => percents.get(r.offerPageId) ?? 0,
      render: (r) => percent(percents.get(r.offerPageId)),
    },
    ...(campaignType === 'rotator'
      ? [
          {
            key: 'participant',
            label: 'Participant',
            render: (r: Offer) => r.rotator_participant_email || '—',
          },
        ]
      : []),
    { key: 'status', label: 'Status', render: (r) => <StatusBadge active={r.active} deleted={r.deleted} /> },
  ];

  let blocked: ReactNode;
  if (isPathType && !pathsLoading && paths.length === 0) {
    blocked = (
      <Prerequisite
        message={CAMPAIGN_MESSAGES.pathRequiredForType}
        action="Add a path"
        onAction={() => onGoTo('paths')}
      />
    );
  } else if (isOptionType && !optionsLoading && options.length === 0) {
    blocked = (
      <Prerequisite
        message={CAMPAIGN_MESSAGES.optionRequiredForType}
        action="Add an option"
        onAction={() => onGoTo('options')}
      />
    );
  }

  return (
    <div className="ce-tab-stack">
      <ItemsSection
        kind="offer"
        campaignId={campaignId}
        title="Offer pages"
        description="Where visitors convert. Traffic is split by share among the active offers of each group."
        singular="offer page"
        plural="offer pages"
        icon={ListChecks}
        columns={columns}
        idOf={(r) => r.offerPageId}
        verbs={{
          delete: 'delete-offer',
          deleteKey: 'offerId',
          undo: 'undo-offer',
          undoKey: 'offerId',
          clone: 'clone-offers',
          cloneKey: 'offerPageIds',
          toggle: 'offer-toggle-delete',
          equal: 'offer-equal-share',
          export: 'export-offers',
          exportKey: 'offerPageIds',
        }}
        onAdd={() => setModal({ editing: null })}
        onEdit={(row) => setModal({ editing: row })}
        blocked={blocked}
        emptyText="Add the offers visitors are sent to, with the payout each conversion earns."
        actions={
          <Button icon={<FileArchive size={16} aria-hidden />} onClick={() => setImporting(true)}>
            Import ZIP
          </Button>
        }
      />
      <OfferModal
        open={modal !== null}
        campaignId={campaignId}
        campaignType={campaignType}
        trafficSource={trafficSource}
        agents={agents}
        paths={paths}
        options={options}
        offers={offers}
        editing={modal?.editing ?? null}
        onClose={() => setModal(null)}
        onSaved={refresh}
      />
      <ZipImportModal
        open={importing}
        kind="offer"
        campaignId={campaignId}
        onClose={() => setImporting(false)}
        onImported={refresh}
      />
    </div>
  );
}

// ---- paths and options -----------------------------------------------------------------------

export function PathsTab({ campaignId, agents }: Pick<TabProps, 'campaignId' | 'agents'>) {
  const [modal, setModal] = useState<{ editing: PathItem | null } | null>(null);
  const { data } = useItems('path', campaignId, false);
  const refresh = useCallback(() => void refreshCampaignLists(campaignId), [campaignId]);
  const percents = useMemo(
    () =>
      trafficPercents(
        (data?.result ?? []) as PathItem[],
        (r) => r.pathId,
        () => 0,
        (r) => r.share,
        (r) => r.active === 1 && r.deleted === 0,
      ),
    [data],
  );
  const columns: Column<PathItem>[] = [
    {
      key: 'name',
      label: 'Path',
      sortable: true,
      sortValue: (r) => r.name,
      render: (r) => <NameCell name={r.name} />,
    },
    { key: 'devices', label: 'Devices', render: (r) => devicesLabel(r.agents, agents) },
    {
      key: 'share',
      label: 'Share',
      num: true,
      sortable: true,
      sortValue: (r) => r.share,
      render: (r) => r.share,
    },
    {
      key: 'traffic',
      label: 'Traffic',
      num: true,
      sortable: true,
      sortValue: (r) => percents.get(r.pathId) ?? 0,
      render: (r) => percent(percents.get(r.pathId)),
    },
    { key: 'status', label: 'Status', render: (r) => <StatusBadge active={r.active} deleted={r.deleted} /> },
  ];
  return (
    <div className="ce-tab-stack">
      <ItemsSection
        kind="path"
        campaignId={campaignId}
        title="Paths"
        description="Each path is a funnel of its own: visitors are split across paths by share, then across the path's landing pages and offers."
        singular="path"
        plural="paths"
        icon={Route}
        columns={columns}
        idOf={(r) => r.pathId}
        verbs={{
          delete: 'delete-path',
          deleteKey: 'pathId',
          undo: 'undo-path',
          undoKey: 'pathId',
          clone: 'clone-paths',
          cloneKey: 'pathIds',
          toggle: 'path-toggle-delete',
          equal: 'path-equal-share',
        }}
        onAdd={() => setModal({ editing: null })}
        onEdit={(row) => setModal({ editing: row })}
        emptyText="A multiple-path campaign needs at least one path before landing and offer pages can be added."
      />
      <PathModal
        open={modal !== null}
        campaignId={campaignId}
        agents={agents}
        editing={modal?.editing ?? null}
        onClose={() => setModal(null)}
        onSaved={refresh}
      />
    </div>
  );
}

export function OptionsTab({ campaignId }: { campaignId: number }) {
  const [modal, setModal] = useState<{ editing: OptionItem | null } | null>(null);
  const refresh = useCallback(() => void refreshCampaignLists(campaignId), [campaignId]);
  const columns: Column<OptionItem>[] = [
    {
      key: 'name',
      label: 'Option',
      sortable: true,
      sortValue: (r) => r.name,
      render: (r) => <NameCell name={r.name} />,
    },
    { key: 'id', label: 'Option id', num: true, render: (r) => <span className="mono">{r.optionId}</span> },
    { key: 'status', label: 'Status', render: (r) => <StatusBadge active={r.active} deleted={r.deleted} /> },
  ];
  return (
    <div className="ce-tab-stack">
      <ItemsSection
        kind="option"
        campaignId={campaignId}
        title="Options"
        description="The choices a landing page offers; each option links to its own offer pages."
        singular="option"
        plural="options"
        icon={GitBranch}
        columns={columns}
        idOf={(r) => r.optionId}
        verbs={{
          delete: 'delete-option',
          deleteKey: 'optionId',
          undo: 'undo-option',
          undoKey: 'optionId',
          clone: 'clone-options',
          cloneKey: 'optionIds',
          toggle: 'option-toggle-delete',
        }}
        onAdd={() => setModal({ editing: null })}
        onEdit={(row) => setModal({ editing: row })}
        emptyText="A multiple-option campaign needs at least one option before offer pages can be added."
      />
      <OptionModal
        open={modal !== null}
        campaignId={campaignId}
        editing={modal?.editing ?? null}
        onClose={() => setModal(null)}
        onSaved={refresh}
      />
    </div>
  );
}
