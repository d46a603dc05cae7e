// The manage screen's tabs (spec 4 §2): conversion trackers (default), line items, campaigns and
// the campaign's ads. Each tab lists the platform's objects with edit and delete; the ads tab
// has the activate/deactivate switch.
import { Image, Megaphone, Pencil, Plus, Rows3, Target, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { mutate } from 'swr';
import { STRATEGY_LABELS } from '../../../../schema/liveintent-api';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { StatusSwitch } from '../../components/data-table/status-switch';
import { EmptyState } from '../../components/empty-state';
import { Spinner } from '../../components/spinner';
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
import { errorText, formatCreated, toast } from './shared';

const TABS = [
  { key: 'trackers', label: 'Conversion trackers', icon: Target },
  { key: 'lineitems', label: 'Line items', icon: Rows3 },
  { key: 'campaigns', label: 'Campaigns', icon: Megaphone },
  { key: 'ads', label: 'Ads', icon: Image },
] as const;
type Tab = (typeof TABS)[number]['key'];

const DELETE_CONFIRM = {
  title: 'Are you sure?',
  message: "You won't be able to revert this!",
  confirmLabel: 'Yes, delete it!',
  cancelLabel: 'Cancel',
  danger: true,
};

function Loading({ error }: { error: unknown }) {
  if (error)
    return (
      <p className="li-error" role="alert">
        {errorText(error)}
      </p>
    );
  return (
    <div className="li-loading">
      <Spinner label="Loading" />
    </div>
  );
}

function useDelete(id: number) {
  const confirm = useConfirm();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (
    ref: string,
    verb: string,
    body: Record<string, unknown>,
    key: string,
    failure?: string,
  ) => {
    if (!(await confirm(DELETE_CONFIRM))) return;
    setBusy(ref);
    try {
      const res = await send(verb, { campaignId: id, ...body });
      toast.success(res.message);
      await mutate(key);
    } catch (err) {
      toast.error(failure ?? errorText(err));
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}

function Actions({
  edit,
  onDelete,
  busy,
  name,
}: {
  edit: string;
  onDelete: () => void;
  busy: boolean;
  name: string;
}) {
  return (
    <div className="li-row-actions">
      <Link className="btn btn-ghost btn-sm" to={edit} aria-label={`Edit ${name}`}>
        <Pencil size={14} aria-hidden />
        <span>Edit</span>
      </Link>
      <Button
        variant="ghost"
        size="sm"
        busy={busy}
        onClick={onDelete}
        aria-label={`Delete ${name}`}
        icon={<Trash2 size={14} aria-hidden />}
      >
        Delete
      </Button>
    </div>
  );
}

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
  const del = useDelete(id);
  if (!data) return <Loading error={error} />;
  if (data.conversionTrackers.length === 0)
    return (
      <EmptyState icon={Target} title="No conversion trackers yet">
        Create a tracker to count conversions on LiveIntent and to run CPA campaigns.
      </EmptyState>
    );
  return (
    <section
      className="table-wrap"
      aria-label="Conversion trackers, scrollable"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
      tabIndex={0}
    >
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Term regex</th>
            <th scope="col">Status</th>
            <th scope="col" className="actions">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {data.conversionTrackers.map((t) => (
            <tr key={t.li_segment_id} data-testid={`tracker-row-${t.li_segment_id}`}>
              <td>{t.li_segment_name}</td>
              <td>
                <code>{t.li_term_regex}</code>
              </td>
              <td>
                <TrackerStatus id={id} segmentId={t.li_segment_id} conversionRef={t.li_conversion_refid} />
              </td>
              <td className="actions">
                <Actions
                  name={t.li_segment_name}
                  edit={`/manage-liveintent/campaign/${id}/conversion-tracker/${t.li_segment_id}/edit`}
                  busy={del.busy === t.li_segment_id}
                  onDelete={() =>
                    void del.run(
                      t.li_segment_id,
                      'delete-conversiontracker',
                      {
                        conversionRefId:
                          t.li_conversion_refid === '0' ? t.li_segment_id : t.li_conversion_refid,
                      },
                      keys.trackers(id),
                    )
                  }
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function LineItemsTab({ id }: { id: number }) {
  const { data, error } = useLineItems(id);
  const del = useDelete(id);
  if (!data) return <Loading error={error} />;
  if (data.lineItems.length === 0)
    return (
      <EmptyState icon={Rows3} title="No line items yet">
        Line items belong to a campaign: create the campaign first, then its line items.
      </EmptyState>
    );
  return (
    <section
      className="table-wrap"
      aria-label="Line items, scrollable"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
      tabIndex={0}
    >
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Start</th>
            <th scope="col">End</th>
            <th scope="col" className="num">
              Daily budget
            </th>
            <th scope="col" className="num">
              Daily cap
            </th>
            <th scope="col" className="actions">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {data.lineItems.map((l) => (
            <tr key={l.li_refid} data-testid={`lineitem-row-${l.li_refid}`}>
              <td>{l.li_name}</td>
              <td>
                <span className={`badge ${l.li_status === 'active' ? 'badge-success' : 'badge-neutral'}`}>
                  {l.li_status}
                </span>
              </td>
              <td>{l.li_start_date}</td>
              <td>{l.li_end_date}</td>
              <td className="num">{formatDollars(l.li_daily_budget)}</td>
              <td className="num">{l.li_daily_cap}</td>
              <td className="actions">
                <Actions
                  name={l.li_name}
                  edit={`/manage-liveintent/campaign/${id}/lineitem/${l.li_refid}/edit`}
                  busy={del.busy === l.li_refid}
                  onDelete={() =>
                    void del.run(
                      l.li_refid,
                      'delete-lineitem',
                      { lineItemRefId: l.li_refid },
                      keys.lineItems(id),
                    )
                  }
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function CampaignsTab({ id }: { id: number }) {
  const { data, error } = useLiCampaigns(id);
  const del = useDelete(id);
  if (!data) return <Loading error={error} />;
  if (data.liCampaigns.length === 0)
    return (
      <EmptyState icon={Megaphone} title="No LiveIntent campaigns yet">
        Create a campaign to start delivering on LiveIntent.
      </EmptyState>
    );
  return (
    <section
      className="table-wrap"
      aria-label="LiveIntent campaigns, scrollable"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
      tabIndex={0}
    >
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Strategy</th>
            <th scope="col" className="num">
              Bid
            </th>
            <th scope="col">Start</th>
            <th scope="col">End</th>
            <th scope="col" className="actions">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {data.liCampaigns.map((c) => (
            <tr key={c.li_refid} data-testid={`campaign-row-${c.li_refid}`}>
              <td>{c.li_name}</td>
              <td>{STRATEGY_LABELS[c.perf_goal] ?? c.perf_goal}</td>
              <td className="num">{formatDollars(c.bidAmount)}</td>
              <td>{c.li_start_date}</td>
              <td>{c.li_end_date}</td>
              <td className="actions">
                <Actions
                  name={c.li_name}
                  edit={`/manage-liveintent/campaign/${id}/campaign/${c.li_refid}/edit`}
                  busy={del.busy === c.li_refid}
                  onDelete={() =>
                    void del.run(
                      c.li_refid,
                      'delete-campaign',
                      { refId: c.li_refid },
                      keys.campaigns(id),
                      'Error deleting campaign',
                    )
                  }
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AdsTab({ id }: { id: number }) {
  const { data, error } = useAds(id);
  const del = useDelete(id);
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
  if (!data) return <Loading error={error} />;
  if (data.ads.length === 0)
    return (
      <EmptyState icon={Image} title="No ads yet">
        Upload images for a line item of this campaign; each becomes an ad.
      </EmptyState>
    );
  return (
    <section
      className="table-wrap"
      aria-label="Ads, scrollable"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
      tabIndex={0}
    >
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Image</th>
            <th scope="col">Name</th>
            <th scope="col">Click URL</th>
            <th scope="col">Created</th>
            <th scope="col">Status</th>
            <th scope="col" className="actions">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {data.ads.map((a) => (
            <tr key={a.li_refid} data-testid={`ad-row-${a.li_refid}`}>
              <td>
                <img
                  className="li-thumb"
                  src={a.li_media_url.replace(/^https?:\/\/[^/]+/, '')}
                  alt={a.li_name}
                />
              </td>
              <td>{a.li_name}</td>
              <td className="li-url">{a.li_click_url}</td>
              <td>{formatCreated(a.created_at)}</td>
              <td>
                <StatusSwitch
                  checked={pending[a.li_refid] ?? a.li_status}
                  busy={a.li_refid in pending}
                  label={`Ad ${a.li_name}`}
                  onChange={(next) => void toggle(a.li_refid, next)}
                  testId={`ad-switch-${a.li_refid}`}
                />
              </td>
              <td className="actions">
                <Actions
                  name={a.li_name}
                  edit={`/manage-liveintent/campaign/${id}/ad/${a.li_refid}/edit`}
                  busy={del.busy === a.li_refid}
                  onDelete={() => void del.run(a.li_refid, 'delete-ad', { refId: a.li_refid }, keys.ads(id))}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
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
      <div className="li-tabs" role="tablist" aria-label="LiveIntent objects" onKeyDown={onKey}>
        {TABS.map((t) => {
          const Icon = t.icon;
          const selected = t.key === tab;
          return (
            <button
              key={t.key}
              type="button"
              role="tab"
              id={`li-tab-${t.key}`}
              aria-selected={selected}
              aria-controls="li-tabpanel"
              tabIndex={selected ? 0 : -1}
              className={selected ? 'li-tab is-active' : 'li-tab'}
              onClick={() => go(t.key)}
              data-testid={`li-tab-${t.key}`}
            >
              <Icon size={15} aria-hidden />
              {t.label}
            </button>
          );
        })}
      </div>
      <div id="li-tabpanel" role="tabpanel" aria-labelledby={`li-tab-${tab}`}>
        {tab === 'trackers' && <TrackersTab id={id} />}
        {tab === 'lineitems' && <LineItemsTab id={id} />}
        {tab === 'campaigns' && <CampaignsTab id={id} />}
        {tab === 'ads' && <AdsTab id={id} />}
      </div>
    </Card>
  );
}
