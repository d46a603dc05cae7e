// What the four item modals (landing page, offer, path, option) share: the modal with its form,
// the form reset on each opening, the one save step (check, save, toast, hand the new list up,
// close; 422s at their fields) and the fields every item has (name, share, devices, active).
import { type FormEvent, type ReactNode, useState } from 'react';
import type { z } from 'zod';
import type { CampaignType } from '../../../../schema/campaigns';
import { NAME_MAX } from '../../../../schema/validators';
import { Alert } from '../../components/alert';
import { SelectField, TextField } from '../../components/field';
import { FormModalFooter, Modal } from '../../components/modal';
import { notify } from '../../components/toaster';
import { fieldId, useForm } from '../../lib/forms';
import { useOnOpen } from '../../lib/use-on-open';
import { DevicePicker, parseAgents, Switch } from './editor-ui';
import type { Agent, PathItem } from './types';

type ItemValues = Record<string, string>;

/** What the shared item fields read of the modal's form, whatever its values. */
type ItemFields = {
  formId: string;
  values: Readonly<Record<string, string>>;
  errors: Readonly<Record<string, string | undefined>>;
  setValue: (name: string, value: string) => void;
  field: (name: string) => {
    id: string;
    value: string;
    onValueChange: (value: string) => void;
    error?: string;
  };
};

/** What one kind of item brings to its modal: the form's id, its noun, check, save and toast. */
export type ItemKindModal<R> = {
  formId: string;
  /** 'landing page': the title is 'Add landing page' or 'Edit landing page'. */
  noun: string;
  schema: z.ZodType;
  order: readonly string[];
  save: (body: Record<string, unknown>, id?: number) => Promise<{ result: R }>;
  message: string;
};

/** The modal of an item: its title, the form with its alert, Cancel and the submit button. */
export function ItemModal({
  form,
  submitLabel,
  children,
}: {
  form: {
    open: boolean;
    onClose: () => void;
    formId: string;
    noun: string;
    editing: boolean;
    busy: boolean;
    formError: string | null;
    submit: () => void;
  };
  /** Instead of 'Add <noun>' / 'Save <noun>'. */
  submitLabel?: string;
  children: ReactNode;
}) {
  const { open, onClose, formId, noun, editing, busy, formError } = form;
  return (
    <Modal
      open={open}
      title={editing ? `Edit ${noun}` : `Add ${noun}`}
      onClose={onClose}
      size="md"
      footer={
        <FormModalFooter form={formId} busy={busy} onCancel={onClose} data-testid={`${formId}-submit`}>
          {submitLabel ?? (editing ? `Save ${noun}` : `Add ${noun}`)}
        </FormModalFooter>
      }
    >
      <form
        id={formId}
        className="form"
        noValidate
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          form.submit();
        }}
      >
        {formError && <Alert>{formError}</Alert>}
        {children}
      </form>
    </Modal>
  );
}

export type Common = {
  open: boolean;
  campaignId: number;
  campaignType: CampaignType;
  agents: Agent[];
  onClose: () => void;
};

const pathOptions = (paths: PathItem[], required: boolean) => [
  ...(required ? [{ value: '', label: 'Select a path' }] : [{ value: '', label: 'No path' }]),
  ...paths.filter((p) => p.deleted === 0).map((p) => ({ value: String(p.pathId), label: p.name })),
];

/** The path an item starts with: its own, or the only path of a multiple-path campaign. */
export const initialPathId = (
  editingPathId: number | null | undefined,
  paths: PathItem[],
  isPathType: boolean,
) =>
  editingPathId ? String(editingPathId) : isPathType && paths.length === 1 ? String(paths[0].pathId) : '';

/** The values every item but an option starts with: its own, or a new item's. */
export const itemValues = (
  editing: { name: string; share: number; agents: string; active: number } | null,
) => ({
  name: editing?.name ?? '',
  share: String(editing?.share ?? 100),
  agents: editing?.agents ?? '1',
  active: String(editing?.active ?? 1),
});

/**
 * One item modal's form and save step. The form is reset to `initial()` each time the modal opens
 * (for another row or a new item). `submit` checks the body (the campaign id and the values, an
 * empty path or option sent as null) with the kind's schema (messages at the fields, in its
 * order), asks `confirm` (false stops here), then saves, toasts the kind's message, hands the new
 * list up and closes; the server's 422 messages land under their fields.
 */
