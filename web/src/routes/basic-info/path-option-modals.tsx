// Add and edit modals of paths and options (spec 2 §2, §7).
import {
  addOptionSchema,
  addPathSchema,
  CAMPAIGN_MESSAGES,
  OPTION_FIELD_ORDER,
  PATH_FIELD_ORDER,
} from '../../../../schema/campaign-api';
import { NAME_MAX } from '../../../../schema/validators';
import { Alert } from '../../components/alert';
import { TextField } from '../../components/field';
import { saveOption, savePath } from './api';
import { DevicePicker, parseAgents, Switch } from './editor-ui';
import { type Common, FormModal, id, saveItem, useItemForm } from './item-modal-parts';
import type { OptionItem, PathItem } from './types';

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
          maxLength={NAME_MAX}
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
        maxLength={NAME_MAX}
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
