import { CircleAlert, ImagePlus, Lock, Plus, Save, Trash2, Upload } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import {
  APPLE_ASSET_EXTENSIONS,
  APPLE_ASSET_MAX_BYTES,
  EMAIL_ASSET_EXTENSIONS,
  EMAIL_ASSET_MAX_BYTES,
  TRAFFIC_MESSAGES as M,
  MAX_TRAFFIC_ASSETS,
  type TrafficAsset,
  type TrafficHeadline,
} from '../../../../schema/traffic-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { Field, TextField } from '../../components/field';
import { hasExtension } from '../../components/file-upload';
import { Spinner } from '../../components/spinner';
import { notify } from '../../components/toaster';
import { formatBytes } from '../../lib/format';
import { patchedAt } from '../../lib/rows';
import { withToggled } from '../../lib/sets';
import { deleteTrafficAssets, idBatches, saveTrafficAssets, saveTrafficHeadlines } from './traffic-api';

// Tab 8's assets and headlines (spec 2 §4, §5, §9; spec 4's CPC builder): assets upload 5 at a
// time with the uploaded/total counter; a failure shows for 30 s and the status returns to idle.

const FAIL_RESET_MS = 30_000;
type UploadState = { state: 'idle' | 'uploading' | 'fail'; uploaded: number; total: number; message: string };
const IDLE: UploadState = { state: 'idle', uploaded: 0, total: 0, message: '' };

function assetRulesOf(traffic: string) {
  return traffic === 'Apple News'
    ? {
        extensions: APPLE_ASSET_EXTENSIONS,
        maxBytes: APPLE_ASSET_MAX_BYTES,
        label: 'png, jpg or jpeg up to 500 KB',
      }
    : {
        extensions: EMAIL_ASSET_EXTENSIONS,
        maxBytes: EMAIL_ASSET_MAX_BYTES,
        label: 'png, jpg, jpeg or gif up to 1000 KB',
      };
}

type AssetsProps = {
  campaignId: number;
  traffic: string;
  assets: TrafficAsset[];
  onChanged: () => Promise<unknown>;
};

