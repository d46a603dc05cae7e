// Ads (spec 4 §2, §5, §8): many images at once, one click URL copied to all, uploaded one after
// another; the failed ones stay in the list with their messages. Editing takes one image.
import { ImagePlus, Trash2, Upload } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { mutate } from 'swr';
import { AD_IMAGE_MAX_BYTES, LIVEINTENT_MESSAGES as M } from '../../../../schema/liveintent-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Field, SelectField, TextField } from '../../components/field';
import { PageSpinner } from '../../components/spinner';
import { notify } from '../../components/toaster';
import { createAd, getAd, keys, send, useLineItems } from './api';
import { LiFormCard } from './li-form';
import { errorText, managePath, toast } from './shared';

/** `invalid`: refused before upload (stops the submit); `failed`: the server's answer to its upload. */
type Picked = { key: string; file: File; name: string; invalid: string | null; failed: string | null };

/** The client's checks of spec 4 §5; the server checks the bytes again. */
function fileError(file: File): string | null {
  if (!file.type.startsWith('image/')) return `${file.name} is not an image file`;
  if (file.size >= AD_IMAGE_MAX_BYTES) return `File size for ${file.name} must be less than 250kb`;
  return null;
}

function readImage(file: File): Promise<{ dataUrl: string; width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(new Error('Error converting image to base64'));
    reader.onload = () => {
      const dataUrl = String(reader.result);
      const img = new Image();
      img.onload = () => resolve({ dataUrl, width: img.naturalWidth, height: img.naturalHeight });
      // An image the browser cannot draw still goes to the server, which has the last word.
      img.onerror = () => resolve({ dataUrl, width: 0, height: 0 });
      img.src = dataUrl;
    };
    reader.readAsDataURL(file);
  });
}

/** The drop label and its hidden file input of images. */
function ImagePicker({
  id,
  label,
  multiple,
  onChange,
  testId,
}: {
  id: string;
  label: string;
  multiple?: boolean;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  testId?: string;
}) {
  return (
    <>
      <label className="li-drop" htmlFor={id}>
        <ImagePlus size={18} aria-hidden />
        <span>{label}</span>
      </label>
      <input
        id={id}
        className="li-file-input"
        type="file"
        accept="image/*"
        multiple={multiple}
        onChange={onChange}
        data-testid={testId}
      />
    </>
  );
}

/** Where a click on the ad goes. */
function ClickUrlField(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  placeholder?: string;
}) {
  const { onChange, ...rest } = props;
  return <TextField {...rest} label="Click URL" onValueChange={onChange} type="url" />;
}

const baseName = (name: string) => name.replace(/\.[^.]+$/, '');

