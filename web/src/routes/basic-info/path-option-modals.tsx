// Add and edit modals of paths and options (spec 2 §2, §7).
import {
  addOptionSchema,
  addPathSchema,
  CAMPAIGN_MESSAGES,
  OPTION_FIELD_ORDER,
  PATH_FIELD_ORDER,
} from '../../../../schema/campaign-api';
import { saveOption, savePath } from './api';
import {
  type Common,
  DevicesAndActive,
  ItemModal,
  itemValues,
  NameField,
  ShareField,
  useItemModal,
} from './item-modal-parts';
import type { OptionItem, PathItem } from './types';

const PATH = {
  formId: 'path-form',
  noun: 'path',
  schema: addPathSchema,
  order: PATH_FIELD_ORDER,
  save: savePath,
  message: CAMPAIGN_MESSAGES.pathSaved,
};

const OPTION = {
  formId: 'option-form',
  noun: 'option',
  schema: addOptionSchema,
  order: OPTION_FIELD_ORDER,
  save: saveOption,
  message: CAMPAIGN_MESSAGES.optionSaved,
};

export function PathModal({
  agents,
  editing,
  ...props
}: Omit<Common, 'campaignType'> & { editing: PathItem | null; onSaved: (result: PathItem[]) => void }) {
  const form = useItemModal(PATH, {
    ...props,
    editingId: editing?.pathId,
    initial: () => itemValues(editing),
  });
  return (
    <ItemModal form={form}>
      <div className="form-grid">
        <NameField form={form.fields} placeholder="Quiz funnel" />
        <ShareField form={form.fields} />
      </div>
      <DevicesAndActive
        form={form.fields}
        agents={agents}
        description="A paused path and its pages get no traffic."
      />
    </ItemModal>
  );
}

export function OptionModal({
  editing,
  ...props
}: {
  open: boolean;
  campaignId: number;
  editing: OptionItem | null;
  onClose: () => void;
  onSaved: (result: OptionItem[]) => void;
}) {
  const form = useItemModal(OPTION, {
    ...props,
    editingId: editing?.optionId,
    initial: () => ({ name: editing?.name ?? '', active: String(editing?.active ?? 1) }),
  });
  return (
    <ItemModal form={form}>
      <NameField
        form={form.fields}
        placeholder="Gold package"
        hint="Each option gets its own click-through link on the Links and pixels tab."
      />
      <DevicesAndActive form={form.fields} />
    </ItemModal>
  );
}
