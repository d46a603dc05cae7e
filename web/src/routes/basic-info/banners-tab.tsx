import { CircleAlert, CircleCheck, ImagePlus, Pencil, Power, PowerOff, Save, Trash2 } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import {
  type Banner,
  DEFAULT_BLAZE_PUBLISHER_ID,
  TRAFFIC_MESSAGES as M,
} from '../../../../schema/traffic-api';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { failureText } from '../../components/confirmed-action';
import { ActionsHeader } from '../../components/data-table/actions-header';
import { EmptyState } from '../../components/empty-state';
import { SelectField } from '../../components/field';
import { Spinner } from '../../components/spinner';
import { notify } from '../../components/toaster';
import { type BannerDraft, BannerModal, placementLabel } from './banner-modal';
import { SelectAllHeader, SelectCell, useSelection } from './editor-ui';
import {
  deleteBanners,
  idBatches,
  saveBannerForm,
  saveBannersActive,
  savePlacement,
  uploadBatches,
  useBanners,
  useCpcConfig,
  useZones,
} from './traffic-api';

// Tab 7, banners and placement (spec 2 §2-§9): the placement of the Blaze campaign, the banner
// list with bulk activation and delete (batches of 5), and the add/edit modal whose uploads go
// one at a time, or 5 at a time over 10 files, with the upload status idle / uploading / fail.

type UploadStatus = {
  state: 'idle' | 'uploading' | 'fail';
  batch: number;
  batches: number;
  done: number;
  total: number;
};
const IDLE: UploadStatus = { state: 'idle', batch: 0, batches: 0, done: 0, total: 0 };

