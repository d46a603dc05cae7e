import { useState } from 'react';
import { BANNER_IMAGE_EXTENSIONS, type Banner, BLAZE_PLACEMENT_TYPES } from '../../../../schema/traffic-api';
import { NAME_MAX } from '../../../../schema/validators';
import { Button } from '../../components/button';
import { Field, SelectField, TextField } from '../../components/field';
import { hasExtension } from '../../components/file-upload';
import { Modal } from '../../components/modal';
import { draftFields } from '../../lib/draft-field';

// The add and edit banner modal of tab 7 (spec 2 §3, §5): name, url, placement type (default
// EMAIL_PLACEMENT), width, height, active and images: at least one to create, one at most to edit.

export type BannerDraft = {
  name: string;
  url: string;
  type: string;
  width: string;
  height: string;
  active: boolean;
  files: File[];
};

const PLACEMENT_LABELS: Record<string, string> = {
  EMAIL_PLACEMENT: 'Email',
  NEWSFEED_PLACEMENT: 'News feed',
  DISPLAY_PLACEMENT: 'Display',
};
export const placementLabel = (type: string) => PLACEMENT_LABELS[type] ?? type;

function draftOf(banner: Banner | null): BannerDraft {
  return {
    name: banner?.name ?? '',
    url: banner?.url ?? '',
    type: banner?.placement_type ?? 'EMAIL_PLACEMENT',
    width: banner ? String(banner.width) : '300',
    height: banner ? String(banner.height) : '250',
    active: banner ? banner.active === 1 : true,
    files: [],
  };
}

type Props = {
  open: boolean;
  editing: Banner | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (draft: BannerDraft) => void;
};

export function BannerModal({ open, editing, busy, onClose, onSubmit }: Props) {
  const [draft, setDraft] = useState<BannerDraft>(() => draftOf(editing));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [openFor, setOpenFor] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  // Reset the fields in the render that opens the modal (not an effect after it).
  if (openFor.open !== open || openFor.id !== (editing?.id ?? null)) {
    setOpenFor({ open, id: editing?.id ?? null });
    if (open) {
      setDraft(draftOf(editing));
      setErrors({});
    }
  }
  const set = <K extends keyof BannerDraft>(key: K, value: BannerDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const field = draftFields(draft, set, errors);

  const submit = () => {
    const next: Record<string, string> = {};
    if (!draft.name.trim()) next.name = 'Banner name is required.';
    if (!/^https?:\/\/\S+\.\S+/i.test(draft.url.trim())) next.url = 'Enter a valid http or https URL.';
    for (const key of ['width', 'height'] as const) {
      const n = Number(draft[key]);
      if (!Number.isInteger(n) || n < 1 || n > 5000)
        next[key] = 'Width and height must be whole numbers from 1 to 5000.';
    }
    if (!editing && draft.files.length === 0) next.images = 'Add at least one image for the banner.';
    if (editing && draft.files.length > 1) next.images = 'A banner being edited takes one image only.';
    const wrong = draft.files.find((f) => !hasExtension(f.name, BANNER_IMAGE_EXTENSIONS));
    if (wrong) next.images = `Images must be png, jpg, jpeg or gif files. (${wrong.name})`;
    setErrors(next);
    if (Object.keys(next).length === 0) onSubmit(draft);
  };

  return (
    <Modal
      open={open}
      title={editing ? 'Edit banner' : 'Add banners'}
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" busy={busy} onClick={submit}>
            {editing ? 'Save banner' : 'Upload banners'}
          </Button>
        </>
      }
    >
      <form
        className="form-grid"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField {...field('name', 'banner-name')} label="Name" maxLength={NAME_MAX} data-autofocus />
        <TextField {...field('url', 'banner-url')} label="Click URL" type="url" placeholder="https://" />
        <SelectField
          id="banner-type"
          label="Placement type"
          value={draft.type}
          onValueChange={(v) => set('type', v)}
          options={BLAZE_PLACEMENT_TYPES.map((t) => ({ value: t, label: placementLabel(t) }))}
        />
        <div className="tr-pair">
          <TextField {...field('width', 'banner-width')} label="Width (px)" inputMode="numeric" />
          <TextField {...field('height', 'banner-height')} label="Height (px)" inputMode="numeric" />
        </div>
        <label className="tr-check" htmlFor="banner-active">
          <input
            id="banner-active"
            type="checkbox"
            checked={draft.active}
            onChange={(e) => set('active', e.target.checked)}
          />
          Active
        </label>
        <Field
          id="banner-images"
          label={editing ? 'Replace image' : 'Images'}
          error={errors.images}
          optional={!!editing}
          hint={
            editing
              ? `Keeps ${editing.image_name} unless you choose a new png, jpg or gif.`
              : 'One banner per image: png, jpg, jpeg or gif, up to 2 MB each.'
          }
        >
          <input
            id="banner-images"
            className="input"
            type="file"
            accept=".png,.jpg,.jpeg,.gif"
            multiple={!editing}
            onChange={(e) => set('files', Array.from(e.target.files ?? []))}
          />
        </Field>
        {draft.files.length > 0 && (
          <p className="field-hint" data-testid="banner-file-count">
            {draft.files.length} {draft.files.length === 1 ? 'image' : 'images'} selected
          </p>
        )}
      </form>
    </Modal>
  );
}