export function AssetsCard({ campaignId, traffic, assets, onChanged }: AssetsProps) {
  const confirm = useConfirm();
  const rules = assetRulesOf(traffic);
  const [upload, setUpload] = useState<UploadState>(IDLE);
  const [flags, setFlags] = useState({ size: false, count: false });
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [deleting, setDeleting] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const resetTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(resetTimer.current), []);

  const failed = (message: string, uploaded: number, total: number) => {
    setUpload({ state: 'fail', uploaded, total, message });
    window.clearTimeout(resetTimer.current);
    resetTimer.current = window.setTimeout(() => setUpload(IDLE), FAIL_RESET_MS);
  };

  const start = async (files: File[]) => {
    if (files.length === 0) return;
    const size = files.some((f) => f.size > rules.maxBytes);
    const count = assets.length + files.length > MAX_TRAFFIC_ASSETS;
    setFlags({ size, count });
    const wrong = files.find((f) => !hasExtension(f.name, rules.extensions));
    if (size || count || wrong) {
      failed(
        wrong
          ? `${wrong.name}: use ${rules.label}.`
          : size
            ? `Each asset must be ${rules.label}.`
            : 'A campaign holds at most 200 assets.',
        0,
        files.length,
      );
      return;
    }
    let uploaded = 0;
    setUpload({ state: 'uploading', uploaded, total: files.length, message: '' });
    for (const batch of idBatches(files.map((_, i) => i)).map((ix) => ix.map((i) => files[i]))) {
      const form = new FormData();
      form.set('campaign_id', String(campaignId));
      for (const f of batch) form.append('images[]', f);
      try {
        await saveTrafficAssets(form);
        uploaded += batch.length;
        setUpload({ state: 'uploading', uploaded, total: files.length, message: '' });
      } catch (err) {
        const fields = err instanceof ApiError ? err.fieldErrors : {};
        setFlags({ size: 'size_exceeded' in fields, count: 'count_exceeded' in fields });
        failed(err instanceof ApiError ? err.firstMessage : String(err), uploaded, files.length);
        await onChanged();
        return;
      }
    }
    setUpload(IDLE);
    notify.success(M.assetsSaved);
    await onChanged();
  };

  const remove = async () => {
    const names = [...checked].filter((n) => assets.some((a) => a.name === n && a.editable));
    const ok = await confirm({
      title: 'Delete assets',
      message: `Delete ${names.length} ${names.length === 1 ? 'asset' : 'assets'}?`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    setDeleting(true);
    try {
      for (const part of idBatches(
        names.map((_, i) => i),
        200,
      ))
        await deleteTrafficAssets(
          campaignId,
          part.map((i) => names[i]),
        );
      setChecked(new Set());
    } catch {
      notify.error(M.deleteAssetsFailed);
    } finally {
      setDeleting(false);
      await onChanged();
    }
  };

  const deletable = [...checked].filter((n) => assets.some((a) => a.name === n && a.editable)).length;
  return (
    <Card
      title="Assets"
      description={`Creative images: ${rules.label}, at most ${MAX_TRAFFIC_ASSETS} per campaign.`}
      actions={
        <>
          <Button
            size="sm"
            variant="danger"
            icon={<Trash2 size={14} aria-hidden />}
            disabled={!deletable}
            busy={deleting}
            onClick={() => void remove()}
          >
            Delete selected
          </Button>
          <Button
            size="sm"
            variant="primary"
            icon={<Upload size={14} aria-hidden />}
            busy={upload.state === 'uploading'}
            onClick={() => input.current?.click()}
          >
            Upload assets
          </Button>
        </>
      }
    >
      <label className="sr-only" htmlFor="traffic-assets-input">
        Asset images
      </label>
      <input
        ref={input}
        id="traffic-assets-input"
        type="file"
        className="sr-only"
        multiple
        accept={rules.extensions.map((e) => `.${e}`).join(',')}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          void start(files);
        }}
      />
      <div className="tr-counter" data-testid="asset-counter" aria-live="polite">
        <strong>{assets.length}</strong> of {MAX_TRAFFIC_ASSETS} assets
        {upload.state === 'uploading' && (
          <span className="tr-counter-progress">
            <Spinner size={14} /> Uploaded {upload.uploaded}/{upload.total}
          </span>
        )}
      </div>
      {upload.state === 'fail' && (
        <div className="status-line tr-upload-fail" role="alert" data-testid="asset-upload-fail">
          <CircleAlert size={16} aria-hidden /> Uploaded {upload.uploaded}/{upload.total}. {upload.message}
        </div>
      )}
      {(flags.size || flags.count) && upload.state === 'fail' && (
        <ul className="tr-flags">
          {flags.size && <li data-testid="flag-size">Size exceeded: {rules.label}.</li>}
          {flags.count && (
            <li data-testid="flag-count">Count exceeded: at most {MAX_TRAFFIC_ASSETS} assets.</li>
          )}
        </ul>
      )}
      {assets.length === 0 ? (
        <EmptyState icon={ImagePlus} title="No assets yet">
          Upload the images the provider will run. They go 5 at a time.
        </EmptyState>
      ) : (
        <ul className="tr-assets" data-testid="asset-list">
          {assets.map((a) => (
            <li key={a.name} className="tr-asset" data-testid="asset" data-name={a.name}>
              <img src={a.url} alt={a.name} />
              <label className="tr-asset-name">
                <input
                  type="checkbox"
                  disabled={!a.editable}
                  checked={checked.has(a.name)}
                  onChange={(e) => setChecked((s) => withToggled(s, [a.name], e.target.checked))}
                />
                <span>{a.name}</span>
              </label>
              <span className="field-hint">
                {formatBytes(a.size)}
                {!a.editable && (
                  <span className="tr-locked">
                    <Lock size={12} aria-hidden /> Submitted
                  </span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

type HeadlineDraft = { headline: string; image: string; file: File | null };

export function HeadlinesCard({
  campaignId,
  headlines,
  locked,
  onChanged,
}: {
  campaignId: number;
  headlines: TrafficHeadline[];
  locked: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const [rows, setRows] = useState<HeadlineDraft[]>(() =>
    headlines.length
      ? headlines.map((h) => ({ ...h, file: null }))
      : [{ headline: '', image: '', file: null }],
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const save = async () => {
    if (rows.some((r) => !r.headline.trim())) {
      setError('Every headline needs its text.');
      return;
    }
    setError('');
    const form = new FormData();
    form.set('campaign_id', String(campaignId));
    for (const r of rows) form.append('headlines[]', r.headline.trim());
    // One entry per headline, '' where none is chosen (the server matches them by position).
    for (const r of rows) form.append('headlines_images[]', r.file ?? '');
    setBusy(true);
    try {
      await saveTrafficHeadlines(form);
      notify.success(M.headlinesSaved);
      await onChanged();
    } catch (err) {
      notify.error(err instanceof ApiError ? err.firstMessage : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title="Headlines"
      description="Each headline with its image, as the provider shows it."
      actions={
        !locked && (
          <Button
            size="sm"
            icon={<Plus size={14} aria-hidden />}
            onClick={() => setRows((r) => [...r, { headline: '', image: '', file: null }])}
          >
            Add headline
          </Button>
        )
      }
    >
      <div className="tr-headlines">
        {rows.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved
          <div key={i} className="tr-headline-row">
            <TextField
              id={`headline-${i}`}
              label={`Headline ${i + 1}`}
              value={r.headline}
              disabled={locked}
              onValueChange={(v) => setRows((all) => patchedAt(all, i, { headline: v }))}
              error={error && !r.headline.trim() ? error : undefined}
            />
            <Field
              id={`headline-image-${i}`}
              label="Image"
              optional
              hint={r.file ? r.file.name : r.image || 'No image'}
            >
              <input
                id={`headline-image-${i}`}
                className="input"
                type="file"
                accept=".png,.jpg,.jpeg,.gif"
                disabled={locked}
                onChange={(e) => {
                  const file = e.target.files?.[0] ?? null;
                  setRows((all) => patchedAt(all, i, { file }));
                }}
              />
            </Field>
          </div>
        ))}
      </div>
      {!locked && (
        <div className="ce-savebar">
          <span className="field-hint">Headline images follow the asset rules.</span>
          <Button
            variant="primary"
            icon={<Save size={16} aria-hidden />}
            busy={busy}
            onClick={() => void save()}
          >
            Save headlines
          </Button>
        </div>
      )}
    </Card>
  );
}