/** A card's list until its answer is there: why it could not load, or a spinner; then the list. */
function Loaded<T>({
  state,
  what,
  children,
}: {
  state: { data?: T; error?: unknown };
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (state.error && !state.data) {
    return (
      <EmptyState icon={CircleAlert} title={`Could not load the ${what}`}>
        {failureText(state.error)}
      </EmptyState>
    );
  }
  return state.data ? children(state.data) : <Spinner label={`Loading the ${what}…`} />;
}

function PlacementCard({ campaignId }: { campaignId: number }) {
  const config = useCpcConfig();
  const publisher = config.data?.config.blaze_publisher_id ?? DEFAULT_BLAZE_PUBLISHER_ID;
  const zones = useZones(campaignId, publisher);
  const [placement, setPlacement] = useState('');
  const [busy, setBusy] = useState(false);
  const saved = zones.data?.placement ?? '';
  useEffect(() => setPlacement(saved), [saved]);

  const save = async () => {
    setBusy(true);
    try {
      await savePlacement(campaignId, placement);
      await zones.mutate();
      notify.success(M.placementsSaved);
    } catch {
      notify.error(M.savePlacementsFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Placement" description={`Zones of Blaze publisher ${publisher}`}>
      <Loaded state={zones} what="zones">
        {(data) => (
          <div className="tr-inline-form">
            <SelectField
              id="blaze-placement"
              label="Zone"
              value={placement}
              onValueChange={setPlacement}
              options={[
                { value: '', label: 'Select a zone' },
                ...data.zones.map((z) => ({
                  value: z.id,
                  label: `${z.name} (${z.placements.map(placementLabel).join(', ')})`,
                })),
              ]}
            />
            <Button
              variant="primary"
              icon={<Save size={16} aria-hidden />}
              busy={busy}
              disabled={!placement || placement === saved}
              onClick={() => void save()}
            >
              Save placement
            </Button>
          </div>
        )}
      </Loaded>
    </Card>
  );
}

function StatusLine({ status }: { status: UploadStatus }) {
  if (status.state === 'idle') return null;
  return (
    <div
      className={`status-line tr-upload tr-upload-${status.state}`}
      role="status"
      data-testid="banner-upload-status"
    >
      {status.state === 'uploading' ? <Spinner size={14} /> : <CircleAlert size={16} aria-hidden />}
      {status.state === 'uploading'
        ? `Uploading batch ${status.batch} of ${status.batches} (${status.done} of ${status.total} images sent)`
        : `Upload failed at batch ${status.batch} of ${status.batches}: ${status.done} of ${status.total} images saved`}
    </div>
  );
}

export function BannersTab({ campaignId }: { campaignId: number }) {
  const list = useBanners(campaignId);
  const confirm = useConfirm();
  const banners = list.data?.banners ?? [];
  const selection = useSelection(banners.map((b) => b.id));
  const [modal, setModal] = useState<{ editing: Banner | null } | null>(null);
  const [status, setStatus] = useState<UploadStatus>(IDLE);
  const [busy, setBusy] = useState<'activate' | 'deactivate' | 'delete' | null>(null);

  const fieldsForm = (d: BannerDraft) => {
    const form = new FormData();
    form.set('campaign_id', String(campaignId));
    form.set('name', d.name.trim());
    form.set('url', d.url.trim());
    form.set('type', d.type);
    form.set('width', d.width);
    form.set('height', d.height);
    form.set('active', d.active ? '1' : '0');
    return form;
  };

  const submit = async (draft: BannerDraft) => {
    const editing = modal?.editing ?? null;
    if (editing) {
      setStatus({ state: 'uploading', batch: 1, batches: 1, done: 0, total: draft.files.length });
      const form = fieldsForm(draft);
      form.set('id', String(editing.id));
      for (const f of draft.files) form.append('images[]', f);
      try {
        await saveBannerForm(form);
        setStatus(IDLE);
        setModal(null);
        notify.success(M.bannersUpdated);
      } catch {
        setStatus({ state: 'fail', batch: 1, batches: 1, done: 0, total: draft.files.length });
        notify.error(M.updateBannerFailed);
      }
      await list.mutate();
      return;
    }
    const batches = uploadBatches(draft.files);
    let done = 0;
    for (const [i, batch] of batches.entries()) {
      setStatus({
        state: 'uploading',
        batch: i + 1,
        batches: batches.length,
        done,
        total: draft.files.length,
      });
      const form = fieldsForm(draft);
      for (const f of batch) form.append('images[]', f);
      try {
        await saveBannerForm(form);
        done += batch.length;
      } catch {
        setStatus({ state: 'fail', batch: i + 1, batches: batches.length, done, total: draft.files.length });
        notify.error(M.saveBannerFailed);
        await list.mutate();
        return;
      }
    }
    setStatus(IDLE);
    setModal(null);
    notify.success(M.bannersSaved);
    await list.mutate();
  };

  /** A change of the selected banners: its button busy, its toast, then the list read again. */
  const changeSelected = async (
    key: NonNullable<typeof busy>,
    change: () => Promise<void>,
    done: string,
    failed: string,
  ) => {
    setBusy(key);
    try {
      await change();
      notify.success(done);
    } catch {
      notify.error(failed);
    } finally {
      setBusy(null);
      await list.mutate();
    }
  };

  const setActive = (active: 0 | 1) =>
    changeSelected(
      active ? 'activate' : 'deactivate',
      () => saveBannersActive(campaignId, [...selection.selected], active),
      M.bannersUpdated,
      M.updateBannerFailed,
    );

  const remove = async () => {
    const count = selection.count;
    const ok = await confirm({
      title: 'Delete banners',
      message: `Delete ${count} ${count === 1 ? 'banner' : 'banners'}? The provider stops serving them and their images are removed.`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    await changeSelected(
      'delete',
      async () => {
        for (const ids of idBatches([...selection.selected])) await deleteBanners(campaignId, ids);
        selection.clear();
      },
      M.bannersDeleted,
      M.deleteBannersFailed,
    );
  };

  const uploading = status.state === 'uploading';
  return (
    <div className="tr-stack">
      <PlacementCard campaignId={campaignId} />
      <Card
        title="Banners"
        description="Each image becomes a banner with the name, URL, size and placement type you give it."
        actions={
          <Button
            variant="primary"
            icon={<ImagePlus size={16} aria-hidden />}
            onClick={() => setModal({ editing: null })}
          >
            Add banners
          </Button>
        }
      >
        <StatusLine status={status} />
        <Loaded state={list} what="banners">
          {() =>
            banners.length === 0 ? (
              <EmptyState icon={ImagePlus} title="No banners yet">
                Add banners to upload their images to Blaze. Over 10 images go 5 at a time.
              </EmptyState>
            ) : (
              <>
                <div className="ce-toolbar">
                  <span className="field-hint" data-testid="banner-count">
                    {banners.length} {banners.length === 1 ? 'banner' : 'banners'}
                    {selection.count ? ` · ${selection.count} selected` : ''}
                  </span>
                  <div className="ce-toolbar-end">
                    {(
                      [
                        {
                          key: 'activate',
                          label: 'Activate',
                          icon: Power,
                          variant: 'secondary',
                          run: () => setActive(1),
                        },
                        {
                          key: 'deactivate',
                          label: 'Deactivate',
                          icon: PowerOff,
                          variant: 'secondary',
                          run: () => setActive(0),
                        },
                        { key: 'delete', label: 'Delete', icon: Trash2, variant: 'danger', run: remove },
                      ] as const
                    ).map(({ key, label, icon: Icon, variant, run }) => (
                      <Button
                        key={key}
                        size="sm"
                        variant={variant}
                        icon={<Icon size={14} aria-hidden />}
                        disabled={!selection.count}
                        busy={busy === key}
                        onClick={() => void run()}
                      >
                        {label}
                      </Button>
                    ))}
                  </div>
                </div>
                <section
                  className="table-wrap ce-table-wrap"
                  aria-label="Banners, scrollable"
                  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
                  tabIndex={0}
                >
                  <table className="table ce-table" data-testid="banners-table">
                    <thead>
                      <tr>
                        <SelectAllHeader selection={selection} label="Select all banners" />
                        <th>Image</th>
                        <th>Name</th>
                        <th>Size</th>
                        <th>Placement</th>
                        <th>Status</th>
                        <ActionsHeader />
                      </tr>
                    </thead>
                    <tbody>
                      {banners.map((b) => (
                        <tr
                          key={b.id}
                          data-testid="banner-row"
                          data-name={b.name}
                          className={b.active ? '' : 'ce-row-paused'}
                        >
                          <SelectCell
                            selection={selection}
                            id={b.id}
                            label={`Select ${b.name} (${b.image_name})`}
                          />
                          <td>
                            <img
                              className="tr-thumb"
                              src={b.image_url}
                              alt={b.image_name}
                              width={48}
                              height={40}
                            />
                          </td>
                          <td>
                            <div className="tr-name">{b.name}</div>
                            <div className="field-hint">{b.image_name}</div>
                          </td>
                          <td className="num">
                            {b.width}×{b.height}
                          </td>
                          <td>{placementLabel(b.placement_type)}</td>
                          <td>
                            {b.active ? (
                              <span className="badge badge-success">
                                <CircleCheck size={12} aria-hidden /> Active
                              </span>
                            ) : (
                              <span className="badge badge-neutral">Inactive</span>
                            )}
                          </td>
                          <td className="actions">
                            <Button
                              size="sm"
                              variant="ghost"
                              icon={<Pencil size={14} aria-hidden />}
                              aria-label={`Edit ${b.name} (${b.image_name})`}
                              onClick={() => setModal({ editing: b })}
                            >
                              Edit
                            </Button>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </section>
              </>
            )
          }
        </Loaded>
      </Card>
      <BannerModal
        open={modal !== null}
        editing={modal?.editing ?? null}
        busy={uploading}
        onClose={() => {
          if (!uploading) setModal(null);
        }}
        onSubmit={(d) => void submit(d)}
      />
    </div>
  );
}
