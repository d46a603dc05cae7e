// Add and edit modals of landing pages and offers (spec 2 §2, §7; paths and options are in
// path-option-modals.tsx): the shared zod schemas check the form first, the server's 422
// messages land under their fields.
import { useState } from 'react';
import {
  addLandingSchema,
  addOfferSchema,
  CAMPAIGN_MESSAGES,
  LANDING_FIELD_ORDER,
  OFFER_FIELD_ORDER,
} from '../../../../schema/campaign-api';
import { NAME_MAX } from '../../../../schema/validators';
import { Alert } from '../../components/alert';
import { SelectField, TextField } from '../../components/field';
import { saveLanding, saveOffer } from './api';
import { DevicePicker, parseAgents, Switch } from './editor-ui';
import { type Common, FormModal, id, pathOptions, saveItem, useItemForm } from './item-modal-parts';
import type { Landing, Offer, OptionItem, PathItem } from './types';

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
        maxLength={NAME_MAX}
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

const DUPLICATE_EMAIL_WARNING =
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
        maxLength={NAME_MAX}
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
