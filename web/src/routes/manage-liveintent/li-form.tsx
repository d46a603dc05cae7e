// The skeleton every LiveIntent form shares (spec 4 §2, §5): the card with its form, the alert,
// the one submit button ('li-save') and the success dialog that returns to the manage screen;
// and for the forms over useForm, the load of the edited object and the save through its verb.
import { type LucideIcon, Save } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { Alert } from '../../components/alert';
import { Card } from '../../components/card';
import { TextField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import type { useForm } from '../../lib/forms';
import { send } from './api';
import { errorText, SuccessDialog, toast } from './shared';

export function LiFormCard({
  title,
  description,
  formId,
  onSubmit,
  busy,
  submitLabel,
  submitIcon: Icon = Save,
  formError,
  success,
  children,
}: {
  title: string;
  description: string;
  formId: string;
  onSubmit: (event: FormEvent) => void;
  busy: boolean;
  submitLabel: string;
  submitIcon?: LucideIcon;
  /** The message above the fields (forms that show one). */
  formError?: string | null;
  /** The success dialog's message once saved, and where it returns to. */
  success?: { message: string | null; back: string };
  children: ReactNode;
}) {
  return (
    <Card title={title} description={description}>
      <form id={formId} className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        {children}
        <FormSubmitRow icon={Icon} busy={busy} testId="li-save">
          {submitLabel}
        </FormSubmitRow>
      </form>
      {success && <SuccessDialog message={success.message} back={success.back} />}
    </Card>
  );
}

/**
 * The card of a form over useLiSave: 'New …' or 'Edit …' by whether an object is edited, its
 * submit 'Create …' or 'Save …' (`buttonNoun` where the button says it shorter), and the success
 * dialog that returns to `back`.
 */
export function LiSaveCard({
  noun,
  buttonNoun = noun,
  editing,
  description,
  formId,
  form,
  save,
  back,
  showFormError,
  children,
}: {
  noun: string;
  buttonNoun?: string;
  editing: boolean;
  description: string;
  formId: string;
  form: { busy: boolean; formError: string | null };
  save: { done: string | null; onSubmit: (event: FormEvent) => void };
  back: string;
  /** Shows the form's message above the fields (the forms that have one). */
  showFormError?: boolean;
  children: ReactNode;
}) {
  return (
    <LiFormCard
      title={`${editing ? 'Edit' : 'New'} ${noun}`}
      description={description}
      formId={formId}
      onSubmit={save.onSubmit}
      busy={form.busy}
      submitLabel={`${editing ? 'Save' : 'Create'} ${buttonNoun}`}
      formError={showFormError ? form.formError : undefined}
      success={{ message: save.done, back }}
    >
      {children}
    </LiFormCard>
  );
}

type DateKey = 'startDate' | 'startTime' | 'endDate' | 'endTime';

/** The start and end date and time of a campaign or line item (the platform's schedule). */
export function ScheduleFields({
  field,
}: {
  field: (name: DateKey) => {
    id: string;
    value: string;
    onValueChange: (value: string) => void;
    error?: string;
  };
}) {
  return (
    <div className="form-grid li-dates">
      <TextField {...field('startDate')} label="Start date" type="date" />
      <TextField {...field('startTime')} label="Start time" type="time" />
      <TextField {...field('endDate')} label="End date" type="date" />
      <TextField {...field('endTime')} label="End time" type="time" />
    </div>
  );
}

/**
 * A form over useForm that creates, or edits the object `refId` names: `load` fills the form with
 * the object first (`loaded` stays false until it has); `onSubmit` checks `payload()` with the
 * schema, sends it through the create or edit verb (a failure toasts its message) and keeps the
 * answer's message for the success dialog (`done`).
 */
export function useLiSave<T extends Record<string, string>, S extends z.ZodType>(
  form: ReturnType<typeof useForm<T>>,
  options: {
    campaignId: number;
    refId: string | undefined;
    load: (campaignId: number, refId: string) => Promise<void>;
    verbs: { create: string; edit: string };
    schema: S;
    order: readonly string[];
    payload: () => Record<string, unknown>;
  },
) {
  const { campaignId, refId } = options;
  const [loaded, setLoaded] = useState(!refId);
  const [done, setDone] = useState<string | null>(null);
  // The latest load, called once per object: the form's setters do not change between renders.
  const load = useRef(options.load);
  load.current = options.load;
  useEffect(() => {
    if (!refId) return;
    load
      .current(campaignId, refId)
      .then(() => setLoaded(true))
      .catch((err) => toast.error(errorText(err)));
  }, [campaignId, refId]);

  const onSubmit = form.onSubmitWith({
    schema: options.schema,
    order: options.order,
    input: options.payload,
    send: async () => {
      try {
        const res = await send(refId ? options.verbs.edit : options.verbs.create, options.payload());
        setDone(res.message);
      } catch (err) {
        toast.error(errorText(err));
        throw err;
      }
    },
  });
  return { loaded, done, onSubmit };
}
