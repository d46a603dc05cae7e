// Add and edit modals of landing pages and offers (spec 2 §2, §7; paths and options are in
// path-option-modals.tsx): the shared zod schemas check the form first, the server's 422
// messages land under their fields.
import {
  addLandingSchema,
  addOfferSchema,
  CAMPAIGN_MESSAGES,
  LANDING_FIELD_ORDER,
  OFFER_FIELD_ORDER,
} from '../../../../schema/campaign-api';
import { SelectField, TextField } from '../../components/field';
import { saveLanding, saveOffer } from './api';
import {
  type Common,
  DevicesAndActive,
  ItemModal,
  initialPathId,
  itemValues,
  NameField,
  PathField,
  ShareField,
  UrlField,
  useDuplicateEmailConfirmation,
  useItemModal,
} from './item-modal-parts';
import type { Landing, Offer, OptionItem, PathItem } from './types';

const trim = (value: string) => value.trim();

const LANDING = {
  formId: 'landing-form',
  noun: 'landing page',
  schema: addLandingSchema,
  order: LANDING_FIELD_ORDER,
  save: saveLanding,
  message: CAMPAIGN_MESSAGES.landingSaved,
};

const OFFER = {
  formId: 'offer-form',
  noun: 'offer page',
  schema: addOfferSchema,
  order: OFFER_FIELD_ORDER,
  save: saveOffer,
  message: CAMPAIGN_MESSAGES.offerSaved,
};

export function LandingModal({
  campaignType,
  agents,
  paths,
  editing,
  ...props
}: Common & { paths: PathItem[]; editing: Landing | null; onSaved: (result: Landing[]) => void }) {
  const isPathType = campaignType === 'multiple_path_type';
  const form = useItemModal(LANDING, {
    ...props,
    editingId: editing?.landingPageId,
    initial: () => ({
      ...itemValues(editing),
      url: editing?.url ?? '',
      pathId: initialPathId(editing?.pathId, paths, isPathType),
    }),
  });

  return (
    <ItemModal form={form}>
      <NameField form={form.fields} placeholder="Quiz page v2" />
      <UrlField
        form={form.fields}
        placeholder="https://example.com/lander"
        hint="Macros such as {clickid} are filled in when a visitor is sent here."
      />
      <div className="form-grid">
        <ShareField form={form.fields} hint="Traffic splits by weight among the active pages." />
        <PathField form={form.fields} paths={paths} isPathType={isPathType} />
      </div>
      <DevicesAndActive
        form={form.fields}
        agents={agents}
        description="Paused pages get no traffic and keep their statistics."
      />
    </ItemModal>
  );
}

// ---- offer page --------------------------------------------------------------------------------

const DUPLICATE_EMAIL_WARNING =
  'Another offer page already uses this rotator participant email. Select Save again to use it anyway.';

export function OfferModal({
  campaignType,
  trafficSource,
  agents,
  paths,
  options,
  offers,
  editing,
  ...props
}: Common & {
  trafficSource: string;
  paths: PathItem[];
  options: OptionItem[];
  offers: Offer[];
  editing: Offer | null;
  onSaved: (result: Offer[]) => void;
}) {
  const isPathType = campaignType === 'multiple_path_type';
  const isOptionType = campaignType === 'multiple_option_type';
  const liveOptions = options.filter((o) => o.deleted === 0);
  const initial = () => ({
    ...itemValues(editing),
    url: editing?.url ?? '',
    payout: editing ? String(editing.payout) : '',
    pathId: initialPathId(editing?.pathId, paths, isPathType),
    optionId: editing?.optionId
      ? String(editing.optionId)
      : isOptionType && liveOptions.length === 1
        ? String(liveOptions[0].optionId)
        : '',
    postback: editing?.postback ?? '',
    liConversionName: editing?.liConversionName ?? '',
    rotator_participant_email: editing?.rotator_participant_email ?? '',
  });
  const duplicateEmail = useDuplicateEmailConfirmation((email) =>
    offers.some(
      (o) =>
        o.deleted === 0 &&
        o.offerPageId !== editing?.offerPageId &&
        o.rotator_participant_email.trim().toLowerCase() === email,
    ),
  );
  const form = useItemModal(OFFER, {
    ...props,
    editingId: editing?.offerPageId,
    initial,
    onReset: duplicateEmail.reset,
    // The duplicate participant email warns first; a second click confirms (spec 2 §5).
    confirm: (values) => duplicateEmail.confirm(values.rotator_participant_email),
  });
  const { values } = form;
  const warningShown = duplicateEmail.warningShown(values.rotator_participant_email);

  return (
    <ItemModal form={form} submitLabel={warningShown ? 'Save anyway' : undefined}>
      <NameField form={form.fields} placeholder="Main offer" />
      <UrlField
        form={form.fields}
        placeholder="https://network.example/offer?aff=123"
        hint="The click id is added as the network's parameter; {clickid} places it yourself."
      />
      <div className="form-grid">
        <ShareField form={form.fields} />
        <TextField
          {...form.field('payout')}
          label="Payout ($)"
          inputMode="decimal"
          placeholder="0.00"
          hint="Used when the postback carries no payout."
        />
        <PathField form={form.fields} paths={paths} isPathType={isPathType} />
        {(isOptionType || liveOptions.length > 0) && (
          <SelectField
            {...form.field('optionId')}
            label="Option"
            options={[
              { value: '', label: isOptionType ? 'Select an option' : 'No option' },
              ...liveOptions.map((o) => ({ value: String(o.optionId), label: o.name })),
            ]}
          />
        )}
        <TextField
          {...form.field('postback', trim)}
          label="Click id parameter"
          optional
          placeholder="Campaign default"
          hint="Only when this offer's network reads the click id from another parameter."
          spellCheck={false}
        />
        {trafficSource === 'liveintent' && (
          <TextField {...form.field('liConversionName')} label="LiveIntent conversion name" optional />
        )}
      </div>
      {(campaignType === 'rotator' || values.rotator_participant_email) && (
        <TextField
          {...form.field('rotator_participant_email')}
          onValueChange={(v) => {
            form.setValue('rotator_participant_email', v);
            duplicateEmail.reset();
          }}
          label="Rotator participant email"
          optional
          type="email"
          hint="The participant whose offer this is; they see it in the public rotator report."
          spellCheck={false}
        />
      )}
      {warningShown && (
        <div className="ce-alert-warning" role="alert" data-testid="duplicate-email-warning">
          {DUPLICATE_EMAIL_WARNING}
        </div>
      )}
      <DevicesAndActive
        form={form.fields}
        agents={agents}
        description="Paused offers get no traffic and keep their statistics."
      />
    </ItemModal>
  );
}
