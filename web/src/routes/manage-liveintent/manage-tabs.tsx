// The manage screen's tabs (spec 4 §2): conversion trackers (default), line items, campaigns and
// the campaign's ads. Each tab lists the platform's objects with edit and delete; the ads tab
// has the activate/deactivate switch.
import { Image, Megaphone, Plus, Rows3, Target } from 'lucide-react';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { mutate } from 'swr';
import { STRATEGY_LABELS } from '../../../../schema/liveintent-api';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { StatusSwitch } from '../../components/data-table/status-switch';
import { TabBar } from '../../components/tab-bar';
import { formatDollars } from '../../lib/format';
import {
  getTrackerStatus,
  keys,
  send,
  trackerPixel,
  useAds,
  useLiCampaigns,
  useLineItems,
  useTrackers,
} from './api';
import { ObjectsTable } from './objects-table';
import { errorText, formatCreated, toast } from './shared';

const TABS = [
  { key: 'trackers', label: 'Conversion trackers', icon: Target },
  { key: 'lineitems', label: 'Line items', icon: Rows3 },
  { key: 'campaigns', label: 'Campaigns', icon: Megaphone },
  { key: 'ads', label: 'Ads', icon: Image },
] as const;
type Tab = (typeof TABS)[number]['key'];

/** 'Loading...', then 'Active' or 'Unknown'; a tracker without a pixel gets one first (spec 4 §4). */
function TrackerStatus({
  id,
  segmentId,
  conversionRef,
}: {
  id: number;
  segmentId: string;
  conversionRef: string;
}) {
  const [status, setStatus] = useState('Loading...');
  useEffect(() => {
    let live = true;
    (async () => {
      try {
        if (conversionRef === '0') await trackerPixel(id, segmentId);
        const answer = await getTrackerStatus(id, segmentId);
        if (live) setStatus(answer.active ? 'Active' : 'Unknown');
      } catch {
        if (live) setStatus('Unknown');
      }
    })();
    return () => {
      live = false;
    };
  }, [id, segmentId, conversionRef]);
  const tone =
    status === 'Active' ? 'badge-success' : status === 'Unknown' ? 'badge-warning' : 'badge-neutral';
  return (
    <span className={`badge ${tone}`} data-testid={`tracker-status-${segmentId}`}>
      {status}
    </span>
  );
}

function TrackersTab({ id }: { id: number }) {
  const { data, error } = useTrackers(id);
  return (
    <ObjectsTable
      campaignId={id}
      rows={data?.conversionTrackers}
      error={error}
      label="Conversion trackers"
      empty={{
        icon: Target,
        title: 'No conversion trackers yet',
        text: 'Create a tracker to count conversions on LiveIntent and to run CPA campaigns.',
      }}
      testId="tracker"
      refOf={(t) => t.li_segment_id}
      nameOf={(t) => t.li_segment_name}
      columns={[
        { header: 'Name', render: (t) => t.li_segment_name },
        { header: 'Term regex', render: (t) => <code>{t.li_term_regex}</code> },
        {
          header: 'Status',
          render: (t) => (
            <TrackerStatus id={id} segmentId={t.li_segment_id} conversionRef={t.li_conversion_refid} />
          ),
        },
      ]}
      editPath="conversion-tracker"
      remove={{
        verb: 'delete-conversiontracker',
        body: (t) => ({
          conversionRefId: t.li_conversion_refid === '0' ? t.li_segment_id : t.li_conversion_refid,
        }),
        list: keys.trackers(id),
      }}
    />
  );
}

function LineItemsTab({ id }: { id: number }) {
  const { data, error } = useLineItems(id);
  return (
    <ObjectsTable
      campaignId={id}
      rows={data?.lineItems}
      error={error}
      label="Line items"
      empty={{
        icon: Rows3,
        title: 'No line items yet',
        text: 'Line items belong to a campaign: create the campaign first, then its line items.',
      }}
      testId="lineitem"
      refOf={(l) => l.li_refid}
      nameOf={(l) => l.li_name}
      columns={[
        { header: 'Name', render: (l) => l.li_name },
        {
          header: 'Status',
          render: (l) => (
            <span className={`badge ${l.li_status === 'active' ? 'badge-success' : 'badge-neutral'}`}>
              {l.li_status}
            </span>
          ),
        },
        { header: 'Start', render: (l) => l.li_start_date },
        { header: 'End', render: (l) => l.li_end_date },
        { header: 'Daily budget', num: true, render: (l) => formatDollars(l.li_daily_budget) },
        { header: 'Daily cap', num: true, render: (l) => l.li_daily_cap },
      ]}
      editPath="lineitem"
      remove={{
        verb: 'delete-lineitem',
        body: (l) => ({ lineItemRefId: l.li_refid }),
        list: keys.lineItems(id),
      }}
    />
  );
}

