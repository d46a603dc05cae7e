// Tabs 2 and 3 of the editor: landing pages and offer pages (paths and options are in
// paths-options-tabs.tsx).
import { FileArchive } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { CAMPAIGN_MESSAGES } from '../../../../schema/campaign-api';
import type { CampaignType } from '../../../../schema/campaigns';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { UploadButtons } from '../../components/upload-parts';
import { formatDollars } from '../../lib/format';
import { useItems } from './api';
import {
  columnIf,
  devicesColumn,
  nameColumn,
  shareColumn,
  statusColumn,
  textColumn,
  trafficColumn,
  useItemEditor,
  useTrafficPercents,
} from './item-columns';
import { ITEM_IDS } from './item-kinds';
import { LandingModal, OfferModal } from './item-modals';
import { type Column, ItemsSection } from './items-section';
import { OptimizationCard, type OptimizationFields } from './optimization-card';
import type { Agent, Landing, Offer, OptionItem, PathItem } from './types';
import { LandingCsvModal, ZipImportModal } from './uploads';

type TabProps = {
  campaignId: number;
  campaignType: CampaignType;
  trafficSource: string;
  agents: Agent[];
  onGoTo: (tab: 'paths' | 'options') => void;
};

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
  const editor = useItemEditor<Landing>(campaignId);
  const [upload, setUpload] = useState<'csv' | 'zip' | null>(null);
  const { data } = useItems('landing', campaignId, false);
  const percents = useTrafficPercents(data?.result ?? [], ITEM_IDS.landing, isPathType ? 'pathId' : null);
  const columns: Column<Landing>[] = [
    nameColumn('Landing page', true),
    ...columnIf(
      isPathType || paths.length > 0,
      textColumn('path', 'Path', (r: Landing) => r.path),
    ),
    devicesColumn(agents),
    shareColumn(),
    trafficColumn(percents, ITEM_IDS.landing),
    statusColumn(),
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
        columns={columns}
        editor={editor}
        blocked={blocked}
        actions={<UploadButtons onChoose={setUpload} />}
      />
      <OptimizationCard campaignId={campaignId} value={optimization} onSaved={onOptimizationSaved} />
      <LandingModal {...editor.modal} campaignType={campaignType} agents={agents} paths={paths} />
      <LandingCsvModal
        open={upload === 'csv'}
        campaignId={campaignId}
        onClose={() => setUpload(null)}
        onUploaded={editor.refresh}
      />
      <ZipImportModal
        open={upload === 'zip'}
        kind="landing"
        campaignId={campaignId}
        onClose={() => setUpload(null)}
        onImported={editor.refresh}
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
  const editor = useItemEditor<Offer>(campaignId);
  const [importing, setImporting] = useState(false);
  const percents = useTrafficPercents(
    offers,
    ITEM_IDS.offer,
    isPathType ? 'pathId' : isOptionType ? 'optionId' : null,
  );
  const columns: Column<Offer>[] = [
    nameColumn('Offer page', true),
    ...columnIf(
      isPathType || paths.length > 0,
      textColumn('path', 'Path', (r: Offer) => r.path),
    ),
    ...columnIf(
      isOptionType || options.length > 0,
      textColumn('option', 'Option', (r: Offer) => r.option),
    ),
    devicesColumn(agents),
    {
      key: 'payout',
      label: 'Payout',
      num: true,
      sortable: true,
      sortValue: (r) => r.payout,
      render: (r) => formatDollars(r.payout),
    },
    shareColumn(),
    trafficColumn(percents, ITEM_IDS.offer),
    ...columnIf(
      campaignType === 'rotator',
      textColumn('participant', 'Participant', (r: Offer) => r.rotator_participant_email, false),
    ),
    statusColumn(),
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
        columns={columns}
        editor={editor}
        blocked={blocked}
        actions={
          <Button icon={<FileArchive size={16} aria-hidden />} onClick={() => setImporting(true)}>
            Import ZIP
          </Button>
        }
      />
      <OfferModal
        {...editor.modal}
        campaignType={campaignType}
        trafficSource={trafficSource}
        agents={agents}
        paths={paths}
        options={options}
        offers={offers}
      />
      <ZipImportModal
        open={importing}
        kind="offer"
        campaignId={campaignId}
        onClose={() => setImporting(false)}
        onImported={editor.refresh}
      />
    </div>
  );
}
