// Tabs 5 and 6 of the editor: the paths and the options of multiple-path and multiple-option
// campaigns.
import { useItems } from './api';
import {
  devicesColumn,
  nameColumn,
  shareColumn,
  statusColumn,
  trafficColumn,
  useItemEditor,
  useTrafficPercents,
} from './item-columns';
import { ITEM_IDS } from './item-kinds';
import { type Column, ItemsSection } from './items-section';
import { OptionModal, PathModal } from './path-option-modals';
import type { Agent, OptionItem, PathItem } from './types';

export function PathsTab({ campaignId, agents }: { campaignId: number; agents: Agent[] }) {
  const editor = useItemEditor<PathItem>(campaignId);
  const { data } = useItems('path', campaignId, false);
  const percents = useTrafficPercents(data?.result ?? [], ITEM_IDS.path, null);
  const columns: Column<PathItem>[] = [
    nameColumn('Path'),
    devicesColumn(agents),
    shareColumn(),
    trafficColumn(percents, ITEM_IDS.path),
    statusColumn(),
  ];
  return (
    <div className="ce-tab-stack">
      <ItemsSection kind="path" columns={columns} editor={editor} />
      <PathModal {...editor.modal} agents={agents} />
    </div>
  );
}

export function OptionsTab({ campaignId }: { campaignId: number }) {
  const editor = useItemEditor<OptionItem>(campaignId);
  const columns: Column<OptionItem>[] = [
    nameColumn('Option'),
    { key: 'id', label: 'Option id', num: true, render: (r) => <span className="mono">{r.optionId}</span> },
    statusColumn(),
  ];
  return (
    <div className="ce-tab-stack">
      <ItemsSection kind="option" columns={columns} editor={editor} />
      <OptionModal {...editor.modal} />
    </div>
  );
}
