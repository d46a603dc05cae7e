// The campaign editor's LiveIntent campaign and line item lists (spec 2 §3, §5; decision 092).
// They are saved with the campaign; the rules (schema/liveintent-lists.ts) run on the screen and
// on the server, with messages at the row and field they belong to.
import { ExternalLink, Plus, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { LiCampaignEntry, LiLineItemEntry } from '../../../../schema/liveintent-lists';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/field';
import { patchedAt, withoutAt } from '../../lib/rows';
import { basicId } from './campaign-form';
import { Switch } from './editor-ui';

type Props = {
  campaignId: number | null;
  campaigns: LiCampaignEntry[];
  lineItems: LiLineItemEntry[];
  errors: Record<string, string | undefined>;
  onCampaigns: (next: LiCampaignEntry[]) => void;
  onLineItems: (next: LiLineItemEntry[]) => void;
};

function RemoveRow({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label={label}
      icon={<Trash2 size={14} aria-hidden />}
      onClick={onRemove}
    >
      Remove
    </Button>
  );
}

export function LiveIntentLists({
  campaignId,
  campaigns,
  lineItems,
  errors,
  onCampaigns,
  onLineItems,
}: Props) {
  const setCampaign = (i: number, patch: Partial<LiCampaignEntry>) =>
    onCampaigns(patchedAt(campaigns, i, patch));
  const setItem = (i: number, patch: Partial<LiLineItemEntry>) => onLineItems(patchedAt(lineItems, i, patch));
  const parents = campaigns.filter((c) => c.liCampaignId);
  /** The props of the field that edits `key` of row `i` of `list`, with its message. */
  const rowField = <R extends object>(
    list: 'liCampaigns' | 'liLineItems',
    i: number,
    row: R,
    key: keyof R & string,
    set: (i: number, patch: Partial<R>) => void,
    clean: (value: string) => string = (value) => value,
  ) => ({
    id: basicId(`${list}.${i}.${key}`),
    value: String(row[key]),
    error: errors[`${list}.${i}.${key}`],
    onValueChange: (value: string) => set(i, { [key]: clean(value) } as Partial<R>),
  });
  const trim = (value: string) => value.trim();
  return (
    <div className="li-lists" data-testid="li-lists">
      {campaignId && (
        <p className="field-hint">
          <Link to={`/manage-liveintent/campaign/${campaignId}`} className="li-manage-link">
            <ExternalLink size={14} aria-hidden /> Manage this campaign on LiveIntent
          </Link>
        </p>
      )}
      <h3 className="li-lists-title">LiveIntent campaigns</h3>
      {campaigns.length === 0 && <p className="field-hint">No LiveIntent campaign yet.</p>}
      {campaigns.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved; the index is their place
        <div key={i} className="li-list-row" data-testid="li-campaign-entry">
          <TextField
            {...rowField('liCampaigns', i, c, 'liCampaignId', setCampaign, trim)}
            label="Campaign ID"
            inputMode="numeric"
          />
          <TextField
            {...rowField('liCampaigns', i, c, 'liCampaignName', setCampaign)}
            label="Name"
            optional
          />
          <RemoveRow
            label={`Remove LiveIntent campaign ${c.liCampaignId || i + 1}`}
            onRemove={() => onCampaigns(withoutAt(campaigns, i))}
          />
        </div>
      ))}
      <Button
        size="sm"
        icon={<Plus size={14} aria-hidden />}
        onClick={() => onCampaigns([...campaigns, { liCampaignId: '', liCampaignName: '', deleted: 0 }])}
        data-testid="li-add-campaign"
      >
        Add campaign
      </Button>

      <h3 className="li-lists-title">LiveIntent line items</h3>
      {lineItems.length === 0 && <p className="field-hint">No line item yet.</p>}
      {lineItems.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved; the index is their place
        <div key={i} className="li-list-row li-list-row-wide" data-testid="li-lineitem-entry">
          <TextField
            {...rowField('liLineItems', i, l, 'liLineItemId', setItem, trim)}
            label="Line item ID"
            inputMode="numeric"
          />
          <TextField {...rowField('liLineItems', i, l, 'liLineItemName', setItem)} label="Name" optional />
          <TextField
            {...rowField('liLineItems', i, l, 'liDailyBudget', setItem, trim)}
            label="Daily budget ($)"
            inputMode="decimal"
          />
          <SelectField
            {...rowField('liLineItems', i, l, 'liCampaignId', setItem)}
            label="Campaign ID"
            options={[
              { value: '', label: 'Select a campaign' },
              ...parents.map((c) => ({
                value: c.liCampaignId,
                label: c.liCampaignName ? `${c.liCampaignId} · ${c.liCampaignName}` : c.liCampaignId,
              })),
              ...(l.liCampaignId && !parents.some((c) => c.liCampaignId === l.liCampaignId)
                ? [{ value: l.liCampaignId, label: `${l.liCampaignId} (not in the list)` }]
                : []),
            ]}
          />
          <Switch
            id={basicId(`liLineItems.${i}.status`)}
            checked={l.status === 1}
            onChange={(on) => setItem(i, { status: on ? 1 : 0 })}
            label="Active"
          />
          <RemoveRow
            label={`Remove line item ${l.liLineItemId || i + 1}`}
            onRemove={() => onLineItems(withoutAt(lineItems, i))}
          />
        </div>
      ))}
      <Button
        size="sm"
        icon={<Plus size={14} aria-hidden />}
        onClick={() =>
          onLineItems([
            ...lineItems,
            {
              liLineItemId: '',
              liLineItemName: '',
              liDailyBudget: '',
              liCampaignId: parents[0]?.liCampaignId ?? '',
              status: 0,
              deleted: 0,
            },
          ])
        }
        data-testid="li-add-lineitem"
      >
        Add line item
      </Button>
    </div>
  );
}
