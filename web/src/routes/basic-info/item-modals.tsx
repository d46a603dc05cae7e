// Add and edit modals of landing pages, offers, paths and options (spec 2 §2, §7): the shared
// zod schemas check the form first, the server's 422 messages land under their fields.
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import {
  addLandingSchema,
  addOfferSchema,
  addOptionSchema,
  addPathSchema,
  CAMPAIGN_MESSAGES,
  LANDING_FIELD_ORDER,
  OFFER_FIELD_ORDER,
  OPTION_FIELD_ORDER,
  PATH_FIELD_ORDER,
} from '../../../../schema/campaign-api';
import type { CampaignType } from '../../../../schema/campaigns';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/field';
import { Modal } from '../../components/modal';
import { notify } from '../../components/toaster';
import { useForm } from '../../lib/forms';
import { saveLanding, saveOffer, saveOption, savePath } from './api';
import { DevicePicker, parseAgents, Switch } from './editor-ui';
import type { Agent, Landing, Offer, OptionItem, PathItem } from './types';

function FormModal({
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

const id = (form: string, name: string) => `${form}-${name}`;

type Common = {
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

// ---- landing page ------------------------------------------------------------------------------

// ---- shared by the four item modals ------------------------------------------------------------

/** The modal's form, reset to `initial()` each time it opens (for another row or a new item). */
function useItemForm<T extends Record<string, string>>(
  formId: string,
  initial: () => T,
  open: boolean,
  resetKey: unknown,
  onReset?: () => void,
) {
  const form = useForm(formId, initial());
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the modal opens for another row
  useEffect(() => {
    if (open) {
      form.setValues(initial());
      form.setErrors({});
      form.setFormError(null);
      onReset?.();
    }
  }, [open, resetKey]);
  return form;
}

/** Saves through `save`, then toasts `message`, hands the new list up and closes; 422s go to the fields. */
function saveItem<R>(
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

export function LandingModal({
  open,
  campaignId,
  campaignType,
  agents,
  paths,
  editing,
  onClose,
  onSaved,
}: Common & { paths: PathItem[]; editing: Landing | null; onSaved: (result: Landing[]) => void }) {
  const FORM = 'landing-form';
  const isPathType = campaignType === 'multiple_path_type';
  const initial = () => ({
    name: editing?.name ?? '',
    url: editing?.url ?? '',
    share: String(editing?.share ?? 100),
    pathId: editing?.pathId
      ? String(editing.pathId)
      : isPathType && paths.length === 1
        ? String(paths[0].pathId)
        : '',
    agents: editing?.agents ?? '1',
    active: String(editing?.active ?? 1),
  });
  const form = useItemForm(FORM, initial, open, editing?.landingPageId);
  const { values, setValue, errors, formError, busy } = form;

  const submit = () => {
    const body = { campaignId, ...values, agents: values.agents, pathId: values.pathId || null };
    const checked = form.check(addLandingSchema, LANDING_FIELD_ORDER, body);
    if (!checked.ok) return;
    saveItem(
      form,
      LANDING_FIELD_ORDER,
      () => saveLanding(body, editing?.landingPageId),
      CAMPAIGN_MESSAGES.landingSaved,
      onSaved,
      onClose,
    );
  };

  return (
    <FormModal
      open={open}
      title={editing ? 'Edit landing page' : 'Add landing page'}
      formId={FORM}
      busy={busy}
      submitLabel={editing ? 'Save landing page' : 'Add landing page'}
      onClose={onClose}
      onSubmit={submit}
    >
      {formError && <Alert>{formError}</Alert>}
      <TextField
        id={id(FORM, 'name')}
        label="Name"
        value={values.name}
        onValueChange={(v) => setValue('name', v)}
        error={errors.name}
        placeholder="Quiz page v2"
        data-autofocus
      />
      <TextField
        id={id(FORM, 'url')}
        label="URL"
        value={values.url}
        onValueChange={(v) => setValue('url', v.trim())}
        error={errors.url}
        placeholder="https://example.com/lander"
        hint="Macros such as {clickid} are filled in when a visitor is sent here."
        spellCheck={false}
        inputMode="url"
      />
      <div className="form-grid">
        <TextField
          id={id(FORM, 'share')}
          label="Share (weight)"
          value={values.share}
          onValueChange={(v) => setValue('share', v)}
          error={errors.share}
          inputMode="numeric"
          hint="Traffic splits by weight among the active pages."
        />
        {(isPathType || paths.length > 0) && (
          <SelectField
            id={id(FORM, 'pathId')}
            label="Path"
            value={values.pathId}
            onValueChange={(v) => setValue('pathId', v)}
            options={pathOptions(paths, isPathType)}
            error={errors.pathId}
          />
        )}
      </div>
      <DevicePicker
        id={id(FORM, 'agents')}
        agents={agents}
        value={parseAgents(values.agents)}
        onChange={(ids) => setValue('agents', ids.join(','))}
        error={errors.agents}
      />
      <Switch
        id={id(FORM, 'active')}
        checked={values.active === '1'}
        onChange={(on) => setValue('active', on ? '1' : '0')}
        label="Active"
        description="Paused pages get no traffic and keep their statistics."
      />
    </FormModal>
  );
}

// ---- offer page --------------------------------------------------------------------------------

export const DUPLICATE_EMAIL_WARNING =
  'Another offer page already uses this rotator participant email. Select Save again to use it anyway.';

export function OfferModal({
  open,
  campaignId,
  campaignType,
  trafficSource,
  agents,
  paths,
  options,
  offers,
  editing,
  onClose,
  onSaved,
}: Common & {
  trafficSource: string;
  paths: PathItem[];
  options: OptionItem[];
  offers: Offer[];
  editing: Offer | null;
  onSaved: (result: Offer[]) => void;
}) {
  const FORM = 'offer-form';
  const isPathType = campaignType === 'multiple_path_type';
  const isOptionType = campaignType === 'multiple_option_type';
  const liveOptions = options.filter((o) => o.deleted === 0);
  const initial = () => ({
    name: editing?.name ?? '',
    url: editing?.url ?? '',
    share: String(editing?.share ?? 100),
    payout: editing ? String(editing.payout) : '',
    pathId: editing?.pathId
      ? String(editing.pathId)
      : isPathType && paths.length === 1
        ? String(paths[0].pathId)
        : '',
    optionId: editing?.optionId
      ? String(editing.optionId)
      : isOptionType && liveOptions.length === 1
        ? String(liveOptions[0].optionId)
        : '',
    postback: editing?.postback ?? '',
    agents: editing?.agents ?? '1',
    liConversionName: editing?.liConversionName ?? '',
    rotator_participant_email: editing?.rotator_participant_email ?? '',
    active: String(editing?.active ?? 1),
  });
  const [duplicateConfirmed, setDuplicateConfirmed] = useState<string | null>(null);
  const form = useItemForm(FORM, initial, open, editing?.offerPageId, () => setDuplicateConfirmed(null));
  const { values, setValue, errors, formError, busy } = form;

  const email = values.rotator_participant_email.trim().toLowerCase();
  const duplicate =
    email !== '' &&
    offers.some(
      (o) =>
        o.deleted === 0 &&
        o.offerPageId !== editing?.offerPageId &&
        o.rotator_participant_email.trim().toLowerCase() === email,
    );
  const warningShown = duplicate && duplicateConfirmed === email;

  const submit = () => {
    const body = {
      campaignId,
      ...values,
      pathId: values.pathId || null,
      optionId: values.optionId || null,
    };
    const checked = form.check(addOfferSchema, OFFER_FIELD_ORDER, body);
    if (!checked.ok) return;
    // The duplicate participant email warns first; a second click confirms (spec 2 §5).
    if (duplicate && duplicateConfirmed !== email) {
      setDuplicateConfirmed(email);
      return;
    }
    saveItem(
      form,
      OFFER_FIELD_ORDER,
      () => saveOffer(body, editing?.offerPageId),
      CAMPAIGN_MESSAGES.offerSaved,
      onSaved,
      onClose,
    );
  };

  return (
    <FormModal
      open={open}
      title={editing ? 'Edit offer page' : 'Add offer page'}
      formId={FORM}
      busy={busy}
      submitLabel={warningShown ? 'Save anyway' : editing ? 'Save offer page' : 'Add offer page'}
      onClose={onClose}
      onSubmit={submit}
    >
      {formError && <Alert>{formError}</Alert>}
      <TextField
        id={id(FORM, 'name')}
        label="Name"
        value={values.name}
        onValueChange={(v) => setValue('name', v)}
        error={errors.name}
        placeholder="Main offer"
        data-autofocus
      />
      <TextField
        id={id(FORM, 'url')}
        label="URL"
        value={values.url}
        onValueChange={(v) => setValue('url', v.trim())}
        error={errors.url}
        placeholder="https://network.example/offer?aff=123"
        hint="The click id is added as the network's parameter; {clickid} places it yourself."
        spellCheck={false}
        inputMode="url"
      />
      <div className="form-grid">
        <TextField
          id={id(FORM, 'share')}
          label="Share (weight)"
          value={values.share}
          onValueChange={(v) => setValue('share', v)}
          error={errors.share}
          inputMode="numeric"
        />
        <TextField
          id={id(FORM, 'payout')}
          label="Payout ($)"
          value={values.payout}
          onValueChange={(v) => setValue('payout', v)}
          error={errors.payout}
          inputMode="decimal"
          placeholder="0.00"
          hint="Used when the postback carries no payout."
        />
        {(isPathType || paths.length > 0) && (
          <SelectField
            id={id(FORM, 'pathId')}
            label="Path"
            value={values.pathId}
            onValueChange={(v) => setValue('pathId', v)}
            options={pathOptions(paths, isPathType)}
            error={errors.pathId}
          />
        )}
        {(isOptionType || liveOptions.length > 0) && (
          <SelectField
            id={id(FORM, 'optionId')}
            label="Option"
            value={values.optionId}
            onValueChange={(v) => setValue('optionId', v)}
            options={[
              { value: '', label: isOptionType ? 'Select an option' : 'No option' },
              ...liveOptions.map((o) => ({ value: String(o.optionId), label: o.name })),
            ]}
            error={errors.optionId}
          />
        )}
        <TextField
          id={id(FORM, 'postback')}
          label="Click id parameter"
          optional
          value={values.postback}
          onValueChange={(v) => setValue('postback', v.trim())}
          error={errors.postback}
          placeholder="Campaign default"
          hint="Only when this offer's network reads the click id from another parameter."
          spellCheck={false}
        />
        {trafficSource === 'liveintent' && (
          <TextField
            id={id(FORM, 'liConversionName')}
            label="LiveIntent conversion name"
            optional
            value={values.liConversionName}
            onValueChange={(v) => setValue('liConversionName', v)}
            error={errors.liConversionName}
          />
        )}
      </div>
      {(campaignType === 'rotator' || values.rotator_participant_email) && (
        <TextField
          id={id(FORM, 'rotator_participant_email')}
          label="Rotator participant email"
          optional
          type="email"
          value={values.rotator_participant_email}
          onValueChange={(v) => {
            setValue('rotator_participant_email', v);
            setDuplicateConfirmed(null);
          }}
          error={errors.rotator_participant_email}
          hint="The participant whose offer this is; they see it in the public rotator report."
          spellCheck={false}
        />
      )}
      {warningShown && (
        <div className="ce-alert-warning" role="alert" data-testid="duplicate-email-warning">
          {DUPLICATE_EMAIL_WARNING}
        </div>
      )}
      <DevicePicker
        id={id(FORM, 'agents')}
        agents={agents}
        value={parseAgents(values.agents)}
        onChange={(ids) => setValue('agents', ids.join(','))}
        error={errors.agents}
      />
      <Switch
        id={id(FORM, 'active')}
        checked={values.active === '1'}
        onChange={(on) => setValue('active', on ? '1' : '0')}
        label="Active"
        description="Paused offers get no traffic and keep their statistics."
      />
    </FormModal>
  );
}

// ---- path and option ---------------------------------------------------------------------------

export function PathModal({
  open,
  campaignId,
  agents,
  editing,
  onClose,
  onSaved,
}: Omit<Common, 'campaignType'> & { editing: PathItem | null; onSaved: (result: PathItem[]) => void }) {
  const FORM = 'path-form';
  const initial = () => ({
    name: editing?.name ?? '',
    share: String(editing?.share ?? 100),
    agents: editing?.agents ?? '1',
    active: String(editing?.active ?? 1),
  });
  const form = useItemForm(FORM, initial, open, editing?.pathId);
  const { values, setValue, errors, formError, busy } = form;

  const submit = () => {
    const body = { campaignId, ...values };
    const checked = form.check(addPathSchema, PATH_FIELD_ORDER, body);
    if (!checked.ok) return;
    saveItem(
      form,
      PATH_FIELD_ORDER,
      () => savePath(body, editing?.pathId),
      CAMPAIGN_MESSAGES.pathSaved,
      onSaved,
      onClose,
    );
  };

  return (
    <FormModal
      open={open}
      title={editing ? 'Edit path' : 'Add path'}
      formId={FORM}
      busy={busy}
      submitLabel={editing ? 'Save path' : 'Add path'}
      onClose={onClose}
      onSubmit={submit}
    >
      {formError && <Alert>{formError}</Alert>}
      <div className="form-grid">
        <TextField
          id={id(FORM, 'name')}
          label="Name"
          value={values.name}
          onValueChange={(v) => setValue('name', v)}
          error={errors.name}
          placeholder="Quiz funnel"
          data-autofocus
        />
        <TextField
          id={id(FORM, 'share')}
          label="Share (weight)"
          value={values.share}
          onValueChange={(v) => setValue('share', v)}
          error={errors.share}
          inputMode="numeric"
        />
      </div>
      <DevicePicker
        id={id(FORM, 'agents')}
        agents={agents}
        value={parseAgents(values.agents)}
        onChange={(ids) => setValue('agents', ids.join(','))}
        error={errors.agents}
      />
      <Switch
        id={id(FORM, 'active')}
        checked={values.active === '1'}
        onChange={(on) => setValue('active', on ? '1' : '0')}
        label="Active"
        description="A paused path and its pages get no traffic."
      />
    </FormModal>
  );
}

export function OptionModal({
  open,
  campaignId,
  editing,
  onClose,
  onSaved,
}: {
  open: boolean;
  campaignId: number;
  editing: OptionItem | null;
  onClose: () => void;
  onSaved: (result: OptionItem[]) => void;
}) {
  const FORM = 'option-form';
  const initial = () => ({ name: editing?.name ?? '', active: String(editing?.active ?? 1) });
  const form = useItemForm(FORM, initial, open, editing?.optionId);
  const { values, setValue, errors, formError, busy } = form;

  const submit = () => {
    const body = { campaignId, ...values };
    const checked = form.check(addOptionSchema, OPTION_FIELD_ORDER, body);
    if (!checked.ok) return;
    saveItem(
      form,
      OPTION_FIELD_ORDER,
      () => saveOption(body, editing?.optionId),
      CAMPAIGN_MESSAGES.optionSaved,
      onSaved,
      onClose,
    );
  };

  return (
    <FormModal
      open={open}
      title={editing ? 'Edit option' : 'Add option'}
      formId={FORM}
      busy={busy}
      submitLabel={editing ? 'Save option' : 'Add option'}
      onClose={onClose}
      onSubmit={submit}
    >
      {formError && <Alert>{formError}</Alert>}
      <TextField
        id={id(FORM, 'name')}
        label="Name"
        value={values.name}
        onValueChange={(v) => setValue('name', v)}
        error={errors.name}
        placeholder="Gold package"
        hint="Each option gets its own click-through link on the Links and pixels tab."
        data-autofocus
      />
      <Switch
        id={id(FORM, 'active')}
        checked={values.active === '1'}
        onChange={(on) => setValue('active', on ? '1' : '0')}
        label="Active"
      />
    </FormModal>
  );
}