export function useItemModal<T extends ItemValues, R>(
  kind: ItemKindModal<R>,
  options: {
    open: boolean;
    campaignId: number;
    /** The edited item's id (undefined for a new one): another id resets the form. */
    editingId: number | undefined;
    initial: () => T;
    onReset?: () => void;
    /** Asked after the check, before the save: false stops the save (the modal asks first). */
    confirm?: (values: T) => boolean;
    onSaved: (result: R) => void;
    onClose: () => void;
  },
) {
  const { open, editingId, initial, onReset, onClose } = options;
  const { formId, order } = kind;
  const form = useForm(formId, initial());
  useOnOpen(open, editingId, () => {
    form.setValues(initial());
    form.setErrors({});
    form.setFormError(null);
    onReset?.();
  });

  const submit = () => {
    const body: Record<string, unknown> = { campaignId: options.campaignId, ...form.values };
    for (const key of ['pathId', 'optionId']) if (body[key] === '') body[key] = null;
    if (!form.check(kind.schema, order, body).ok) return;
    if (options.confirm && !options.confirm(form.values)) return;
    void form.submit(async () => {
      try {
        const answer = await kind.save(body, editingId);
        notify.success(kind.message);
        options.onSaved(answer.result);
        onClose();
      } catch (err) {
        const text = form.applyServerError(err, order);
        if (text) form.setFormError(text);
      }
    });
  };

  const fields: ItemFields = {
    formId,
    values: form.values,
    errors: form.errors,
    setValue: (name, value) => form.setValue(name, value as T[string]),
    field: (name) => form.field(name),
  };
  return {
    ...form,
    formId,
    noun: kind.noun,
    editing: editingId !== undefined,
    open,
    onClose,
    submit,
    fields,
  };
}

/**
 * The offer modal's duplicate rotator participant email (spec 2 §5): the first save with an email
 * that `taken` finds on another offer shows the warning and stops; a second save of the same
 * email goes on. `reset` forgets the warning (a new opening, an edited email).
 */
export function useDuplicateEmailConfirmation(taken: (normalisedEmail: string) => boolean) {
  const [confirmed, setConfirmed] = useState<string | null>(null);
  const normalise = (email: string) => email.trim().toLowerCase();
  const duplicate = (email: string) => normalise(email) !== '' && taken(normalise(email));
  return {
    warningShown: (email: string) => duplicate(email) && confirmed === normalise(email),
    /** The save step's confirm: false (and the warning shown) on the first save of a duplicate. */
    confirm: (email: string) => {
      if (!duplicate(email) || confirmed === normalise(email)) return true;
      setConfirmed(normalise(email));
      return false;
    },
    reset: () => setConfirmed(null),
  };
}

/** The item's name, focused when the modal opens. */
export function NameField({
  form,
  placeholder,
  hint,
}: {
  form: ItemFields;
  placeholder: string;
  hint?: string;
}) {
  return (
    <TextField
      {...form.field('name')}
      label="Name"
      maxLength={NAME_MAX}
      placeholder={placeholder}
      hint={hint}
      data-autofocus
    />
  );
}

/** The page's address, trimmed as it is typed. */
export function UrlField({
  form,
  placeholder,
  hint,
}: {
  form: ItemFields;
  placeholder: string;
  hint: string;
}) {
  const { onValueChange, ...field } = form.field('url');
  return (
    <TextField
      {...field}
      onValueChange={(v) => onValueChange(v.trim())}
      label="URL"
      placeholder={placeholder}
      hint={hint}
      spellCheck={false}
      inputMode="url"
    />
  );
}

/**
 * The path of a landing or offer page: offered when the campaign has paths, and required (no
 * "No path") when it is of the multiple-path type.
 */
export function PathField({
  form,
  paths,
  isPathType,
}: {
  form: ItemFields;
  paths: PathItem[];
  isPathType: boolean;
}) {
  if (!isPathType && paths.length === 0) return null;
  return <SelectField {...form.field('pathId')} label="Path" options={pathOptions(paths, isPathType)} />;
}

/** The item's traffic weight among its siblings. */
export function ShareField({ form, hint }: { form: ItemFields; hint?: string }) {
  return <TextField {...form.field('share')} label="Share (weight)" inputMode="numeric" hint={hint} />;
}

/** The item's devices (when `agents` are given) and its Active switch. */
export function DevicesAndActive({
  form,
  agents,
  description,
}: {
  form: ItemFields;
  agents?: Agent[];
  description?: string;
}) {
  const { formId, values, setValue, errors } = form;
  return (
    <>
      {agents && (
        <DevicePicker
          id={fieldId(formId, 'agents')}
          agents={agents}
          value={parseAgents(values.agents)}
          onChange={(ids) => setValue('agents', ids.join(','))}
          error={errors.agents}
        />
      )}
      <Switch
        id={fieldId(formId, 'active')}
        checked={values.active === '1'}
        onChange={(on) => setValue('active', on ? '1' : '0')}
        label="Active"
        description={description}
      />
    </>
  );
}