function CampaignsTab({ id }: { id: number }) {
  const { data, error } = useLiCampaigns(id);
  return (
    <ObjectsTable
      campaignId={id}
      rows={data?.liCampaigns}
      error={error}
      label="LiveIntent campaigns"
      empty={{
        icon: Megaphone,
        title: 'No LiveIntent campaigns yet',
        text: 'Create a campaign to start delivering on LiveIntent.',
      }}
      testId="campaign"
      refOf={(c) => c.li_refid}
      nameOf={(c) => c.li_name}
      columns={[
        { header: 'Name', render: (c) => c.li_name },
        { header: 'Strategy', render: (c) => STRATEGY_LABELS[c.perf_goal] ?? c.perf_goal },
        { header: 'Bid', num: true, render: (c) => formatDollars(c.bidAmount) },
        { header: 'Start', render: (c) => c.li_start_date },
        { header: 'End', render: (c) => c.li_end_date },
      ]}
      editPath="campaign"
      remove={{
        verb: 'delete-campaign',
        body: (c) => ({ refId: c.li_refid }),
        list: keys.campaigns(id),
        failure: 'Error deleting campaign',
      }}
    />
  );
}

function AdsTab({ id }: { id: number }) {
  const { data, error } = useAds(id);
  const confirm = useConfirm();
  // The switch shows the wanted state while the confirmation and the call run; it reverts on
  // cancel or failure (spec 4 §4).
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const toggle = async (refId: string, next: boolean) => {
    setPending((p) => ({ ...p, [refId]: next }));
    const ok = await confirm({
      title: 'Are you sure?',
      message: next
        ? 'Are you sure you want to activate this ad?'
        : 'Are you sure you want to deactivate this ad?',
      confirmLabel: 'Yes',
      cancelLabel: 'Cancel',
    });
    try {
      if (!ok) return;
      const res = await send('toggle-ad-status', { campaignId: id, refId, status: next });
      toast.success(res.message);
      await mutate(keys.ads(id));
    } catch (err) {
      toast.error(errorText(err));
    } finally {
      setPending((p) => {
        const { [refId]: _, ...rest } = p;
        return rest;
      });
    }
  };
  return (
    <ObjectsTable
      campaignId={id}
      rows={data?.ads}
      error={error}
      label="Ads"
      empty={{
        icon: Image,
        title: 'No ads yet',
        text: 'Upload images for a line item of this campaign; each becomes an ad.',
      }}
      testId="ad"
      refOf={(a) => a.li_refid}
      nameOf={(a) => a.li_name}
      columns={[
        {
          header: 'Image',
          render: (a) => (
            <img className="li-thumb" src={a.li_media_url.replace(/^https?:\/\/[^/]+/, '')} alt={a.li_name} />
          ),
        },
        { header: 'Name', render: (a) => a.li_name },
        { header: 'Click URL', className: 'li-url', render: (a) => a.li_click_url },
        { header: 'Created', render: (a) => formatCreated(a.created_at) },
        {
          header: 'Status',
          render: (a) => (
            <StatusSwitch
              checked={pending[a.li_refid] ?? a.li_status}
              busy={a.li_refid in pending}
              label={`Ad ${a.li_name}`}
              onChange={(next) => void toggle(a.li_refid, next)}
              testId={`ad-switch-${a.li_refid}`}
            />
          ),
        },
      ]}
      editPath="ad"
      remove={{ verb: 'delete-ad', body: (a) => ({ refId: a.li_refid }), list: keys.ads(id) }}
    />
  );
}

const CREATE: Record<Tab, { label: string; path: string }> = {
  trackers: { label: 'New conversion tracker', path: 'create-conversion-tracker' },
  lineitems: { label: 'New line item', path: 'create-lineitem' },
  campaigns: { label: 'New campaign', path: 'create-campaign' },
  ads: { label: 'New ads', path: 'create-ad' },
};

export function ManageTabs({ id }: { id: number }) {
  const [params, setParams] = useSearchParams();
  const wanted = params.get('tab');
  const tab: Tab = TABS.some((t) => t.key === wanted) ? (wanted as Tab) : 'trackers';
  const go = (next: Tab) => setParams(next === 'trackers' ? {} : { tab: next }, { replace: true });
  const onKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.key === tab);
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = TABS[(i + step + TABS.length) % TABS.length].key;
    go(next);
    document.getElementById(`li-tab-${next}`)?.focus();
  };
  const create = CREATE[tab];
  return (
    <Card
      flush
      title={TABS.find((t) => t.key === tab)?.label}
      actions={
        <Link
          className="btn btn-primary btn-md"
          to={`/manage-liveintent/campaign/${id}/${create.path}`}
          data-testid="li-create"
        >
          <Plus size={16} aria-hidden />
          <span>{create.label}</span>
        </Link>
      }
    >
      <TabBar
        tabs={TABS}
        selected={tab}
        onSelect={go}
        label="LiveIntent objects"
        idPrefix="li-tab"
        panelId="li-tabpanel"
        className="li-tabs"
        tabClassName="li-tab"
        onKeyDown={onKey}
      />
      <div id="li-tabpanel" role="tabpanel" aria-labelledby={`li-tab-${tab}`}>
        {tab === 'trackers' && <TrackersTab id={id} />}
        {tab === 'lineitems' && <LineItemsTab id={id} />}
        {tab === 'campaigns' && <CampaignsTab id={id} />}
        {tab === 'ads' && <AdsTab id={id} />}
      </div>
    </Card>
  );
}
