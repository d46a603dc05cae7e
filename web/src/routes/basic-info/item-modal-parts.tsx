// What the four item modals (landing page, offer, path, option) share: the modal with its form,
// the form reset on each opening, and the save that toasts, hands the new list up and closes.
import type { FormEvent, ReactNode } from 'react';
import type { CampaignType } from '../../../../schema/campaigns';
import { Button } from '../../components/button';
import { Modal } from '../../components/modal';
import { notify } from '../../components/toaster';
import { useForm } from '../../lib/forms';
import { useOnOpen } from '../../lib/use-on-open';
import type { Agent, PathItem } from './types';

export function FormModal({
  open,
  title,
  formId,
  busy,
  submitLabel,
  onClose,
  onSubmit,
  children,
}: {
  open: boolean;
  title: string;
  formId: string;
  busy: boolean;
  submitLabel: string;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={busy} data-testid={`${formId}-submit`}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="form"
        noValidate
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </Modal>
  );
}

export const id = (form: string, name: string) => `${form}-${name}`;

export type Common = {
  open: boolean;
  campaignId: number;
  campaignType: CampaignType;
  agents: Agent[];
  onClose: () => void;
};

export const pathOptions = (paths: PathItem[], required: boolean) => [
  ...(required ? [{ value: '', label: 'Select a path' }] : [{ value: '', label: 'No path' }]),
  ...paths.filter((p) => p.deleted === 0).map((p) => ({ value: String(p.pathId), label: p.name })),
];

/** The modal's form, reset to `initial()` each time it opens (for another row or a new item). */
export function useItemForm<T extends Record<string, string>>(
  formId: string,
  initial: () => T,
  open: boolean,
  resetKey: unknown,
  onReset?: () => void,
) {
  const form = useForm(formId, initial());
  useOnOpen(open, resetKey, () => {
    form.setValues(initial());
    form.setErrors({});
    form.setFormError(null);
    onReset?.();
  });
  return form;
}

/** Saves through `save`, then toasts `message`, hands the new list up and closes; 422s go to the fields. */
export function saveItem<R>(
  form: Pick<ReturnType<typeof useForm>, 'submit' | 'applyServerError' | 'setFormError'>,
  order: readonly string[],
  save: () => Promise<{ result: R }>,
  message: string,
  onSaved: (result: R) => void,
  onClose: () => void,
) {
  void form.submit(async () => {
    try {
      const answer = await save();
      notify.success(message);
      onSaved(answer.result);
      onClose();
    } catch (err) {
      const text = form.applyServerError(err, order);
      if (text) form.setFormError(text);
    }
  });
}