export function CreateAdsForm({ id }: { id: number }) {
  const navigate = useNavigate();
  const lineItems = useLineItems(id);
  const inputId = useId();
  const [lineItem, setLineItem] = useState('');
  const [clickUrl, setClickUrl] = useState('');
  const [files, setFiles] = useState<Picked[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const items = lineItems.data?.lineItems ?? [];
  useEffect(() => {
    if (!lineItem && items[0]) setLineItem(items[0].li_refid);
  }, [items, lineItem]);

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(e.target.files ?? [])].map((file) => ({
      key: `${file.name}-${file.size}-${Math.random()}`,
      file,
      name: baseName(file.name),
      invalid: fileError(file),
      failed: null,
    }));
    setFiles((f) => [...f, ...chosen]);
    e.target.value = '';
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found: Record<string, string> = {};
    if (!lineItem) found.lineitem = M.required;
    if (!clickUrl.trim()) found.clickUrl = M.required;
    if (files.length === 0) found.files = M.selectImage;
    for (const f of files) if (!f.name.trim()) found[`name-${f.key}`] = M.required;
    setErrors(found);
    if (Object.keys(found).length) return;
    if (files.some((f) => f.invalid)) {
      toast.error('Remove the files marked in red first.');
      return;
    }
    setBusy(true);
    const failed: Picked[] = [];
    for (const f of files) {
      try {
        const image = await readImage(f.file);
        await createAd({
          campaignId: id,
          lineitem_ref_id: lineItem,
          adName: f.name.trim(),
          clickUrl: clickUrl.trim(),
          mediaUrl: image.dataUrl,
          width: image.width,
          height: image.height,
        });
      } catch (err) {
        const message = err instanceof ApiError ? err.firstMessage : errorText(err);
        failed.push({ ...f, failed: `${f.name}: ${message}` });
      }
    }
    setBusy(false);
    await mutate(keys.ads(id));
    setFiles(failed);
    if (failed.length === 0) {
      toast.success(files.length > 1 ? 'Ads created!' : M.adCreated);
      navigate(managePath(id, 'ads'));
      return;
    }
    notify.error('Some ads failed to upload', {
      duration: 3000,
      description: failed.map((f) => f.failed).join('\n'),
    });
  };

  if (!lineItems.data) return <PageSpinner />;
  return (
    <LiFormCard
      title="New ads"
      description="Each image becomes an ad of the chosen line item; the click URL is used for all of them."
      formId="li-ads-form"
      onSubmit={submit}
      busy={busy}
      submitLabel="Upload ads"
      submitIcon={Upload}
    >
      <div className="form-grid">
        <SelectField
          id="li-ads-lineitem"
          label="Line item"
          value={lineItem}
          onValueChange={setLineItem}
          error={errors.lineitem}
          options={[
            { value: '', label: items.length ? 'Select a line item' : 'Create a line item first' },
            ...items.map((l) => ({ value: l.li_refid, label: l.li_name })),
          ]}
        />
        <ClickUrlField
          id="li-ads-click-url"
          value={clickUrl}
          onChange={setClickUrl}
          error={errors.clickUrl}
          placeholder="https://offer.example/landing"
        />
      </div>
      <Field
        id={inputId}
        label="Images"
        error={errors.files}
        hint="PNG, JPEG, GIF or WebP, under 250 KB each"
      >
        <ImagePicker id={inputId} label="Choose images" multiple onChange={pick} testId="li-ads-files" />
      </Field>
      {files.length > 0 && (
        <ul className="li-files" aria-label="Images to upload">
          {files.map((f) => (
            <li
              key={f.key}
              className={f.invalid || f.failed ? 'li-file has-error' : 'li-file'}
              data-testid="li-ads-file"
            >
              <TextField
                id={`li-ad-name-${f.key}`}
                label={`Ad name for ${f.file.name}`}
                value={f.name}
                error={errors[`name-${f.key}`]}
                onValueChange={(name) =>
                  setFiles((all) => all.map((x) => (x.key === f.key ? { ...x, name } : x)))
                }
              />
              {(f.invalid || f.failed) && <p className="field-error">{f.invalid ?? f.failed}</p>}
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${f.file.name}`}
                icon={<Trash2 size={14} aria-hidden />}
                onClick={() => setFiles((all) => all.filter((x) => x.key !== f.key))}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </LiFormCard>
  );
}

export function EditAdForm({ id }: { id: number }) {
  const { refId = '' } = useParams();
  const inputId = useId();
  const [loaded, setLoaded] = useState(false);
  const [name, setName] = useState('');
  const [clickUrl, setClickUrl] = useState('');
  const [image, setImage] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    getAd(id, refId)
      .then(({ ad }) => {
        setName(ad.li_name);
        setClickUrl(ad.li_click_url);
        setImage(ad.li_media_url);
        setLoaded(true);
      })
      .catch((err) => toast.error(errorText(err)));
  }, [id, refId]);

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = file.type.startsWith('image/')
      ? file.size >= AD_IMAGE_MAX_BYTES
        ? M.tooLarge
        : null
      : M.notImage;
    if (problem) {
      setErrors({ mediaUrl: problem });
      return;
    }
    try {
      setImage((await readImage(file)).dataUrl);
      setErrors({});
    } catch {
      toast.error('Error converting image to base64');
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found: Record<string, string> = {};
    if (!image) found.mediaUrl = M.selectImage;
    if (!name.trim()) found.adName = M.required;
    if (!clickUrl.trim()) found.clickUrl = M.required;
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setFormError(null);
    try {
      const res = await send('edit-ad', { campaignId: id, refId, adName: name, clickUrl, mediaUrl: image });
      setDone(res.message);
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.fieldErrors);
      setFormError(errorText(err));
      toast.error(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  if (!loaded) return <PageSpinner />;
  return (
    <LiFormCard
      title="Edit ad"
      description="Name, click URL and image of the ad on LiveIntent."
      formId="li-ad-form"
      onSubmit={submit}
      busy={busy}
      submitLabel="Save ad"
      formError={formError}
      success={{ message: done, back: managePath(id, 'ads') }}
    >
      <div className="form-grid">
        <TextField
          id="li-ad-name"
          label="Ad name"
          value={name}
          onValueChange={setName}
          error={errors.adName}
        />
        <ClickUrlField id="li-ad-click-url" value={clickUrl} onChange={setClickUrl} error={errors.clickUrl} />
      </div>
      <Field id={inputId} label="Image" error={errors.mediaUrl}>
        <div className="li-edit-image">
          {image ? (
            <img
              className="li-preview"
              src={image.replace(/^https?:\/\/[^/]+/, '')}
              alt={`Current ad ${name}`}
            />
          ) : null}
          <ImagePicker id={inputId} label="Replace image" onChange={(e) => void pick(e)} />
          {image && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setImage('')}
              icon={<Trash2 size={14} aria-hidden />}
            >
              Clear image
            </Button>
          )}
        </div>
      </Field>
    </LiFormCard>
  );
}
